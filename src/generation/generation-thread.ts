/**
 * A generation job's CPU work (reading the pages it was handed, choosing, describing, rendering,
 * sizing its files) in a worker thread with a heap limit, one job at a time: a crafted page that
 * makes a job slow or large stops that job and ends its thread, never the API's event loop or
 * another job. The crawl stays on the event loop (it waits on the network); the model describer's
 * calls and the page pool's extraction are made from here on the thread's behalf, as both are
 * shared by the process's jobs (one client per model, one pool of page threads). Pages cross as
 * their transferred bytes, the files as one transferred buffer (see thread-transfer.ts).
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { jobMessages } from '../errors.ts';
import type { Describer, ExtractedPage, Extractor, FileSize, GenerationMethod, GenerationProgress, GenerationResult, OwnMarkdown, PageInput, PageReading } from '../llms-txt/index.ts';
import type { PagePool } from './page-pool.ts';
import type { CollectedPages } from './page-collection.ts';
import { unpackResult, type PackedResult } from './thread-transfer.ts';

/** What the thread generates from, as the job's options say. */
export interface GenerationSettings {
  siteUrl: string;
  method: GenerationMethod;
  maxPages: number;
  includeModificationDate: boolean;
  fullText: boolean;
  maxFullTextTokens: number | null;
  /** the process's model describer's kind, when it has one: the thread asks for its descriptions */
  describerKind: Describer['kind'] | null;
  /** the page pool's concurrency, when pages are extracted there rather than in the thread */
  extractorConcurrency: number | null;
  /** linkMarkdown: where the hosted markdown copies are (see hostedMarkdownUrl); null links the pages themselves */
  hostedMarkdownBase: string | null;
}

export interface FileSizes {
  llmsTxt: FileSize;
  llmsFullTxt: FileSize | null;
}

/**
 * The files, and their sizes to come: the thread sizes them (most of a second for a large
 * llms-full.txt) while the event loop stores the files. `sizes` rejects when the thread fails first.
 */
export interface GeneratedFiles {
  result: GenerationResult;
  sizes: Promise<FileSizes>;
}

/**
 * A page as it crosses to the thread: its bytes as fetched, transferred rather than copied, and
 * decoded there if the generator wants its HTML; its reading done.
 */
export type PageForThread = Pick<PageInput, 'url' | 'lastModified' | 'priority'> & {
  bytes: Uint8Array;
  contentType: string | null;
  reading?: PageReading;
  ownMarkdown: OwnMarkdown | null;
};

/** The first message of a job to its thread; the rest of the job goes through `port`. */
export type JobStart = { type: 'start'; settings: GenerationSettings; port: MessagePort };

export type ToThread =
  | { type: 'page'; page: PageForThread }
  /** no more pages; the sitemaps' dates, for the pages the crawler handed over before they were known */
  | { type: 'end'; dates: Array<[string, string | null]> }
  | { type: 'answer'; id: number; value?: unknown; error?: string }
  | { type: 'describing'; id: number; done: number; total: number };

export type FromThread =
  /** pages taken since the last such message */
  | { type: 'taken'; count: number }
  | { type: 'progress'; progress: GenerationProgress }
  | { type: 'pagesRead' }
  | { type: 'call'; id: number; method: 'describe'; args: Parameters<Describer['describe']> }
  | { type: 'call'; id: number; method: 'extract'; args: Parameters<Extractor> }
  | { type: 'done'; result: PackedResult }
  | { type: 'sized'; sizes: FileSizes }
  /** the generator threw: the job fails with this message */
  | { type: 'failed'; message: string };

export interface ThreadContext {
  /** where the job's thread comes from; a new one when absent */
  threads?: GenerationThreads;
  describer: Describer | null;
  pages?: PagePool;
  /** the thread's heap limit */
  memoryMb: number;
  /** ends the thread (the job was canceled, lost, or is over its time budget) */
  signal: AbortSignal;
  onProgress(progress: GenerationProgress): void;
}

/** Pages handed to the thread and not yet taken; the crawler waits beyond (as it did for the generator on the event loop). */
const PAGES_IN_FLIGHT = 32;

const WORKER_FILE = new URL('./generation-worker.ts', import.meta.url);

function startThread(memoryMb: number): Worker {
  const worker = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
  // A thread that fails between jobs is not taken again (see GenerationThreads); a job listens for its own.
  worker.on('error', () => {});
  return worker;
}

/**
 * The jobs' threads. A thread whose job completed waits for the next job, its modules loaded and
 * its code compiled; a thread whose job failed (over its time or memory budget, canceled, or
 * the generator threw) is ended, as it may be in any state, and a new one starts to wait once it
 * has ended (started beside a running job, it slowed that job on two cores). One thread waits
 * at most; jobs that run at once beyond it start their own. A waiting thread does not keep the
 * process alive.
 */
export interface GenerationThreads {
  /** Settles once the first waiting thread has loaded its code and tokenizer, or has ended. */
  loaded: Promise<void>;
  /** The waiting thread if it has this heap limit, else a new one. */
  take(memoryMb: number): Worker;
  /** A thread whose job completed: it waits for the next job, unless another already does. */
  give(worker: Worker, memoryMb: number): void;
  close(): Promise<void>;
}

