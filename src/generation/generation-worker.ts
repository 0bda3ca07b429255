// Runs in a generation thread (see generation-thread.ts), one job after another: each job's pages
// arrive as messages on the port its start brings, its files leave on it; the model describer and
// the page pool are asked through the parent.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { decodeBody } from '../crawl/charset.ts';
import { fileSize, generateLlmsTxt, LineCounts, loadTokenCounter, MarkdownLines, rememberingCounter, renderLlmsTxt, type Describer, type ExtractedPage, type Extractor, type GenerationResult, type PageInput, type TokenCounter } from '../llms-txt/index.ts';
import { hostedMarkdownUrl } from '../sites/markdown-paths.ts';
import type { FromThread, GenerationSettings, JobStart, PageForThread, ToThread } from './generation-thread.ts';
import type { GenerationWorkerData } from './generation-threads.ts';
import { warmUpGeneration } from './generation-warm-up.ts';
import { collectGarbageBetweenJobs } from './heap.ts';
import { packResult } from './thread-transfer.ts';
import { GENERATION_THREAD_NICENESS, lowerThreadPriority } from './thread-priority.ts';

lowerThreadPriority(GENERATION_THREAD_NICENESS);

// Loaded while the thread waits for its first job (see GenerationThreads); the parent is told
// (a tokenizer that failed to load fails each job instead, a failed warm-up leaves the code cold).
const tokenCounter = loadTokenCounter();
const tellLoaded = () => parentPort!.postMessage('loaded');
const warmUp = (countTokens: TokenCounter) => ((workerData as GenerationWorkerData | null)?.warmUp ? warmUpGeneration(countTokens) : undefined);
void tokenCounter.then(warmUp).then(tellLoaded, tellLoaded);

/** Lines counted by this thread's jobs (see rememberingCounter): a site generated again finds most of its files counted. */
const lineCounts = new LineCounts();

/**
 * Pages taken are told to the parent this many at a time (see Room in generation-thread.ts), and
 * all of them whenever the inbox runs empty (the parent may be waiting for room): a message per
 * page woke the event loop 1,169 times in a job of the PostgreSQL manual.
 */
const TAKEN_PER_MESSAGE = 8;

/** The pages as they arrive, then the sitemaps' dates. */
class Inbox implements AsyncIterable<PageInput> {
  private readonly pages: PageForThread[] = [];
  private taken = 0;
  private wake: (() => void) | null = null;
  private ended = false;
  readonly dates: Promise<Map<string, string | null>>;
  private setDates!: (dates: Map<string, string | null>) => void;
  private readonly onTaken: (count: number) => void;

  constructor(onTaken: (count: number) => void) {
    this.onTaken = onTaken;
    this.dates = new Promise((resolve) => (this.setDates = resolve));
  }

  add(page: PageForThread): void {
    this.pages.push(page);
    this.wake?.();
  }

  end(dates: Array<[string, string | null]>): void {
    this.ended = true;
    this.setDates(new Map(dates));
    this.wake?.();
  }

  private tell(): void {
    if (this.taken > 0) this.onTaken(this.taken);
    this.taken = 0;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<PageInput> {
    for (;;) {
      const page = this.pages.shift();
      if (page) {
        if (++this.taken === TAKEN_PER_MESSAGE) this.tell();
        const { bytes, contentType, ...rest } = page;
        // Decoded only if the generator wants the HTML; a page read from its facts alone comes without its bytes.
        yield { ...rest, html: bytes ? () => decodeBody(bytes, contentType) : '' };
        continue;
      }
      if (this.ended) return;
      this.tell();
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
  }
}

/** Calls to the parent, by an id unique in the thread: an answer to an earlier job's call finds none. */
const calls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; onProgress?(done: number, total: number): void }>();
let lastCall = 0;

/**
 * How long the thread waits idle after a job before it collects that job's garbage: a job that
 * follows at once (a queue of jobs) does not wait for the collection, which its own make moot,
 * and a job's files go back while the thread's core is still the event loop's to store them.
 */
const IDLE_BEFORE_COLLECTION_MS = 1000;

let collection: ReturnType<typeof setTimeout> | undefined;

parentPort!.on('message', ({ settings, port }: JobStart) => {
  clearTimeout(collection);
  runJob(settings, port).catch((error: unknown) => {
    port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies FromThread);
  });
});

