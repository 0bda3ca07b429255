// One page's HTML → its title, description, site name, language and main content as markdown.
import { Readability } from '@mozilla/readability';
import { DOMParser } from 'linkedom';
import { isAnsweredQuestion, isBoilerplateDescription, isMeaningfulParagraph, isSynopsisHeading, LINK_LIST_SHARE } from './boilerplate.ts';
import { prepareHtml } from './html-prepare.ts';
import { htmlToMarkdown, MAX_MARKDOWN_CHARS, resolveUrl } from './markdown.ts';
import { metadataFromHead, readMetadata, type PageMetadata } from './metadata.ts';
import { ASIDE_CLASSES, type PageOutline } from './outline.ts';
import { candidateText, normalizeWhitespace, summarizeToSentences } from './text.ts';
import { hostNames, stripSiteName, titleParts, trimDocumentTitle } from './title.ts';

export interface ExtractedPage {
  url: string;
  title: string;
  /** The title as the page wrote it, before any " | Site" part was dropped (null when it had none). */
  fullTitle: string | null;
  /** The `simple` method's description: a meta description, else the first paragraph, else ''. */
  description: string;
  descriptionSource: 'meta' | 'content' | 'none';
  /** The meta description accepted on this page, kept so a site can reject one most pages share. */
  metaDescription: string | null;
  siteName: string | null;
  lang: string | null;
  /** Main content as markdown; null when the page was read from its outline only. */
  markdown: string | null;
  /** First meaningful paragraph of the main content, as plain text ('' when none). */
  firstParagraph: string;
  h1: string | null;
  /** Section headings (h2, h3) of the main content, at most 30. */
  headings: string[];
  /** True when the HTML was cut to the size limits before parsing. */
  truncated: boolean;
}

export interface ExtractOptions {
  maxMarkdownChars?: number;
  maxRawHtmlChars?: number;
  maxParsedHtmlChars?: number;
}

/** A meta description longer than this is cut to whole sentences. */
export const META_DESCRIPTION_MAX_CHARS = 300;
/** A description taken from the content is cut to one or two sentences within this. */
export const CONTENT_DESCRIPTION_MAX_CHARS = 200;
/** Below this much text, Readability's result is compared with the page's <main>/<article>/<body>. */
const THIN_ARTICLE_CHARS = 250;
const MAX_HEADINGS = 30;
const MAX_HEADING_CHARS = 120;

export function extractPage(html: string, url: string, options: ExtractOptions = {}): ExtractedPage & { markdown: string } {
  const { metadata, onlyH1, content, baseUrl, maxMarkdownChars, truncated } = readPage(html, url, options);
  return assemblePage(url, metadata, onlyH1, {
    markdown: content ? htmlToMarkdown(content, baseUrl, maxMarkdownChars) : '',
    ...contentSummary(content),
    truncated,
  });
}

/**
 * The page's title, description and headings from its main content, without its markdown: what
 * the `simple` method needs, without llms-full.txt, of a page its outline could not describe.
 */
export function describeFromContent(html: string, url: string, options: ExtractOptions = {}): ExtractedPage {
  const { metadata, onlyH1, content, truncated } = readPage(html, url, options);
  return assemblePage(url, metadata, onlyH1, { markdown: null, ...contentSummary(content), truncated });
}

function readPage(html: string, url: string, options: ExtractOptions) {
  const prepared = prepareHtml(html, { maxRawChars: options.maxRawHtmlChars, maxParsedChars: options.maxParsedHtmlChars });
  const doc = parseHtml(prepared.html);
  const baseUrl = resolveUrl(doc.querySelector('base[href]')?.getAttribute('href') ?? null, url, ['http:', 'https:']) ?? url;
  const metadata = readMetadata(doc);
  const h1s = doc.querySelectorAll('h1');
  const onlyH1 = h1s.length === 1 ? candidateText(h1s[0].textContent) || null : null;
  const content = mainContent(doc, prepared.html);
  const maxMarkdownChars = options.maxMarkdownChars ?? MAX_MARKDOWN_CHARS;
  if (content) trimToText(content, maxMarkdownChars);
  return { metadata, onlyH1, content, baseUrl, maxMarkdownChars, truncated: prepared.truncated };
}

