// The DOM pass (linkedom, Readability, turndown): a page's main content as markdown, for
// llms-full.txt and the describer. What the generator knows of a page otherwise comes from its
// facts (page-facts.ts), read in one htmlparser2 pass; the few pages whose facts say nothing of
// them have their main content read here by the same rules (readContentFacts).
import { Readability } from '@mozilla/readability';
import { DOMParser } from 'linkedom';
import { LINK_LIST_SHARE, MIN_LAYOUT_NAVIGATION_LINKS } from './tuning.ts';
import { prepareHtml, withDocumentTags } from './html-prepare.ts';
import { htmlToMarkdown, MAX_MARKDOWN_CHARS, resolveUrl } from './markdown.ts';
import { readPageFacts } from './page-facts.ts';
import type { ContentFacts } from './page-text.ts';
import { normalizeWhitespace } from './text.ts';
import { elementsOf, hasAncestor, markTest, type ElementMarks, type ElementTest } from './element-marks.ts';

/** What the DOM pass makes of a page. */
export interface ExtractedPage {
  /** Main content as markdown. */
  markdown: string;
  /** True when the HTML was cut to the size limits before parsing. */
  truncated: boolean;
  /** The main content's paragraph and headings, when asked for (see readContentFacts). */
  content?: ContentFacts;
}

/** The DOM pass of one page, in the caller's thread or another; `content` also asks for its content facts. */
export type Extractor = (html: string, url: string, wants?: { content: boolean }) => Promise<ExtractedPage>;

export interface ExtractOptions {
  maxMarkdownChars?: number;
  maxRawHtmlChars?: number;
  maxParsedHtmlChars?: number;
}

/** Below this much text, Readability's result is compared with the page's <main>/<article>/<body>. */
const THIN_ARTICLE_CHARS = 250;

/**
 * Content facts are read from at most this much prepared HTML: enough for a page of source code
 * (280 kB in Sphinx's own docs); a manual's index runs to 450 kB.
 */
const CONTENT_MAX_PARSED_CHARS = 300_000;

/**
 * The page's markdown and, with `content`, its content facts from the same parse when the
 * prepared HTML is within the facts' own limit (as it is for all but the largest pages), so that
 * a page whose facts say nothing is parsed once, not twice.
 */
export function extractPage(html: string, url: string, options: ExtractOptions = {}, wants = { content: false }): ExtractedPage {
  const page = readPage(html, url, options);
  const content = !wants.content ? undefined : page.parsedChars <= CONTENT_MAX_PARSED_CHARS ? contentFactsOf(page.content, url) : readContentFacts(html, url, options);
  const markdown = page.content ? htmlToMarkdown(page.content, page.baseUrl, page.maxMarkdownChars) : '';
  return content ? { markdown, truncated: page.truncated, content } : { markdown, truncated: page.truncated };
}

/**
 * The first paragraph and headings of the page's main content, without its markdown, read by the
 * facts' own rules (see FactsOptions.content) from its first CONTENT_MAX_PARSED_CHARS: for a page
 * whose facts say nothing of it.
 */
export function readContentFacts(html: string, url: string, options: ExtractOptions = {}): ContentFacts {
  const maxParsedHtmlChars = Math.min(options.maxParsedHtmlChars ?? Infinity, CONTENT_MAX_PARSED_CHARS);
  return contentFactsOf(readPage(html, url, { ...options, maxParsedHtmlChars }).content, url);
}

function contentFactsOf(content: HTMLElement | null, url: string): ContentFacts {
  if (!content) return { firstParagraph: '', headings: [] };
  const { firstParagraph, headings } = readPageFacts(content.outerHTML, url, { content: true });
  return { firstParagraph, headings };
}

function readPage(raw: string, url: string, options: ExtractOptions) {
  const prepared = prepareHtml(raw, { maxRawChars: options.maxRawHtmlChars, maxParsedChars: options.maxParsedHtmlChars });
  const html = withDocumentTags(prepared.html);
  const doc = parseHtml(html);
  const baseUrl = resolveUrl(doc.querySelector('base[href]')?.getAttribute('href') ?? null, url, ['http:', 'https:']) ?? url;
  const content = mainContent(doc, html);
  const maxMarkdownChars = options.maxMarkdownChars ?? MAX_MARKDOWN_CHARS;
  if (content) trimToText(content, maxMarkdownChars);
  return { content, baseUrl, maxMarkdownChars, truncated: prepared.truncated, parsedChars: prepared.html.length };
}

