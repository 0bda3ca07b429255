// The DOM pass (see extract.ts) over chosen pages, the stage after the choice (it starts on the
// first pages while they arrive): their markdown when llms-full.txt or the describer wants it,
// and the main content's paragraph and headings of the few whose facts say nothing of them.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { htmlOf, type Candidate } from './arrival.ts';
import { extractPage, readContentFacts, type ExtractedPage, type ExtractOptions } from './extract.ts';
import type { PageFacts } from './page-facts.ts';
import { factsDescribe, type ContentFacts } from './page-text.ts';
import type { GenerationMethod } from './types.ts';

export interface DomPassOptions {
  method: GenerationMethod;
  fullText?: boolean;
  extract?: ExtractOptions;
  extractor?: (html: string, url: string) => Promise<ExtractedPage>;
  extractorConcurrency?: number;
  /** llms.txt links each page to a markdown copy (see GenerateOptions): the copy is written from the markdown. */
  markdownLink?: unknown;
}

export type DomPass = ReturnType<typeof createDomPass>;

/**
 * Markdown inline, or through the caller's worker pool with a bounded number in flight; the
 * content's paragraph and headings inline. A page is read once, whoever asks first.
 */
export function createDomPass(options: DomPassOptions) {
  const needsMarkdown = options.method === 'enhanced' || Boolean(options.fullText) || Boolean(options.markdownLink);
  const extractOne = options.extractor ?? extractInline(options.extract);
  const inTurn = inTurns(options.extractor ? (options.extractorConcurrency ?? 4) : 1);
  const readContent = describeInline(options.extract);
  // One at a time, each after a turn of the event loop (see describeInline).
  const inContentTurn = inTurns(1);
  const state = {
    failures: 0,
    needsHtml: (outline: PageFacts) => needsMarkdown || !factsDescribe(outline),
    start(candidate: Candidate) {
      if (candidate.read) return;
      if (candidate.fromOutline) {
        candidate.read = Promise.resolve({ markdown: null, content: null });
        return;
      }
      const { url } = candidate.page;
      const html = htmlOf(candidate.page);
      // The DOM pass holds the HTML now; the candidate needs it no longer.
      candidate.page.html = '';
      const failed = <T>(fallback: T) => () => {
        state.failures++;
        return fallback;
      };
      const markdown = needsMarkdown ? inTurn(() => extractOne(html, url)).then((page) => page.markdown, failed('')) : null;
      const content = factsDescribe(candidate.outline) ? null : inContentTurn(() => readContent(html, url)).catch(failed({ firstParagraph: '', headings: [] }));
      candidate.read = Promise.all([markdown, content]).then(([markdown, content]) => ({ markdown, content }));
    },
  };
  return state;
}

/** Runs work with at most `limit` pieces in flight, the others waiting in order. */
function inTurns(limit: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    while (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await work();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

function extractInline(extract: ExtractOptions | undefined) {
  return async (html: string, url: string): Promise<ExtractedPage> => extractPage(html, url, extract);
}

/**
 * The few pages whose facts say nothing (tables of contents, mostly) have their main content read
 * here, one at a time, without markdown and from the first DESCRIBE_MAX_PARSED_CHARS of their HTML:
 * a few milliseconds each, between which API requests are served. A worker thread would hold a
 * heap of its own (about 50 MB) for them.
 */
function describeInline(extract: ExtractOptions | undefined) {
  return async (html: string, url: string): Promise<ContentFacts> => {
    await yieldToEventLoop();
    return readContentFacts(html, url, { ...extract, maxParsedHtmlChars: Math.min(extract?.maxParsedHtmlChars ?? Infinity, DESCRIBE_MAX_PARSED_CHARS) });
  };
}

/** Enough for a page of source code (280 kB in Sphinx's own docs); a manual's index runs to 450 kB. */
const DESCRIBE_MAX_PARSED_CHARS = 300_000;

