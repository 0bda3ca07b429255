// The whole generation for one site: outline each page as it arrives, rank the candidates by the
// site's own navigation, extract and describe the chosen ones, group them into the site's parts,
// describe (enhanced), then render llms.txt and llms-full.txt.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { findRepeatedDescriptions } from './boilerplate.ts';
import { findTemplatedTexts } from './templates.ts';
import { NO_USAGE, type Describer, type DescribeUsage } from './describer.ts';
import { createExtractiveDescriber } from './extractive-describer.ts';
import { distinctDescriptions, shorten, type DescriptionSignals } from './description.ts';
import { describeFromContent, extractPage, pageFromOutline, titleFromUrl, type ExtractedPage, type ExtractOptions } from './extract.ts';
import { sectionsFromMap } from './map-sections.ts';
import type { PageOutline } from './outline.ts';
import { readHtml } from './reading.ts';
import { renderLlmsFullTxt, renderLlmsTxt } from './render.ts';
import { loadTokenCounter } from './tokens.ts';
import { findSecondaryPages, hasSecondaryTitle } from './secondary.ts';
import { olderVersionPages } from './sections.ts';
import { inLanguageOf, isEnglish, languageOf } from './language.ts';
import { inferSite, refineSimplePages } from './site.ts';
import { compactKey } from './text.ts';
import { buildSiteMap, choosePages, pageKey, type MapNode, type SiteMap } from './site-map.ts';
import type { DescribedPage, GenerationMethod, OwnMarkdown, PageInput, PageReading, SiteSummary } from './types.ts';

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
  const { signal, onProgress } = options;
  const maxPages = options.maxPages ?? Infinity;
  const extractor = createExtraction(options);
  const arrived: Candidate[] = [];
  const seenKeys = new Set<string>();
  const byBody = new Map<string, Candidate>();
  const homeKey = pageKey(options.siteUrl);
  const started = performance.now();
  for await (const page of input) {
    signal?.throwIfAborted();
    const url = page.url.replace(/#.*$/, '');
    const key = pageKey(url);
    if (seenKeys.has(key)) continue;
    seenKeys.add(key);
    // Read as it was fetched (by the crawler, or in a worker thread), or here.
    const { html, reading } = page.reading ? { html: page.html, reading: await page.reading } : readHere(page, url);
    const ownMarkdown = (await page.ownMarkdown) ?? null;
    const body = reading.contentHash;
    const twin = byBody.get(body);
    if (twin) {
      // The same page under two URLs is listed once, under the home page's URL when it is one of them.
      if (key === homeKey) [twin.outline.url, url].forEach((alias) => alias !== url && twin.aliases.push(alias));
      else twin.aliases.push(url);
      if (key === homeKey) twin.page.url = twin.outline.url = url;
      continue;
    }
    const outline = { ...reading.outline, url };
    const fromOutline = extractor.readsFromOutline(outline);
    // A page read from its outline needs its HTML no longer.
    const candidate: Candidate = { page: { ...page, url, html: fromOutline ? '' : html, reading: undefined, ownMarkdown }, outline, aliases: [], fromOutline, contentHash: body };
    byBody.set(body, candidate);
    arrived.push(candidate);
    // Pages arrive roughly in navigation order: the first ones are most likely chosen. Secondary
    // pages are chosen last, if at all, and an index is the largest page of a manual to read
    // (PostgreSQL's: 450 kB, a tenth of a second on the event loop): read once chosen.
    if (arrived.length <= maxPages && !fromOutline && !hasSecondaryTitle(outline)) extractor.start(candidate);
    onProgress?.({ phase: 'extract', done: arrived.length, total: null });
    if (!options.extractor) await yieldToEventLoop();
  }
  signal?.throwIfAborted();

  // The start page arrives first: it is the home page when the site's URL itself forwarded elsewhere.
  const home = arrived.find((c) => pageKey(c.outline.url) === homeKey || c.aliases.some((alias) => pageKey(alias) === homeKey)) ?? arrived[0];
  const inLanguage = inLanguageOf(home, arrived);
  // An older version's pages repeat the current ones: only its entry page is worth listing (in Optional).
  const olderVersions = olderVersionPages(inLanguage.map((candidate) => candidate.outline.url));
  const candidates = inLanguage.filter((candidate) => olderVersions.get(candidate.outline.url) !== false);
  const outlines = candidates.map((candidate) => candidate.outline);
  const secondary = findSecondaryPages(outlines, home?.outline);
  for (const [url, entry] of olderVersions) if (entry) secondary.add(url);
  const map = buildSiteMap(
    home?.outline.url ?? options.siteUrl,
    candidates.map(({ outline, aliases, page }) => ({ outline, aliases, secondary: secondary.has(outline.url), priority: page.priority })),
  );
  const chosen = choosePages(map, maxPages);
  // Ranking, describing and rendering 1,000 pages is a quarter of a second of work on the
  // event loop: it lets the API's requests through between the steps.
  await yieldToEventLoop();
  const byUrl = new Map(candidates.map((candidate) => [candidate.outline.url, candidate]));
  const chosenCandidates = chosen.map((node) => byUrl.get(node.url)!);
  chosenCandidates.forEach((candidate) => extractor.start(candidate));
  const extracted = await Promise.all(chosenCandidates.map((candidate) => candidate.extracted!));
  options.onPagesRead?.();
  for (const candidate of arrived) candidate.page.html = '';
  const extractMs = performance.now() - started;

  // Paragraphs and meta descriptions that many pages share (banners, footers, donation notes).
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
  const simple = refineSimplePages(extracted);
  const leadPages = (map.home?.children ?? []).filter((node) => !node.secondary).slice(0, 3).map((node) => node.outline);
  const site = inferSite(map.home?.url ?? options.siteUrl, extracted, { home: map.home?.outline ?? null, leadPages, isRepeated });
  const saysOnlyTheSummary = repeatsSummary(site.summary);
  await yieldToEventLoop();
  const english = isEnglish(map.home ? languageOf(map.home.outline) : null);
  const signalsOf = (node: MapNode, index: number): DescriptionSignals => ({
    title: simple[index].title,
    purposeLine: node.outline.purposeLine,
    metaDescription: extracted[index].metaDescription,
    paragraphs: [...node.outline.paragraphs, extracted[index].firstParagraph],
    childTitles: node.children.filter((child) => !child.secondary).map((child) => child.viaLink?.text ?? ''),
    headings: extracted[index].headings,
    terms: node.outline.terms,
    h1: node.outline.h1,
    english,
    get linkTexts() {
      return node.outline.links.map((link) => link.text).filter((text) => !isMenuLink(text));
    },
  });
  const descriptions = distinctDescriptions(
    chosen.map((node, index) => ({ signals: signalsOf(node, index), listedPages: node.children.length })),
    (index) => (chosen[index] === map.home ? isRepeated : (text) => isRepeated(text) || saysOnlyTheSummary(text)),
  );
  // The site's own markdown over the HTML's; linked to, with markdownLink, where there is some.
  const markdownOf = (url: string, extractedMarkdown: string | null): Pick<DescribedPage, 'markdown' | 'linkUrl'> => {
    const own = byUrl.get(url)?.page.ownMarkdown as OwnMarkdown | null | undefined;
    const markdown = own?.markdown ?? extractedMarkdown;
    const linkUrl = options.markdownLink && markdown ? (own?.url ?? options.markdownLink(url)) : undefined;
    return linkUrl === undefined ? { markdown } : { markdown, linkUrl };
  };
  const pages: DescribedPage[] = chosen.map((node, index) => ({
    url: node.url,
    title: node === map.home ? site.name : simple[index].title,
    description: descriptions[index],
    section: null,
    rank: index,
    contentHash: byUrl.get(node.url)?.contentHash,
    ...markdownOf(node.url, extracted[index].markdown),
    lastModified: candidatesLastModified(byUrl, node.url),
    optional: node.secondary,
    source: 'metadata',
  }));
  return { site, pages: placeInSections(map, chosen, pages), extractionFailures: extractor.failures, extractMs: Math.round(extractMs) };
}