function parseHtml(html: string): Document {
  const doc = new DOMParser().parseFromString(html, 'text/html') as unknown as Document;
  if (joinLongTextRuns(doc)) WITH_LONG_TEXT_RUNS.add(doc);
  return doc;
}

/**
 * Longest run of sibling text nodes left as parsed. The parser makes a text node of each entity
 * and stray `<` ("&lt;%&lt;%…"): a paragraph of them became tens of thousands of nodes, each
 * visited by every pass of Readability. Ordinary pages have short runs, which keep their nodes
 * (markdown escapes the start of each).
 */
const MAX_TEXT_RUN = 1000;

/**
 * Documents that had a longer run: Readability, which parses the page again from its HTML when
 * it retries (splitting the text once more), is not run on them (see mainContent).
 */
const WITH_LONG_TEXT_RUNS = new WeakSet<Document>();

/** Joins each run of more than MAX_TEXT_RUN sibling text nodes into one; true when there was one. */
function joinLongTextRuns(doc: Document): boolean {
  let joined = false;
  const walker = doc.createTreeWalker(doc, NODE_FILTER_SHOW_TEXT);
  let run: Text[] = [];
  const join = () => {
    if (run.length > MAX_TEXT_RUN) {
      joined = true;
      run[0].data = run.map((node) => node.data).join('');
      for (const node of run.slice(1)) node.remove();
    }
    run = [];
  };
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    if (run.length > 0 && node.previousSibling !== run[run.length - 1]) join();
    run.push(node);
  }
  join();
  return joined;
}

const NODE_FILTER_SHOW_TEXT = 4;

/**
 * The page's main content element: Readability's article, or the page's <main>/<article>/<body>
 * without navigation when the page comes from a documentation generator, when it is an index
 * (mostly links: Readability would retry four times over the whole page and keep little), when
 * Readability finds nothing, or when it keeps much less text than that region.
 */
function mainContent(doc: Document, html: string): HTMLElement | null {
  // Navigation, asides and permalink anchors never hold the main content; dropping them first
  // saves Readability work.
  const generator = doc.querySelector('meta[name="generator" i]')?.getAttribute('content') ?? '';
  const docBook = DOCBOOK.test(generator);
  const layout = readLayout(doc, docBook ? isDocBookChrome : isChrome);
  for (const element of layout.chrome) element.remove();
  const region = firstRegion(layout.regions, doc);
  // The link index's measure (all of the region's text) last: the other tests are known already.
  if (docBook || (layout.navigates && region !== doc.body) || WITH_LONG_TEXT_RUNS.has(doc) || isLinkIndex(region)) return cleanRegion(region);

  let article: HTMLElement | null = null;
  let articleText = 0;
  try {
    const result = new Readability<HTMLElement>(doc, { keepClasses: true, disableJSONLD: true, serializer: (node) => node as HTMLElement }).parse();
    article = result?.content ?? null;
    articleText = normalizeWhitespace(result?.textContent).length;
  } catch {
    article = null;
  }
  if (article && articleText >= THIN_ARTICLE_CHARS) return article;

  // Readability rewrote the document while it worked: look for the fallback in a fresh copy.
  const fallback = cleanRegion(pageRegion(parseHtml(html)));
  const fallbackText = fallback ? normalizeWhitespace(fallback.textContent).length : 0;
  return fallback && fallbackText > articleText * 1.5 ? fallback : article;
}

const NAVIGATION: ElementMarks = { tags: ['nav', 'aside', 'footer'], roles: ['navigation', 'contentinfo'] };
// Permalink anchors ("¶"), breadcrumbs and previous/next links of documentation themes.
const PAGE_CHROME: ElementMarks = {
  tagClasses: [['a', 'headerlink'], ['a', 'anchor-link'], ['a', 'hash-link']],
  ariaLabels: ['breadcrumb', 'breadcrumbs'],
  classes: ['breadcrumbs', 'pagination-nav', 'md-footer', 'theme-doc-footer'],
};
/**
 * DocBook XSL's pages (PostgreSQL's manual, many GNU and BSD handbooks) have no <main>: their body
 * is the content once the navigation header and footer and the chapter's table of contents are
 * gone. Readability dropped their synopses and kept the navigation tables of short pages.
 */
