// The whole generation for one site, in stages; each stage is a module, and readPages and
// describeAndRender below run them in this order:
//
//  stage            module(s)                          in → out
//  1 read           reading.ts, page-facts.ts          PageInput → PageFacts + content hash (one parse)
//  2 canonical      arrival.ts                         facts → Candidate[] (one per page; same key or body: an alias)
//  3 language       language.ts, sections.ts           Candidate[] → those in the home page's language, older versions' entries only
//  4 navigation     secondary.ts, site-map.ts          Candidate[] → SiteMap (shortest navigation paths, in-links, secondary pages)
//  5 choose         site-map.ts                        SiteMap → MapNode[] (the maxPages listed)
//    DOM pass       dom-pass.ts, extract.ts            chosen → markdown (llms-full.txt, describer); content facts where facts say nothing
//  6 summarize      site.ts                            PageText[] + home facts → SiteSummary (name, summary)
//  7 describe       page-text.ts, site.ts,             ListedPage[] → title and description, each with its rule (PageTrace)
//                   description.ts
//  8 section        map-sections.ts, navigation.ts,    MapNode[] + SiteMap → sections named by the site's navigation,
//                   sections.ts                        else URL folders (render), Optional last
//  9 enhance        describer.ts and its describers    DescribedPage[] → titles, descriptions, sections by the model (enhanced)
// 10 render         render.ts                          SiteSummary + DescribedPage[] → llms.txt, llms-full.txt
//
// The summary comes before the descriptions: a page whose text is the summary is described by its
// other signals. Thresholds the rules share are in tuning.ts.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { findRepeatedDescriptions, isPlaceholderPage } from './boilerplate.ts';
import { findTemplatedTexts } from './templates.ts';
import { NO_USAGE, type Describer, type DescribeUsage } from './describer.ts';
import { createExtractiveDescriber } from './extractive-describer.ts';
import { distinctDescriptions, shorten, type DescriptionSignals } from './description.ts';
import { readArrivals, type Candidate } from './arrival.ts';
import { createDomPass } from './dom-pass.ts';
import type { ExtractedPage, ExtractOptions } from './extract.ts';
import { sectionsFromMap } from './map-sections.ts';
import { renderLlmsFullTxt, renderLlmsTxt } from './render.ts';
import { loadTokenCounter } from './tokens.ts';
import { findExcerptListings, findSecondaryPages } from './secondary.ts';
import { isArchivePage, olderVersionPages } from './sections.ts';
import { inLanguageOf, isEnglish, languageOf } from './language.ts';
import { inferSite, refineTitles, sectionsSummary } from './site.ts';
import { pageText, type PageText, type TitleRule } from './page-text.ts';
import { compactKey } from './text.ts';
import { buildSiteMap, choosePages, isOptional, pageKey, type MapNode, type SiteMap } from './site-map.ts';
import type { DescribedPage, GenerationMethod, OwnMarkdown, PageInput, SiteSummary } from './types.ts';

export interface GenerateOptions {
  /** The site's normalized URL (its home page). */
  siteUrl: string;
  method: GenerationMethod;
  /** For `enhanced`: the model describer; the built-in extractive describer when omitted. */
  describer?: Describer;
  includeModificationDate?: boolean;
  /** Also render llms-full.txt. */
  fullText?: boolean;
  /** llms-full.txt's budget in tokens (see renderLlmsFullTxt). */
  maxFullTextTokens?: number | null;
  signal?: AbortSignal;
  onProgress?: (progress: GenerationProgress) => void;
  extract?: ExtractOptions;
  /** Extracts a page elsewhere (a worker thread, see the generation's page-pool.ts); inline when omitted. */
  extractor?: (html: string, url: string) => Promise<ExtractedPage>;
  /** Pages handed to `extractor` at once. Default 4. */
  extractorConcurrency?: number;
  /** Called once every chosen page is extracted: `extractor` is not called again. */
  onPagesRead?: () => void;
  /** Pages to list; more may be handed over, and the most important are kept. Default: all. */
  maxPages?: number;
  /** llms.txt links each page to a markdown copy: the site's own (PageInput.ownMarkdown), else the one this names. */
  markdownLink?: (pageUrl: string) => string;
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
  /** Pages llms-full.txt left out to keep within maxFullTextTokens; null without a budget or full text. */
  fullTextPagesLeftOut: number | null;
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
 * Generates llms.txt (and llms-full.txt) from fetched pages. Each page is outlined as it arrives
 * (one parse: its links, headings and one-liners) and keeps its HTML until the choice is made;
 * the site's map then ranks every candidate, the best `maxPages` are extracted (the first ones
 * speculatively while pages still arrive), described and grouped into the site's own sections.
 */