function contentSummary(content: HTMLElement | null): Pick<ExtractedPage, 'firstParagraph' | 'headings'> {
  return { firstParagraph: content ? firstMeaningfulParagraph(content) : '', headings: content ? headingTexts(content) : [] };
}

/**
 * The page as its one-pass outline read it, without main-content extraction: what the `simple`
 * method needs when no llms-full.txt is asked for (no markdown; the first paragraph and headings
 * come from outside the page's navigation and chrome rather than from its main content).
 */
export function pageFromOutline(outline: PageOutline): ExtractedPage {
  const onlyH1 = outline.h1Count === 1 ? outline.h1 : null;
  return assemblePage(outline.url, metadataFromHead(outline.head), onlyH1, {
    markdown: null,
    firstParagraph: outline.firstParagraph,
    headings: outline.headings.filter((heading) => heading.length <= MAX_HEADING_CHARS),
    truncated: false,
  });
}

function assemblePage<Markdown extends string | null>(
  url: string,
  metadata: PageMetadata,
  onlyH1: string | null,
  content: Pick<ExtractedPage, 'firstParagraph' | 'headings' | 'truncated'> & { markdown: Markdown },
): ExtractedPage & { markdown: Markdown } {
  const siteNames = [metadata.siteName, ...hostNames(url)].filter((name): name is string => Boolean(name));
  const title = chooseTitle(metadata, siteNames, url, onlyH1);
  const metaDescription = metadata.descriptions.find((text) => !isBoilerplateDescription(text, title)) ?? null;
  const { firstParagraph } = content;
  const description = metaDescription
    ? summarizeToSentences(metaDescription, META_DESCRIPTION_MAX_CHARS)
    : firstParagraph
      ? summarizeToSentences(firstParagraph, CONTENT_DESCRIPTION_MAX_CHARS)
      : '';

  return {
    url,
    title,
    fullTitle: metadata.metaTitle ?? metadata.documentTitle,
    description,
    descriptionSource: metaDescription ? 'meta' : description ? 'content' : 'none',
    metaDescription,
    siteName: metadata.siteName,
    lang: metadata.lang,
    h1: metadata.h1,
    ...content,
  };
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

/** og:title / twitter:title / <title> / first <h1>, without the part that repeats the site's name. */
export function chooseTitle(metadata: PageMetadata, siteNames: readonly string[], url: string, onlyH1: string | null): string {
  const usable = (title: string | null) => (title && !PLACEHOLDER_TITLE.test(titleParts(title)[0] ?? '') ? title : null);
  const documentTitle = usable(metadata.documentTitle);
  const raw = usable(metadata.metaTitle) ?? (documentTitle ? trimDocumentTitle(documentTitle, onlyH1) : null) ?? usable(metadata.h1);
  if (!raw) return titleFromUrl(url);
  return stripSiteName(raw, siteNames);
}

/** Titles that generators write when a page has none. */
const PLACEHOLDER_TITLE = /^(?:<no title>|no title|untitled(?: document| page)?|undefined|null|document|title)$/i;

/** "https://x.dev/docs/getting-started.html" → "Getting started"; the root gives the host name. */
export function titleFromUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const segment = parsed.pathname.split('/').filter(Boolean).pop();
    if (!segment) return parsed.hostname.replace(/^www\./, '');
    const words = decodeURIComponent(segment).replace(/\.\w{2,5}$/, '').replace(/[-_+]+/g, ' ').trim();
    return words ? words.charAt(0).toUpperCase() + words.slice(1) : parsed.hostname;
  } catch {
    return url;
  }
}

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
  for (const element of [...doc.querySelectorAll(`${NAVIGATION}, ${PAGE_CHROME}${docBook ? `, ${DOCBOOK_CHROME}` : ''}`)]) element.remove();
  const region = pageRegion(doc);
  if (isLinkIndex(region) || docBook || (DOCS_GENERATOR.test(generator) && region !== doc.body) || WITH_LONG_TEXT_RUNS.has(doc)) return cleanRegion(region);

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