/**
 * Whether a text, cut as a description, would be the site's summary again: the preface a summary
 * was taken from then describes itself by its other signals (its contents, its headings).
 */
function repeatsSummary(summary: string): (text: string) => boolean {
  const summaryKey = compactKey(summary);
  return (text) => summaryKey !== '' && compactKey(shorten(text)) === summaryKey;
}

/** The page's HTML, decoded now if it came undecoded (see PageInput). */
function htmlOf(page: PageInput): string {
  return typeof page.html === 'string' ? page.html : page.html();
}

function readHere(page: PageInput, url: string): { html: string; reading: PageReading } {
  const html = htmlOf(page);
  return { html, reading: readHtml(html, url) };
}

interface Candidate {
  page: PageInput;
  outline: PageOutline;
  /** Other URLs with the same body. */
  aliases: string[];
  /** Read from its outline alone, without main-content extraction (see readsFromOutline). */
  fromOutline: boolean;
  /** SHA-1 (base64) of the page's HTML. */
  contentHash: string;
  extracted?: Promise<ExtractedPage>;
}

/**
 * Extraction of chosen pages: inline, or through the caller's worker pool with a bounded number in
 * flight. `simple` without llms-full.txt needs no page's content when its outline already says
 * what the page is (a purpose line or a first paragraph): those pages are read from their outline.
 */