export async function generateLlmsTxt(
  input: Iterable<PageInput> | AsyncIterable<PageInput>,
  options: GenerateOptions,
): Promise<GenerationResult> {
  // Two steps, so that every page's outline and the site's map are garbage once the pages are chosen.
  const { site, pages, extractionFailures, extractMs } = await readPages(input, options);
  const result = await describeAndRender(site, pages, options);
  return { ...result, stats: { ...result.stats, extractionFailures, extractMs } };
}

/** The listed pages, described from their content and in the site's sections, and the site's summary. */
async function readPages(input: Iterable<PageInput> | AsyncIterable<PageInput>, options: GenerateOptions) {
  const { signal } = options;
  const maxPages = options.maxPages ?? Infinity;
  const extractor = createDomPass(options);
  const started = performance.now();
  // 1-2: read, canonical pages.
  const arrived = await readArrivals(
    input,
    { ...options, yieldEachPage: !options.extractor, onArrived: (done) => options.onProgress?.({ phase: 'extract', done, total: null }) },
    extractor,
  );
  signal?.throwIfAborted();

  // 3: language. The start page arrives first: it is the home page when the site's URL itself forwarded elsewhere.
  const homeKey = pageKey(options.siteUrl);
  const home = arrived.find((c) => pageKey(c.outline.url) === homeKey || c.aliases.some((alias) => pageKey(alias) === homeKey)) ?? arrived[0];
  const inLanguage = inLanguageOf(home, arrived);
  // An older version's pages repeat the current ones (its entry page the home page, under the
  // same title, with the same text), an archive (by tag, author or date) lists pages listed
  // anyway, and a page of placeholder text says nothing: none of them is a page to list.
  const olderVersions = olderVersionPages(inLanguage.map((candidate) => candidate.outline.url));
  const listable = ({ outline }: Candidate) => !olderVersions.has(outline.url) && !isArchivePage(outline.url) && !isPlaceholderPage(outline);
  const candidates = inLanguage.filter((candidate) => candidate === home || listable(candidate));
  // 4: navigation tree.
  const outlines = candidates.map((candidate) => candidate.outline);
  const secondary = findSecondaryPages(outlines, home?.outline);
  const listings = new Set(findExcerptListings(outlines).filter((url) => url !== home?.outline.url));
  const map = buildSiteMap(
    home?.outline.url ?? options.siteUrl,
    candidates.map(({ outline, aliases, page }) => ({ outline, aliases, secondary: secondary.has(outline.url), listing: listings.has(outline.url), priority: page.priority })),
  );
  // 5: choose, then the DOM pass over the chosen pages.
  const chosen = choosePages(map, maxPages);
  // Ranking, describing and rendering 1,000 pages is a quarter of a second of work on the
  // event loop: it lets the API's requests through between the steps.
  await yieldToEventLoop();
  const byUrl = new Map(candidates.map((candidate) => [candidate.outline.url, candidate]));
  const chosenCandidates = chosen.map((node) => byUrl.get(node.url)!);
  chosenCandidates.forEach((candidate) => extractor.start(candidate));
  const read = await Promise.all(chosenCandidates.map((candidate) => candidate.read!));
  options.onPagesRead?.();
  for (const candidate of arrived) candidate.page.html = '';
  const extractMs = performance.now() - started;

  // 6-7: summarize, describe. Paragraphs and meta descriptions that many pages share (banners, footers, donation notes).
  // …and text written from one template on many pages, only names and numbers changing.
  const pageTexts = outlines.map((outline) => [...outline.paragraphs, outline.metaDescription ?? '']);
  const isShared = findRepeatedDescriptions(pageTexts);
  const isTemplated = findTemplatedTexts(pageTexts);
  const isRepeated = (text: string | null | undefined) => isShared(text) || (text ? isTemplated(text) : false);
  // Link texts on a fifth of the pages or more (the site's menu, "About | Documentation | Download",
  // and links in its boilerplate) name none of a page's parts. Counted only when a page's links are
  // its last signal: 5-12 ms for a 1,000-page job that most jobs do not need.
  let menuLinks: ((text: string) => boolean) | null = null;
  const isMenuLink = (text: string) =>
    (menuLinks ??= findRepeatedDescriptions(outlines.map((outline) => outline.links.map((link) => link.text)), { minPages: 3, enoughPages: Infinity }))(text);
  // Headings a template gives many pages ("Type Parameters", "How to apply this license") name
  // none of a page's own parts: a page is not described by them.
  const isTemplateHeading = findRepeatedDescriptions(outlines.map((outline) => outline.headings));
  // One record per listed page: its place in the map, what it says of itself, its markdown.
  const texts = chosen.map((node, index) => pageText(node.outline, read[index].content));
  const titles = refineTitles(texts);
  const listed: ListedPage[] = chosen.map((node, index) => ({ node, text: texts[index], markdown: read[index].markdown, title: titles[index].title, titleRule: titles[index].rule }));
  const leadPages = (map.home?.children ?? []).filter((node) => !node.secondary).slice(0, 3).map((node) => node.outline);
  const site = inferSite(map.home?.url ?? options.siteUrl, texts, { home: map.home?.outline ?? null, leadPages, isRepeated });
  const saysOnlyTheSummary = repeatsSummary(site.summary);
  await yieldToEventLoop();
  const english = isEnglish(map.home ? languageOf(map.home.outline) : null);
  const signalsOf = ({ node, text, title }: ListedPage): DescriptionSignals => ({
    title,
    purposeLine: node.outline.purposeLine,
    metaDescription: text.metaDescription,
    paragraphs: [...node.outline.paragraphs, text.firstParagraph],
    childTitles: node.children.filter((child) => !child.secondary).map((child) => child.viaLink?.text ?? ''),
    headings: text.headings.filter((heading) => !isTemplateHeading(heading)),
    terms: node.outline.terms,
    h1: node.outline.h1,
    english,
    get linkTexts() {
      return node.outline.links.map((link) => link.text).filter((text) => !isMenuLink(text));
    },
  });
  const descriptions = distinctDescriptions(
    listed.map((page) => ({ signals: signalsOf(page), listedPages: page.node.children.length })),
    (index) => (chosen[index] === map.home ? isRepeated : (text) => isRepeated(text) || saysOnlyTheSummary(text)),
  );
  // The site's own markdown over the HTML's; linked to, with markdownLink, where there is some.
  const markdownOf = (url: string, extractedMarkdown: string | null): Pick<DescribedPage, 'markdown' | 'linkUrl'> => {
    const own = byUrl.get(url)?.page.ownMarkdown as OwnMarkdown | null | undefined;
    const markdown = own?.markdown ?? extractedMarkdown;
    const linkUrl = options.markdownLink && markdown ? (own?.url ?? options.markdownLink(url)) : undefined;
    return linkUrl === undefined ? { markdown } : { markdown, linkUrl };
  };
  const pages: DescribedPage[] = listed.map(({ node, title, titleRule, markdown }, index) => ({
    url: node.url,
    title: node === map.home ? site.name : title,
    description: descriptions[index].text,
    section: null,
    rank: index,
    contentHash: byUrl.get(node.url)?.contentHash,
    ...markdownOf(node.url, markdown),
    lastModified: candidatesLastModified(byUrl, node.url),
    optional: isOptional(node),
    source: 'metadata',
    trace: { title: node === map.home ? 'title.site-name' : titleRule, description: descriptions[index].rule, section: '' },
  }));
  // 8: section.
  const sectioned = placeInSections(map, chosen, pages);
  const summarized = site.summary ? site : { ...site, summary: sectionsSummary(site.name, sectioned, map.home?.url, english) };
  return { site: summarized, pages: sectioned, extractionFailures: extractor.failures, extractMs: Math.round(extractMs) };
}

