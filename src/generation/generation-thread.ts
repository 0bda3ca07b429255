/**
 * A generation job's CPU work (reading the pages it was handed, choosing, describing, rendering,
 * sizing its files) in a worker thread with a heap limit, one job at a time: a crafted page that
 * makes a job slow or large stops that job and ends its thread, never the API's event loop or
 * another job. The crawl stays on the event loop (it waits on the network); the model describer's
 * calls and the page pool's extraction are made from here on the thread's behalf, as both are
 * shared by the process's jobs (one client per model, one pool of page threads). Pages cross as
 * their transferred bytes, the files as one transferred buffer (see thread-transfer.ts).
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { jobMessages } from '../errors.ts';
import { needsHtml, wantsMarkdown } from '../llms-txt/html-wanted.ts';
import type { Describer, ExtractedPage, Extractor, FileSize, GenerationMethod, GenerationProgress, GenerationResult, OwnMarkdown, PageInput, PageReading } from '../llms-txt/index.ts';
import type { PagePool } from './page-pool.ts';
import type { CollectedPages } from './page-collection.ts';
import { startThread, type GenerationThreads } from './generation-threads.ts';
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
 * A page as it crosses to the thread: its reading done, and its bytes as fetched if the generator
 * wants its HTML (see needsHtml), transferred rather than copied, and decoded there.
 */
export type PageForThread = Pick<PageInput, 'url' | 'lastModified' | 'priority'> & {
  bytes: Uint8Array | null;
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
    const result = await Promise.race([generated.promise, feed(port, collected, room, settings).then(() => generated.promise)]);
    return { result, sizes: sized.promise };
  } catch (error) {
    fail(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

async function feed(port: MessagePort, collected: CollectedPages, room: Room, settings: GenerationSettings): Promise<void> {
  const markdown = wantsMarkdown({ method: settings.method, fullText: settings.fullText, markdownLink: settings.hostedMarkdownBase !== null });
  for await (const { url, lastModified, priority, reading, ownMarkdown, response } of collected.pages) {
    const read = await reading;
    // A page the thread reads from its facts alone goes without its bytes (14 kB a page of the PostgreSQL manual, copied for nothing).
    const bytes = !read || needsHtml(read.outline, markdown) ? new Uint8Array(response.body) : null;
    const page: PageForThread = { url, lastModified, priority, bytes, contentType: response.contentType, reading: read, ownMarkdown: (await ownMarkdown) ?? null };
    if (!(await room.take())) return;
    port.postMessage({ type: 'page', page } satisfies ToThread, bytes ? [bytes.buffer as ArrayBuffer] : []);
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