function createExtraction(options: GenerateOptions) {
  const needsContent = options.method === 'enhanced' || Boolean(options.fullText) || Boolean(options.markdownLink);
  const extractOne = needsContent ? (options.extractor ?? extractInline(options.extract)) : describeInline(options.extract);
  const limit = options.extractor && needsContent ? (options.extractorConcurrency ?? 4) : 1;
  let active = 0;
  const waiting: Array<() => void> = [];
  const state = {
    failures: 0,
    readsFromOutline: (outline: PageOutline) => !needsContent && Boolean(outline.purposeLine || outline.firstParagraph),
    start(candidate: Candidate) {
      if (candidate.extracted) return;
      if (candidate.fromOutline) {
        candidate.extracted = Promise.resolve(pageFromOutline(candidate.outline));
        return;
      }
      const { url } = candidate.page;
      const html = htmlOf(candidate.page);
      // The extraction holds the HTML now; the candidate needs it no longer.
      candidate.page.html = '';
      candidate.extracted = (async () => {
        while (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
        active++;
        try {
          return await extractOne(html, url);
        } catch {
          state.failures++;
          return unreadablePage(url);
        } finally {
          active--;
          waiting.shift()?.();
        }
      })();
    },
  };
  return state;
}

function extractInline(extract: ExtractOptions | undefined) {
  return async (html: string, url: string): Promise<ExtractedPage> => extractPage(html, url, extract);
}

/**
 * Without content, the few pages whose outline says nothing (tables of contents, mostly) are read
 * here, one at a time, without markdown and from the first DESCRIBE_MAX_PARSED_CHARS of their HTML:
 * a few milliseconds each, between which API requests are served. A worker thread would hold a
 * heap of its own (about 50 MB) for them.
 */
function describeInline(extract: ExtractOptions | undefined) {
  return async (html: string, url: string): Promise<ExtractedPage> => {
    await yieldToEventLoop();
    return describeFromContent(html, url, { ...extract, maxParsedHtmlChars: Math.min(extract?.maxParsedHtmlChars ?? Infinity, DESCRIBE_MAX_PARSED_CHARS) });
  };
}

/** Enough for a page of source code (280 kB in Sphinx's own docs); a manual's index runs to 450 kB. */
const DESCRIBE_MAX_PARSED_CHARS = 300_000;

function candidatesLastModified(byUrl: Map<string, Candidate>, url: string): string | null {
  return byUrl.get(url)?.page.lastModified ?? null;
}

/**
 * The pages in the order they are listed, each with its section: the site's own parts when its
 * navigation yields them, else sections from URL folders (render decides).
 */
function placeInSections(map: SiteMap, chosen: readonly MapNode[], pages: DescribedPage[]): DescribedPage[] {
  const pageOf = new Map(chosen.map((node, index) => [node, pages[index]]));
  const sections = sectionsFromMap(map, chosen.filter((node) => !node.secondary));
  // Without the site's own parts, sections come from URL folders (render), each in reading order.
  if (!sections) return [...chosen].sort((a, b) => a.order - b.order).map((node) => pageOf.get(node)!);
  const ordered: DescribedPage[] = [];
  for (const section of sections) {
    for (const node of section.nodes) {
      const page = pageOf.get(node)!;
      page.section = section.name;
      ordered.push(page);
    }
  }
  return [...ordered, ...pages.filter((page) => page.optional)];
}

/** The describer (enhanced), then rendering. */
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
      page.title = described.title || page.title;
      page.description = described.description || page.description;
      if (described.section && !page.optional) page.section = described.section;
      page.source = described.source;
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
