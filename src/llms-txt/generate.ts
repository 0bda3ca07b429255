// The whole generation for one site: the stages below, each a module with its own input and
// output types (stages/ and the modules they run), in this order:
//
//  stage            module                  in → out
//  1 read           reading.ts              PageInput → PageFacts + content hash (one parse, page-facts.ts)
//  2 canonical      arrival.ts              facts → Candidate[] (one per page; same key or body: an alias)
//  3 language       stages/language.ts      Candidate[] → home + the pages to list in its language
//  4 navigation     stages/navigation.ts    Candidate[] → SiteMap (navigation paths, in-links, secondary pages)
//  5 choose         stages/choose.ts        SiteMap → ChosenPage[] (the maxPages listed, read by the DOM pass, dom-pass.ts)
//  6 summarize      stages/summarize.ts     ChosenPage texts + SiteMap → SiteSummary (name, summary)
//  7 describe       stages/describe.ts      ChosenPage[] → DescribedPage[] (title, description, each with its rule)
//  8 section        stages/section.ts       DescribedPage[] + SiteMap → in the site's sections, Optional last
//  9 enhance        stages/enhance.ts       DescribedPage[] → the describer's titles, descriptions, sections (enhanced)
// 10 render         stages/render.ts        SiteSummary + DescribedPage[] → llms.txt, llms-full.txt
//
// Stages 6 and 7 share what many pages repeat (stages/repetition.ts). Thresholds the rules share
// are in tuning.ts, the words they match (by language) in phrases.ts, the rules a trace names in
// rules.ts.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { readArrivals } from './arrival.ts';
import { createDomPass } from './dom-pass.ts';
import { languageOf } from './language.ts';
import { chooseAndRead } from './stages/choose.ts';
import { describePages } from './stages/describe.ts';
import { enhance } from './stages/enhance.ts';
import { selectLanguage } from './stages/language.ts';
import { mapSite } from './stages/navigation.ts';
import { renderFiles } from './stages/render.ts';
import { findRepetition } from './stages/repetition.ts';
import { placeInSections } from './stages/section.ts';
import { summarizeByParts, summarizeSite } from './stages/summarize.ts';
import { TextKeys } from './text-keys.ts';
import type { GenerateOptions, GenerationResult, GenerationStats } from './generate-options.ts';
import type { DescribedPage, PageInput, SiteSummary } from './types.ts';

export type { GenerateOptions, GenerationProgress, GenerationResult, GenerationStats } from './generate-options.ts';

/**
 * Generates llms.txt (and llms-full.txt) from fetched pages. Each page is read as it arrives (one
 * parse: its facts) and keeps its HTML until the choice is made; the site's map then ranks every
 * candidate, the best `maxPages` are read by the DOM pass (the first ones speculatively while
 * pages still arrive), described and grouped into the site's own sections.
 */
export async function generateLlmsTxt(input: Iterable<PageInput> | AsyncIterable<PageInput>, options: GenerateOptions): Promise<GenerationResult> {
  // Two steps, so that every page's facts and the site's map are garbage once the pages are listed.
  const { site, pages, language, extractionFailures, extractMs } = await listPages(input, options);
  const result = await enhanceAndRender(site, pages, language, options);
  return { ...result, stats: { ...result.stats, extractionFailures, extractMs } };
}

/** Stages 1-8: the listed pages, described and in the site's sections, and the site's summary. */
async function listPages(input: Iterable<PageInput> | AsyncIterable<PageInput>, options: GenerateOptions) {
  const { siteUrl, signal, onProgress } = options;
  const domPass = createDomPass(options);
  const started = performance.now();
  const onArrived = (done: number) => onProgress?.({ phase: 'extract', done, total: null });
  const keys = new TextKeys();
  const arrived = await readArrivals(input, { ...options, yieldEachPage: !options.extractor, onArrived, keys }, domPass);
  signal?.throwIfAborted();
  const { home, candidates } = selectLanguage({ arrived, siteUrl });
  const map = mapSite({ home, candidates, siteUrl, keys });
  const chosen = await chooseAndRead({ map, candidates, maxPages: options.maxPages ?? Infinity, domPass });
  options.onPagesRead?.();
  for (const candidate of arrived) candidate.page.html = '';
  const extractMs = Math.round(performance.now() - started);

  const repetition = findRepetition(candidates, keys);
  const site = summarizeSite({ map, texts: chosen.map((page) => page.text), isRepeated: repetition.isRepeated, siteUrl });
  await yieldToEventLoop();
  const described = describePages({ map, chosen, site, repetition, markdownLink: options.markdownLink });
  const pages = placeInSections({ map, chosen: chosen.map((page) => page.node), pages: described });
  const language = home ? languageOf(home.outline) : null;
  return { site: summarizeByParts(site, pages, map), pages, language, extractionFailures: domPass.failures, extractMs };
}

/** Stages 9-10: the describer (enhanced), then rendering; `language`, the home page's. */
async function enhanceAndRender(site: SiteSummary, pages: DescribedPage[], language: string | null, options: GenerateOptions): Promise<GenerationResult> {
  const { signal, onProgress } = options;
  const enhanced = await enhance({ ...options, site, pages, language, onProgress: (done, total) => onProgress?.({ phase: 'describe', done, total }) });
  signal?.throwIfAborted();
  onProgress?.({ phase: 'render', done: 0, total: 1 });
  const files = await renderFiles({ ...options, site: enhanced.site, pages: enhanced.pages, language });
  onProgress?.({ phase: 'render', done: 1, total: 1 });
  return { site: enhanced.site, pages: enhanced.pages, llmsTxt: files.llmsTxt, llmsFullTxt: files.llmsFullTxt, stats: statsOf(enhanced, files.fullTextPagesLeftOut) };
}

function statsOf({ pages, usage, errors }: { pages: readonly DescribedPage[]; usage: GenerationStats['usage']; errors: string[] }, fullTextPagesLeftOut: number | null): GenerationStats {
  return {
    pages: pages.length,
    aiWritten: pages.filter((page) => page.source === 'ai').length,
    fellBack: pages.filter((page) => page.source === 'fallback').length,
    usage,
    extractionFailures: 0,
    errors,
    extractMs: 0,
    fullTextPagesLeftOut,
  };
}