/**
 * Whether a text, cut as a description, would be the site's summary again: the preface a summary
 * was taken from then describes itself by its other signals (its contents, its headings).
 */
function repeatsSummary(summary: string): (text: string) => boolean {
  const summaryKey = compactKey(summary);
  return (text) => summaryKey !== '' && compactKey(shorten(text)) === summaryKey;
}

/** A listed page: its place in the site's map (its facts at `node.outline`), what it says of itself, its title among the site's. */
interface ListedPage {
  node: MapNode;
  text: PageText;
  title: string;
  titleRule: TitleRule;
  markdown: string | null;
}

function candidatesLastModified(byUrl: Map<string, Candidate>, url: string): string | null {
  return byUrl.get(url)?.page.lastModified ?? null;
}

/**
 * The pages in the order they are listed, each with its section: the site's own parts when its
 * navigation yields them, else sections from URL folders (render decides).
 */
function placeInSections(map: SiteMap, chosen: readonly MapNode[], pages: DescribedPage[]): DescribedPage[] {
  const pageOf = new Map(chosen.map((node, index) => [node, pages[index]]));
  const placed = sectionsFromMap(map, chosen.filter((node) => !isOptional(node)));
  for (const node of placed?.overflow ?? []) pageOf.get(node)!.optional = true;
  for (const page of pages) page.trace!.section = page.optional ? 'section.optional' : 'section.url-folder';
  // Without the site's own parts, sections come from URL folders (render), each in reading order.
  if (!placed) return [...chosen].sort((a, b) => a.order - b.order).map((node) => pageOf.get(node)!);
  const ordered: DescribedPage[] = [];
  for (const section of placed.sections) {
    for (const node of section.nodes) {
      const page = pageOf.get(node)!;
      page.section = section.name;
      page.trace!.section = section.rule;
      ordered.push(page);
    }
  }
  return [...ordered, ...pages.filter((page) => page.optional)];
}