async function runJob(settings: GenerationSettings, port: MessagePort): Promise<void> {
  const post = (message: FromThread) => port.postMessage(message);
  const inbox = new Inbox((count) => post({ type: 'taken', count }));
  const call = <T>(message: Omit<Extract<FromThread, { type: 'call' }>, 'id'>, onProgress?: (done: number, total: number) => void) => {
    const id = ++lastCall;
    return new Promise<T>((resolve, reject) => {
      calls.set(id, { resolve: resolve as (value: unknown) => void, reject, onProgress });
      post({ ...message, id } as FromThread);
    });
  };
  port.on('message', (message: ToThread) => {
    if (message.type === 'page') return inbox.add(message.page);
    if (message.type === 'end') return inbox.end(message.dates);
    const pending = calls.get(message.id);
    if (message.type === 'describing') return pending?.onProgress?.(message.done, message.total);
    calls.delete(message.id);
    if (message.error !== undefined) pending?.reject(new Error(message.error));
    else pending?.resolve(message.value);
  });
  // The files are counted after the render (see rememberingCounter); a tokenizer that failed to load fails the job now.
  const counter = rememberingCounter(await tokenCounter, lineCounts);
  // llms-full.txt's lines are keyed as their pages' markdown comes back (see MarkdownLines).
  const markdownLines = new MarkdownLines();
  const extract = (...args: Parameters<Extractor>) =>
    call<ExtractedPage>({ type: 'call', method: 'extract', args }).then((page) => {
      if (settings.fullText) markdownLines.remember(page.markdown);
      return page;
    });
  const describer: Describer | undefined = settings.describerKind
    ? { kind: settings.describerKind, describe: (site, pages, options) => call({ type: 'call', method: 'describe', args: [site, pages] }, options?.onProgress) }
    : undefined;

  const result = await generateLlmsTxt(inbox, {
    siteUrl: settings.siteUrl,
    method: settings.method,
    maxPages: settings.maxPages,
    describer,
    includeModificationDate: settings.includeModificationDate,
    fullText: settings.fullText,
    maxFullTextTokens: settings.maxFullTextTokens,
    extractor: settings.extractorConcurrency ? extract : undefined,
    extractorConcurrency: settings.extractorConcurrency ?? undefined,
    markdownLines,
    onPagesRead: () => post({ type: 'pagesRead' }),
    markdownLink: settings.hostedMarkdownBase === null ? undefined : (pageUrl) => hostedMarkdownUrl(settings.hostedMarkdownBase!, pageUrl),
    // A job counts its pages as they are fetched (generation-job.ts), not as read here: a message
    // per page read would cross to the event loop unread.
    onProgress: (progress) => progress.phase !== 'extract' && post({ type: 'progress', progress }),
  });
  datePagesFromSitemaps(result, await inbox.dates, settings.includeModificationDate);
  await sendFiles(port, result, counter);
  // The job's pages, markdown and files are garbage now; the thread waits with its live heap only.
  collection = setTimeout(collectGarbageBetweenJobs, IDLE_BEFORE_COLLECTION_MS);
}

/** The files first (the event loop stores them while they are sized here), then their sizes. */
async function sendFiles(port: MessagePort, result: GenerationResult, counter: TokenCounter): Promise<void> {
  const { packed, transfer } = packResult(result);
  port.postMessage({ type: 'done', result: packed } satisfies FromThread, transfer);
  const sizes = {
    llmsTxt: await fileSize(result.llmsTxt, counter),
    llmsFullTxt: result.llmsFullTxt === null ? null : await fileSize(result.llmsFullTxt, counter),
  };
  port.postMessage({ type: 'sized', sizes } satisfies FromThread);
}

/**
 * Pages the crawler handed over before the sitemaps' dates were known have none: they get them
 * here, and llms.txt is rendered again when it shows dates.
 */
function datePagesFromSitemaps(result: GenerationResult, dates: Map<string, string | null>, includeModificationDate: boolean) {
  let changed = false;
  for (const page of result.pages) {
    const date = dates.get(page.url);
    if (!page.lastModified && date) {
      page.lastModified = date;
      changed = true;
    }
  }
  if (changed && includeModificationDate) {
    result.llmsTxt = renderLlmsTxt(result.site, result.pages, { includeModificationDate: true });
  }
}
