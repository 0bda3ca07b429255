/**
 * A generation job's CPU work (reading the pages it was handed, choosing, describing, rendering,
 * sizing its files) in a worker thread of its own, with a heap limit, ended when the job is: a
 * crafted page that makes it slow or large stops that job, never the API's event loop or another
 * job. The crawl stays on the event loop (it waits on the network); the model describer's calls
 * and the page pool's extraction are made from here on the thread's behalf, as both are shared by
 * the process's jobs (one client per model, one pool of page threads).
 */
import { Worker } from 'node:worker_threads';
import { jobMessages } from '../errors.ts';
import type { Describer, ExtractedPage, FileSize, GenerationMethod, GenerationProgress, GenerationResult, OwnMarkdown, PageInput, PageReading } from '../llms-txt/index.ts';
import type { PagePool } from './page-pool.ts';
import type { CollectedPages } from './pipeline.ts';

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

export interface GeneratedFiles {
  result: GenerationResult;
  sizes: { llmsTxt: FileSize; llmsFullTxt: FileSize | null };
}

/** A page as it crosses to the thread: decoded, its reading done. */
export type PageForThread = Pick<PageInput, 'url' | 'lastModified' | 'priority'> & { html: string; reading?: PageReading; ownMarkdown: OwnMarkdown | null };

export type ToThread =
  | { type: 'start'; settings: GenerationSettings }
  | { type: 'page'; page: PageForThread }
  /** no more pages; the sitemaps' dates, for the pages the crawler handed over before they were known */
  | { type: 'end'; dates: Array<[string, string | null]> }
  | { type: 'answer'; id: number; value?: unknown; error?: string }
  | { type: 'describing'; id: number; done: number; total: number };

export type FromThread =
  | { type: 'taken' }
  | { type: 'progress'; progress: GenerationProgress }
  | { type: 'pagesRead' }
  | { type: 'call'; id: number; method: 'describe'; args: Parameters<Describer['describe']> }
  | { type: 'call'; id: number; method: 'extract'; args: [html: string, url: string] }
  | { type: 'done'; files: GeneratedFiles };

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

const startThread = (memoryMb: number) => new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: memoryMb } });

/**
 * The jobs' threads: each job takes one of its own, and one more waits for the next job with its
 * modules and tokenizer loaded, which a thread started for the job would load while the job waits
 * (docs/decisions.md, issue 35). A waiting thread does not keep the process alive.
 */
export interface GenerationThreads {
  /** The waiting thread if it has this heap limit, else a new one. */
  take(memoryMb: number): Worker;
  close(): Promise<void>;
}

export function createGenerationThreads(memoryMb: number): GenerationThreads {
  let waiting: { worker: Worker; memoryMb: number } | null = null;
  let closed = false;
  const startWaiting = (limit: number) => {
    if (closed || waiting) return;
    const entry = { worker: startThread(limit), memoryMb: limit };
    entry.worker.unref();
    // A thread that ends while it waits is replaced when the next job takes one.
    entry.worker.on('error', () => {});
    entry.worker.once('exit', () => {
      if (waiting === entry) waiting = null;
    });
    waiting = entry;
  };
  startWaiting(memoryMb);
  return {
    take(limit) {
      const ready = waiting?.memoryMb === limit ? waiting.worker : null;
      if (!ready) void waiting?.worker.terminate();
      waiting = null;
      ready?.ref();
      const worker = ready ?? startThread(limit);
      // The next job's thread starts once this one's job is over, not beside it.
      worker.once('exit', () => startWaiting(limit));
      return worker;
    },
    async close() {
      closed = true;
      await waiting?.worker.terminate();
      waiting = null;
    },
  };
}

/** Generates the job's files in a thread of its own, fed with the collected pages as they arrive; the thread ends with the call. */
export async function generateInThread(collected: CollectedPages, settings: GenerationSettings, context: ThreadContext): Promise<GeneratedFiles> {
  context.signal.throwIfAborted();
  const worker = context.threads?.take(context.memoryMb) ?? startThread(context.memoryMb);
  worker.postMessage({ type: 'start', settings } satisfies ToThread);
  const room = new Room(PAGES_IN_FLIGHT);
  const ended = new Promise<never>((_, reject) => {
    context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true });
    worker.on('error', (error: Error & { code?: string }) =>
      reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new Error(jobMessages.overMemoryLimit(context.memoryMb)) : error),
    );
    worker.on('exit', () => reject(new Error(jobMessages.unexpected)));
  });
  ended.catch(() => room.close());
  const done = new Promise<GeneratedFiles>((resolve) => {
    worker.on('message', (message: FromThread) => {
      if (message.type === 'done') resolve(message.files);
      else if (message.type === 'taken') room.free();
      else if (message.type === 'progress') context.onProgress(message.progress);
      else if (message.type === 'pagesRead') context.pages?.retireWhenIdle();
      else void answer(worker, message, context);
    });
  });
  try {
    return await Promise.race([done, ended, feed(worker, collected, room).then(() => done)]);
  } finally {
    await worker.terminate();
  }
}

async function feed(worker: Worker, collected: CollectedPages, room: Room): Promise<void> {
  for await (const page of collected.pages) {
    const html = typeof page.html === 'string' ? page.html : page.html();
    const reading = page.reading ? await page.reading : undefined;
    const ownMarkdown = (await page.ownMarkdown) ?? null;
    if (!(await room.take())) return;
    worker.postMessage({ type: 'page', page: { url: page.url, html, lastModified: page.lastModified, priority: page.priority, reading, ownMarkdown } } satisfies ToThread);
  }
  const discovered = await collected.discovered;
  worker.postMessage({ type: 'end', dates: discovered.map((u) => [u.url, u.lastModified]) } satisfies ToThread);
}

/** Runs a call the thread made (the model describer, the page pool) and sends the answer back. */
async function answer(worker: Worker, call: Extract<FromThread, { type: 'call' }>, context: ThreadContext): Promise<void> {
  const send = (message: ToThread) => {
    // The thread may have ended meanwhile (its job failed); the answer has nobody to go to.
    try {
      worker.postMessage(message);
    } catch {}
  };
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

const extractIn = (pages: PagePool, [html, url]: [string, string]): Promise<ExtractedPage> => pages.extract(html, url);

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

  free(): void {
    this.inFlight--;
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }
}
