// The whole generation for one site: extract each page as it arrives, settle site-wide titles and
// descriptions, describe (enhanced), then render llms.txt and llms-full.txt.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { createExtractiveDescriber, NO_USAGE, type Describer, type DescribeUsage } from './describe.ts';
import { extractPage, titleFromUrl, type ExtractedPage, type ExtractOptions } from './extract.ts';
import { renderLlmsFullTxt, renderLlmsTxt } from './render.ts';
import { findOptionalPages } from './sections.ts';
import { inferSite, refineSimplePages } from './site.ts';
import type { DescribedPage, GenerationMethod, PageInput, SiteSummary } from './types.ts';

export interface GenerateOptions {
  /** The site's normalized URL (its home page). */
  siteUrl: string;
  method: GenerationMethod;
  /** For `enhanced`: the model describer; the built-in extractive describer when omitted. */
  describer?: Describer;
  includeModificationDate?: boolean;
  /** Also render llms-full.txt. */
  fullText?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: GenerationProgress) => void;
  extract?: ExtractOptions;
  /** Extracts a page elsewhere (a worker thread, see extract-pool.ts); inline when omitted. */
  extractor?: (page: PageInput, url: string) => Promise<ExtractedPage>;
  /** Pages handed to `extractor` at once. Default 4. */
  extractorConcurrency?: number;
}

export interface GenerationProgress {
  phase: 'extract' | 'describe' | 'render';
  done: number;
  /** Unknown (null) while pages are still arriving. */
  total: number | null;
}

export interface GenerationStats {
  pages: number;
  /** Pages whose title and description the model wrote. */
  aiWritten: number;
  /** Pages the model was asked about whose answer was unusable (they keep the simple description). */
  fellBack: number;
  usage: DescribeUsage;
  /** Pages whose extraction failed (they are listed with a title from their URL). */
  extractionFailures: number;
  /** Why model batches fell back, for the job's log. */
  errors: string[];
  /** Wall time of reading the pages, arrival included (pages stream in while the site is crawled). */
  extractMs: number;
}

export interface GenerationResult {
  site: SiteSummary;
  pages: DescribedPage[];
  llmsTxt: string;
  llmsFullTxt: string | null;
  stats: GenerationStats;
}

/**
 * Generates llms.txt (and llms-full.txt) from fetched pages. Pages are extracted one at a time as
 * the iterable yields them, and only their small extracted form is kept, so a 1,000-page site
 * never holds more than one DOM. The event loop gets a turn between pages.
 */
export async function generateLlmsTxt(
  input: Iterable<PageInput> | AsyncIterable<PageInput>,
  options: GenerateOptions,
): Promise<GenerationResult> {
  const { signal, onProgress } = options;
  const extractOne = options.extractor ?? (async (page: PageInput, url: string) => extractPage(page.html, url, options.extract));
  // With an extractor off the main thread, several pages are read at once; inline, one at a time.
  const maxInFlight = options.extractor ? (options.extractorConcurrency ?? 4) : 1;
  const slots: Promise<ExtractedPage & { lastModified: string | null }>[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const seen = new Set<string>();
  let extractionFailures = 0;
  let done = 0;
  const started = performance.now();
  for await (const page of input) {
    signal?.throwIfAborted();
    const url = page.url.replace(/#.*$/, '');
    if (seen.has(url)) continue;
    seen.add(url);
    const slot = extractOne(page, url)
      .catch(() => {
        extractionFailures++;
        return unreadablePage(url);
      })
      .then((extracted) => {
        onProgress?.({ phase: 'extract', done: ++done, total: null });
        return { ...extracted, lastModified: page.lastModified ?? null };
      });
    slots.push(slot);
    inFlight.add(slot);
    void slot.finally(() => inFlight.delete(slot));
    if (inFlight.size >= maxInFlight) await Promise.race(inFlight);
    if (!options.extractor) await yieldToEventLoop();
  }
  const extracted = await Promise.all(slots);
  const extractMs = performance.now() - started;
  const result = await generateFromExtracted(extracted, options);
  return { ...result, stats: { ...result.stats, extractionFailures, extractMs: Math.round(extractMs) } };
}

/**
 * The steps after extraction, for a caller that extracted the pages itself (e.g. while crawling):
 * site-wide titles and descriptions, the describer (enhanced), rendering.
 */
export async function generateFromExtracted(
  extracted: readonly (ExtractedPage & { lastModified?: string | null })[],
  options: Omit<GenerateOptions, 'extract'>,
): Promise<GenerationResult> {
  const { signal, onProgress } = options;
  const simple = refineSimplePages(extracted);
  let site = inferSite(options.siteUrl, extracted);
  const optional = findOptionalPages(extracted.map((page) => page.url));
  const pages: DescribedPage[] = extracted.map((page, index) => ({
    url: page.url,
    title: simple[index].title,
    description: simple[index].description,
    section: null,
    markdown: page.markdown,
    lastModified: page.lastModified ?? null,
    optional: optional.has(page.url),
    source: 'metadata',
  }));

  let usage: DescribeUsage = { ...NO_USAGE };
  let errors: string[] = [];
  if (options.method === 'enhanced') {
    const describer = options.describer ?? createExtractiveDescriber();
    const result = await describer.describe({ url: options.siteUrl, ...site }, pages, {
      signal,
      onProgress: (done, total) => onProgress?.({ phase: 'describe', done, total }),
    });
    result.pages.forEach((described, index) => {
      const page = pages[index];
      page.title = described.title || page.title;
      page.description = described.description;
      page.section = described.section ?? null;
      page.source = described.source;
    });
    site = { name: result.site.name || site.name, summary: result.site.summary || site.summary };
    usage = result.usage;
    errors = result.errors;
  }

  signal?.throwIfAborted();
  onProgress?.({ phase: 'render', done: 0, total: 1 });
  const llmsTxt = renderLlmsTxt(site, pages, { includeModificationDate: options.includeModificationDate });
  const llmsFullTxt = options.fullText ? renderLlmsFullTxt(site, pages) : null;
  onProgress?.({ phase: 'render', done: 1, total: 1 });

  return {
    site,
    pages,
    llmsTxt,
    llmsFullTxt,
    stats: {
      pages: pages.length,
      aiWritten: pages.filter((page) => page.source === 'ai').length,
      fellBack: pages.filter((page) => page.source === 'fallback').length,
      usage,
      extractionFailures: 0,
      errors,
      extractMs: 0,
    },
  };
}

/** A page whose extraction throws still gets listed, titled from its URL. */
function unreadablePage(url: string): ExtractedPage {
  return {
    url,
    title: titleFromUrl(url),
    fullTitle: null,
    description: '',
    descriptionSource: 'none',
    metaDescription: null,
    siteName: null,
    lang: null,
    markdown: '',
    firstParagraph: '',
    h1: null,
    headings: [],
    truncated: false,
  };
}
