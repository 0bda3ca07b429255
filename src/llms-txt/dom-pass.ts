// The DOM pass (see extract.ts) over chosen pages, the stage after the choice (it starts on the
// first pages while they arrive): their markdown when llms-full.txt or the describer wants it,
// and the main content's paragraph and headings of the few whose facts say nothing of them.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import pLimit from 'p-limit';
import { htmlOf, type Candidate } from './arrival.ts';
import { extractPage, readContentFacts, type ExtractOptions, type Extractor } from './extract.ts';
import type { PageFacts } from './page-facts.ts';
import { factsDescribe, needsHtml, wantsMarkdown } from './html-wanted.ts';
import type { GenerationMethod } from './types.ts';

export interface DomPassOptions {
  method: GenerationMethod;
  fullText?: boolean;
  extract?: ExtractOptions;
  extractor?: Extractor;
  extractorConcurrency?: number;
  /** llms.txt links each page to a markdown copy (see GenerateOptions): the copy is written from the markdown. */
  markdownLink?: unknown;
}

export type DomPass = ReturnType<typeof createDomPass>;

/**
 * Markdown inline, or through the caller's worker pool with a bounded number in flight; the
 * content's paragraph and headings from the same parse when markdown is read, else inline. A page
 * is read once, whoever asks first.
 */
export function createDomPass(options: DomPassOptions) {
  const needsMarkdown = wantsMarkdown(options);
  const extractOne = options.extractor ?? extractInline(options.extract);
  const inTurn = pLimit(options.extractor ? (options.extractorConcurrency ?? 4) : 1);
  const readContent = describeInline(options.extract);
  // One at a time, each after a turn of the event loop (see describeInline).
  const inContentTurn = pLimit(1);
  const failed = <T>(fallback: T) => () => {
    state.failures++;
    return fallback;
  };
  const readContentInline = (html: string, url: string) => inContentTurn(() => readContent(html, url)).catch(failed({ firstParagraph: '', headings: [] }));
  const state = {
    failures: 0,
    needsHtml: (outline: PageFacts) => needsHtml(outline, needsMarkdown),
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
      const wantsContent = !factsDescribe(candidate.outline);
      const extracted = needsMarkdown ? inTurn(() => extractOne(html, url, { content: wantsContent })) : null;
      const markdown = extracted?.then((page) => page.markdown, failed('')) ?? null;
      // An extractor that failed, or does not read content facts, leaves them to a parse here.
      const readHere = () => readContentInline(html, url);
      const content = !wantsContent ? null : extracted ? extracted.then((page) => page.content ?? readHere(), readHere) : readHere();
      candidate.read = Promise.all([markdown, content]).then(([markdown, content]) => ({ markdown, content }));
    },
  };
  return state;
}

function extractInline(extract: ExtractOptions | undefined): Extractor {
  return async (html, url, wants) => extractPage(html, url, extract, wants);
}

/**
 * The few pages whose facts say nothing (tables of contents, mostly) and whose markdown is not
 * wanted have their main content read here, one at a time, without markdown: a few milliseconds
 * each, between which API requests are served. A worker thread would hold a heap of its own
 * (about 50 MB) for them.
 */
function describeInline(extract: ExtractOptions | undefined) {
  return async (html: string, url: string) => {
    await yieldToEventLoop();
    return readContentFacts(html, url, extract);
  };
}