export function createGenerationThreads(memoryMb: number): GenerationThreads {
  let waiting: { worker: Worker; memoryMb: number } | null = null;
  let closed = false;
  const wait = (worker: Worker, limit: number) => {
    if (closed || waiting) return void worker.terminate();
    worker.unref();
    waiting = { worker, memoryMb: limit };
  };
  const taken = new WeakSet<Worker>();
  // One exit listener per thread, added when it starts: a thread goes back to waiting after each
  // completed job, and a listener per wait added one per job (11 on a thread that ran 11 jobs).
  const start = (limit: number) => {
    const worker = startThread(limit);
    worker.once('exit', () => {
      if (waiting?.worker === worker) waiting = null;
      // A thread ends while a job runs on it only when that job failed: one starts to wait in its place.
      else if (taken.has(worker) && !closed && !waiting) wait(start(limit), limit);
    });
    return worker;
  };
  const first = start(memoryMb);
  const loaded = new Promise<void>((resolve) => {
    first.once('message', () => resolve());
    first.once('exit', () => resolve());
  });
  wait(first, memoryMb);
  return {
    loaded,
    take(limit) {
      const ready = waiting?.memoryMb === limit ? waiting.worker : null;
      if (!ready) void waiting?.worker.terminate();
      waiting = null;
      const worker = ready ?? start(limit);
      worker.ref();
      taken.add(worker);
      return worker;
    },
    give(worker, limit) {
      wait(worker, limit);
    },
    async close() {
      closed = true;
      await waiting?.worker.terminate();
      waiting = null;
    },
  };
}

/**
 * Generates the job's files in a thread (the waiting one, or its own), fed with the collected pages
 * as they arrive. Answers with the files while the thread sizes them; the thread is given back (or
 * ended) once it has, or has failed.
 */
export async function generateInThread(collected: CollectedPages, settings: GenerationSettings, context: ThreadContext): Promise<GeneratedFiles> {
  context.signal.throwIfAborted();
  const worker = context.threads?.take(context.memoryMb) ?? startThread(context.memoryMb);
  const { port1: port, port2 } = new MessageChannel();
  worker.postMessage({ type: 'start', settings, port: port2 } satisfies JobStart, [port2]);
  const room = new Room(PAGES_IN_FLIGHT);
  const generated = answer<GenerationResult>();
  const sized = answer<FileSizes>();
  let released = false;
  // A thread whose job completed waits for the next job; a thread whose job failed is ended.
  const release = (completed: boolean) => {
    if (released) return;
    released = true;
    context.signal.removeEventListener('abort', onAbort);
    worker.off('error', onError);
    worker.off('exit', onExit);
    room.close();
    port.close();
    if (completed && context.threads) context.threads.give(worker, context.memoryMb);
    else void worker.terminate();
  };
  const fail = (error: Error) => {
    release(false);
    generated.reject(error);
    sized.reject(error);
  };
  const onAbort = () => fail(context.signal.reason);
  const onError = (error: Error & { code?: string }) => fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new Error(jobMessages.overMemoryLimit(context.memoryMb)) : error);
  const onExit = () => fail(new Error(jobMessages.unexpected));
  context.signal.addEventListener('abort', onAbort, { once: true });
  worker.on('error', onError);
  worker.on('exit', onExit);
  port.on('message', (message: FromThread) => {
    if (message.type === 'done') generated.resolve(unpackResult(message.result));
    else if (message.type === 'sized') {
      release(true);
      sized.resolve(message.sizes);
    } else if (message.type === 'failed') fail(new Error(message.message));
    else if (message.type === 'taken') room.free(message.count);
    else if (message.type === 'progress') context.onProgress(message.progress);
    else if (message.type === 'pagesRead') context.pages?.retireWhenIdle();
    else void runCall(port, message, context);
  });
  try {
    const result = await Promise.race([generated.promise, feed(port, collected, room).then(() => generated.promise)]);
    return { result, sizes: sized.promise };
  } catch (error) {
    fail(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

async function feed(port: MessagePort, collected: CollectedPages, room: Room): Promise<void> {
  for await (const { url, lastModified, priority, reading, ownMarkdown, response } of collected.pages) {
    const bytes = new Uint8Array(response.body);
    const page: PageForThread = { url, lastModified, priority, bytes, contentType: response.contentType, reading: await reading, ownMarkdown: (await ownMarkdown) ?? null };
    if (!(await room.take())) return;
    port.postMessage({ type: 'page', page } satisfies ToThread, [page.bytes.buffer as ArrayBuffer]);
  }
  const discovered = await collected.discovered;
  port.postMessage({ type: 'end', dates: discovered.map((u) => [u.url, u.lastModified]) } satisfies ToThread);
}

/** Runs a call the thread made (the model describer, the page pool) and sends the answer back. */
async function runCall(port: MessagePort, call: Extract<FromThread, { type: 'call' }>, context: ThreadContext): Promise<void> {
  // After the job, its port is closed: the answer (to a speculative extraction, say) is dropped.
  const send = (message: ToThread) => port.postMessage(message);
  try {
    const value =
      call.method === 'describe'
        ? await context.describer!.describe(call.args[0], call.args[1], {
            signal: context.signal,
            onProgress: (done, total) => send({ type: 'describing', id: call.id, done, total }),
          })
        : await extractIn(context.pages!, call.args);
    send({ type: 'answer', id: call.id, value });
  } catch (error) {
    send({ type: 'answer', id: call.id, error: error instanceof Error ? error.message : String(error) });
  }
}

const extractIn = (pages: PagePool, args: Parameters<Extractor>): Promise<ExtractedPage> => pages.extract(...args);

/** The answer the thread will send; not awaited when the job failed before it. */
function answer<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** A count of pages in flight to the thread, waited on when full; closed when the thread ends. */
class Room {
  private inFlight = 0;
  private closed = false;
  private wake: (() => void) | null = null;
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** False once the thread has ended: nothing more is to be sent. */
  async take(): Promise<boolean> {
    while (this.inFlight >= this.capacity && !this.closed) await new Promise<void>((r) => (this.wake = r));
    this.inFlight++;
    return !this.closed;
  }

  free(count: number): void {
    this.inFlight -= count;
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }
}