const NAVIGATION = 'nav, aside, footer, [role="navigation"], [role="contentinfo"]';
// Permalink anchors ("¶"), breadcrumbs and previous/next links of documentation themes.
const PAGE_CHROME = 'a.headerlink, a.anchor-link, a.hash-link, [aria-label="breadcrumb"], [aria-label="breadcrumbs"], .breadcrumbs, .pagination-nav, .md-footer, .theme-doc-footer';
/**
 * Documentation generators mark their main content explicitly, and Readability, tuned for news
 * articles, drops parts of it (version notes, API lists); their pages' <main> is the content.
 */
const DOCS_GENERATOR = /\b(?:docutils|sphinx|mkdocs|docusaurus|vitepress|vuepress|starlight|mdbook|rustdoc|javadoc|docfx|antora|nextra|gitbook|hexo-theme-doc|typedoc|pdoc|redoc)\b/i;
/**
 * DocBook XSL's pages (PostgreSQL's manual, many GNU and BSD handbooks) have no <main>: their body
 * is the content once the navigation header and footer and the chapter's table of contents are
 * gone. Readability dropped their synopses and kept the navigation tables of short pages.
 */
const DOCBOOK = /\bdocbook\b/i;
const DOCBOOK_CHROME = 'div.navheader, div.navfooter, div.toc';
const NON_CONTENT = `${NAVIGATION}, script, style, noscript, header, form, [role="banner"], [aria-hidden="true"], .footer, #footer`;

function pageRegion(doc: Document): HTMLElement | null {
  return (doc.querySelector('main, [role="main"]') ?? doc.querySelector('article') ?? doc.body) as HTMLElement | null;
}

function cleanRegion(region: HTMLElement | null): HTMLElement | null {
  if (region) for (const element of [...region.querySelectorAll(NON_CONTENT)]) element.remove();
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

const NOT_THE_PAGES_TEXT = ['pre', 'dl.glossary', ...ASIDE_CLASSES.map((name) => `.${name}`)].join(', ');

/**
 * The first paragraph with a real sentence in it (see isMeaningfulParagraph). Not one inside a
 * <pre>: that is source code (Readability makes paragraphs of the blocks of Sphinx's source pages).
 * Nor one past a question heading (see isAnsweredQuestion): a FAQ's answers do not describe it;
 * nor a glossary's definition (the page is described by its terms), a note, a warning or a
 * language switcher.
 */
export function firstMeaningfulParagraph(root: HTMLElement): string {
  let headingsSeen = 0;
  let inSynopsis = false;
  for (const element of root.querySelectorAll('h1, h2, h3, h4, h5, h6, p')) {
    if (element.localName !== 'p') {
      const heading = candidateText(element.textContent);
      if (isAnsweredQuestion(heading, Number(element.localName[1]), headingsSeen++)) return '';
      inSynopsis = isSynopsisHeading(heading);
      continue;
    }
    if (inSynopsis || element.closest(NOT_THE_PAGES_TEXT) || element.querySelector('a[hreflang]')) continue;
    const whole = normalizeWhitespace(element.textContent);
    const text = candidateText(whole);
    const linkChars = [...element.querySelectorAll('a')].reduce((sum, a) => sum + normalizeWhitespace(a.textContent).length, 0);
    // The links' share of the paragraph, for the part of it the rules read.
    if (isMeaningfulParagraph(text, (linkChars * text.length) / whole.length)) return text;
  }
  return '';
}

function headingTexts(root: HTMLElement): string[] {
  const headings: string[] = [];
  for (const heading of root.querySelectorAll('h2, h3')) {
    const text = candidateText(heading.textContent);
    if (text && text.length <= MAX_HEADING_CHARS) headings.push(text);
    if (headings.length >= MAX_HEADINGS) break;
  }
  return headings;
}
