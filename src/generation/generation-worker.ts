// Runs in a generation job's own thread (see generation-thread.ts): the pages arrive as messages,
// the files leave as one; the model describer and the page pool are asked through the parent.
import { parentPort } from 'node:worker_threads';
import { fileSize, generateLlmsTxt, loadTokenCounter, renderLlmsTxt, type Describer, type ExtractedPage, type GenerationResult, type PageInput } from '../llms-txt/index.ts';
import { hostedMarkdownUrl } from '../sites/markdown-paths.ts';
import type { FromThread, GenerationSettings, PageForThread, ToThread } from './generation-thread.ts';

const parent = parentPort!;
// Loaded while the thread waits for its job (see GenerationThreads).
const tokenCounter = loadTokenCounter();
let start!: (settings: GenerationSettings) => void;
const started = new Promise<GenerationSettings>((resolve) => (start = resolve));
const post = (message: FromThread) => parent.postMessage(message);

/** The pages as they arrive, then the sitemaps' dates. */
class Inbox implements AsyncIterable<PageInput> {
  private readonly pages: PageForThread[] = [];
  private wake: (() => void) | null = null;
  private ended = false;
  readonly dates: Promise<Map<string, string | null>>;
  private setDates!: (dates: Map<string, string | null>) => void;

  constructor() {
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

  async *[Symbol.asyncIterator](): AsyncIterator<PageInput> {
    for (;;) {
      const page = this.pages.shift();
      if (page) {
        post({ type: 'taken' });
        yield page;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
  }
}

const inbox = new Inbox();
const calls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; onProgress?(done: number, total: number): void }>();
let lastCall = 0;

function call<T>(message: Omit<Extract<FromThread, { type: 'call' }>, 'id'>, onProgress?: (done: number, total: number) => void): Promise<T> {
  const id = ++lastCall;
  return new Promise<T>((resolve, reject) => {
    calls.set(id, { resolve: resolve as (value: unknown) => void, reject, onProgress });
    post({ ...message, id } as FromThread);
  });
}

parent.on('message', (message: ToThread) => {
  if (message.type === 'start') return start(message.settings);
  if (message.type === 'page') return inbox.add(message.page);
  if (message.type === 'end') return inbox.end(message.dates);
  const pending = calls.get(message.id);
  if (message.type === 'describing') return pending?.onProgress?.(message.done, message.total);
  calls.delete(message.id);
  if (message.error !== undefined) pending?.reject(new Error(message.error));
  else pending?.resolve(message.value);
});

const settings = await started;
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
  extractor: settings.extractorConcurrency ? (html, url) => call<ExtractedPage>({ type: 'call', method: 'extract', args: [html, url] }) : undefined,
  extractorConcurrency: settings.extractorConcurrency ?? undefined,
  onPagesRead: () => post({ type: 'pagesRead' }),
  markdownLink: settings.hostedMarkdownBase === null ? undefined : (pageUrl) => hostedMarkdownUrl(settings.hostedMarkdownBase!, pageUrl),
  onProgress: (progress) => post({ type: 'progress', progress }),
});
datePagesFromSitemaps(result, await inbox.dates, settings.includeModificationDate);
const countTokens = await tokenCounter;
post({
  type: 'done',
  files: {
    result,
    sizes: {
      llmsTxt: await fileSize(result.llmsTxt, countTokens),
      llmsFullTxt: result.llmsFullTxt === null ? null : await fileSize(result.llmsFullTxt, countTokens),
    },
  },
});

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