const DOCBOOK = /\bdocbook\b/i;
const DOCBOOK_CHROME: ElementMarks = { tagClasses: [['div', 'navheader'], ['div', 'navfooter'], ['div', 'toc']] };
const NON_CONTENT: ElementMarks = { tags: ['script', 'style', 'noscript', 'header', 'form'], roles: ['banner'], ariaHidden: true, classes: ['footer'], ids: ['footer'] };

const isChrome = markTest(NAVIGATION, PAGE_CHROME);
const isDocBookChrome = markTest(NAVIGATION, PAGE_CHROME, DOCBOOK_CHROME);
const isNonContent = markTest(NAVIGATION, NON_CONTENT);
/** What holds a site's navigation links (a footer's links are not the site's map). */
const isSiteNavigation = markTest({ tags: ['nav', 'aside'], roles: ['navigation'] });
const isMainRegion = markTest({ tags: ['main'], roles: ['main'] });

/**
 * One walk of the page before anything is dropped: its chrome (to drop), the elements that may
 * hold its main content (<main> or `[role=main]` first, else <article>; the first one left once
 * the chrome is gone is it), and whether it has a documentation layout: navigation blocks (a
 * sidebar of the site's pages, a local table of contents) holding at least
 * MIN_LAYOUT_NAVIGATION_LINKS links, beside a main region the page marks itself. Readability,
 * tuned for news articles, drops parts of such a region (version notes, API lists, lines of
 * highlighted source code): the region is the content.
 */
function readLayout(doc: Document, isDropped: ElementTest) {
  const chrome: Element[] = [];
  let navigationLinks = 0;
  const regions = candidateRegions(doc, (element) => {
    if (isDropped(element)) chrome.push(element);
    const countsLink = navigationLinks < MIN_LAYOUT_NAVIGATION_LINKS && element.localName === 'a' && element.hasAttribute('href');
    if (countsLink && hasAncestor(element, isSiteNavigation)) navigationLinks++;
  });
  return { chrome, regions, navigates: navigationLinks >= MIN_LAYOUT_NAVIGATION_LINKS };
}

/** The elements that may hold the main content, in order: <main> or `[role=main]`, then <article>; `visit` sees every element of the walk. */
function candidateRegions(doc: Document, visit?: (element: Element) => void): HTMLElement[] {
  const mains: HTMLElement[] = [];
  const articles: HTMLElement[] = [];
  for (const element of elementsOf(doc)) {
    visit?.(element);
    if (isMainRegion(element)) mains.push(element as HTMLElement);
    else if (element.localName === 'article') articles.push(element as HTMLElement);
  }
  return [...mains, ...articles];
}

/** The page's main region: the first of `regions` (see readLayout) still in the page, else its body. */
function firstRegion(regions: readonly HTMLElement[], doc: Document): HTMLElement {
  return regions.find((element) => element.isConnected) ?? doc.body;
}

function pageRegion(doc: Document): HTMLElement | null {
  return firstRegion(candidateRegions(doc), doc);
}

function cleanRegion(region: HTMLElement | null): HTMLElement | null {
  if (region) for (const element of [...elementsOf(region)].filter(isNonContent)) element.remove();
  return region;
}

function isLinkIndex(region: HTMLElement | null): boolean {
  if (!region) return false;
  const text = normalizeWhitespace(region.textContent).length;
  if (text === 0) return false;
  let linkText = 0;
  for (const link of region.querySelectorAll('a')) linkText += normalizeWhitespace(link.textContent).length;
  return linkText / text > LINK_LIST_SHARE;
}

/**
 * Removes what lies beyond `maxChars` of text, so converting a huge page costs no more than the
 * markdown it can keep (markdown is never shorter than the text it holds).
 */
function trimToText(root: HTMLElement, maxChars: number): void {
  let budget = maxChars;
  const visit = (element: Element): void => {
    const children = [...element.children];
    for (let i = 0; i < children.length; i++) {
      if (budget <= 0) {
        for (const rest of children.slice(i)) rest.remove();
        return;
      }
      const length = children[i].textContent?.length ?? 0;
      if (length <= budget) budget -= length;
      else visit(children[i]);
    }
  };
  if ((root.textContent?.length ?? 0) > maxChars) visit(root);
}