/** 9-10: the describer (enhanced), then rendering. */
async function describeAndRender(site: SiteSummary, pages: DescribedPage[], options: GenerateOptions): Promise<Omit<GenerationResult, 'stats'> & { stats: GenerationStats }> {
  const { signal, onProgress } = options;
  let usage: DescribeUsage = { ...NO_USAGE };
  let errors: string[] = [];
  if (options.method === 'enhanced') {
    const describer = options.describer ?? createExtractiveDescriber();
    const toDescribe = pages.map((page) => ({ ...page, markdown: page.markdown ?? '' }));
    const result = await describer.describe({ url: options.siteUrl, ...site }, toDescribe, {
      signal,
      onProgress: (done, total) => onProgress?.({ phase: 'describe', done, total }),
    });
    result.pages.forEach((described, index) => {
      const page = pages[index];
      // What the describer wrote is traced to it ("enhance.ai", "enhance.extractive").
      const rule = `enhance.${described.source}`;
      const trace = { ...page.trace! };
      if (described.title) [page.title, trace.title] = [described.title, rule];
      if (described.description) [page.description, trace.description] = [described.description, rule];
      if (described.section && !page.optional) [page.section, trace.section] = [described.section, rule];
      page.source = described.source;
      page.trace = trace;
    });
    site = { name: result.site.name || site.name, summary: result.site.summary || site.summary };
    usage = result.usage;
    errors = result.errors;
  }

  signal?.throwIfAborted();
  onProgress?.({ phase: 'render', done: 0, total: 1 });
  await yieldToEventLoop();
  const llmsTxt = renderLlmsTxt(site, pages, { includeModificationDate: options.includeModificationDate });
  const countTokens = options.fullText && options.maxFullTextTokens ? await loadTokenCounter() : undefined;
  let fullTextPagesLeftOut: number | null = null;
  const llmsFullTxt = options.fullText
    ? await renderLlmsFullTxt(site, pages, { maxTokens: options.maxFullTextTokens, countTokens, onLeftOut: (leftOut) => (fullTextPagesLeftOut = leftOut) })
    : null;
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
      fullTextPagesLeftOut,
    },
  };
}
