// The page model: what one pass over a page's HTML (see readPageFacts) reads of it, and its links
// told apart by the block they stand in. The generator ranks pages, names sections and describes
// pages from these facts alone; only the pages it lists are read again (the DOM pass).
import type { TokenizerCallbacks } from 'htmlparser2';
import type { PageHead } from './metadata.ts';

export interface PageLink {
  /** Absolute URL without its fragment. */
  url: string;
  text: string;
  /** The block the link stands in (see LinkBlock). */
  block: LinkBlock;
  /** Nesting depth of lists around the link, 0 for a top-level entry. */
  depth: number;
  /** Index (in `links`) of the entry this one nests under, -1 for none. */
  parent: number;
  /** The caption of its block: the heading, caption or captioning item the link sits under, when there is one. */
  group: string | null;
}

/**
 * Where a link stands: `navigation`, a navigation block (`<nav>`, role=navigation, a sidebar's or
 * menu's class) outside the page's main region or opened inside it; `toc`, an entry of a list or
 * table in the content (a contents page's entries, a table of operations); `content`, running
 * text. Links in the page's chrome (header, footer, breadcrumbs, previous/next bars) are not kept:
 * they repeat on every page and are no part of the site's map.
 */
export type LinkBlock = 'navigation' | 'toc' | 'content';

/** A navigation or contents entry: a step in the site's map (a link in running text is a mention). */
export function isEntry(link: PageLink): boolean {
  return link.block !== 'content';
}

export interface PageFacts {
  url: string;
  lang: string | null;
  documentTitle: string | null;
  ogTitle: string | null;
  siteName: string | null;
  h1: string | null;
  metaDescription: string | null;
  /** What metadata.ts reads a page's title, descriptions, site name and language from. */
  head: PageHead;
  /** Number of <h1> elements: a page with one names itself by it. */
  h1Count: number;
  /** A reference page's one-liner: "SELECT — retrieve rows", a manual's NAME line, a "Description:" row. */
  purposeLine: string | null;
  /** The first paragraph with a real sentence in it (see isMeaningfulParagraph), '' when none. */
  firstParagraph: string;
  /** The first lead paragraphs of the content (see ParagraphRole), to find text that many pages share. */
  paragraphs: string[];
  headings: string[];
  /** The first terms a glossary on the page defines (see GLOSSARY_CLASS). */
  terms: string[];
  links: PageLink[];
  canonical: string | null;
  /** `<meta http-equiv="refresh">` target: the page stands for that URL. */
  refresh: string | null;
  /** hreflang alternates other than this page. */
  alternates: string[];
  /** `<meta name="generator">`: the tool that wrote the page ("Sphinx 7.2.6", "MkDocs 1.6"), null when it does not say. */
  generator: string | null;
  /** Characters of text outside chrome and navigation… */
  textChars: number;
  /** …and those of them in a <pre>: a page that is mostly code is a source listing. */
  codeChars: number;
  /** The opening of the page's code (see MAX_CODE_OPENING_CHARS), where a source listing's header comment says what the file is. */
  codeOpening: string;
  /** A <frameset>: the page's content is other documents, its frames. */
  frameset: boolean;
}

export interface FactsOptions {
  /**
   * Receives every token of the same pass (the crawler's link scan, see scanLinks), so a page the
   * crawler follows and the generator outlines is tokenized once.
   */
  alsoTokens?: TokenizerCallbacks;
  /**
   * False when the outline leaves its worker thread at once, as a structured clone, which copies
   * it anyway (see the end of readPageFacts).
   */
  copy?: boolean;
  /**
   * The HTML is a page's main content as the DOM pass cut it (see readContentFacts): its
   * navigation and chrome are gone, and what class names call navigation or chrome is content;
   * paragraphs in list items and table cells are the page's text. Only headings and paragraphs
   * are read, the first meaningful paragraph however far down it comes.
   */
  content?: boolean;
}

/** The facts of a page before its HTML is read. */
export function emptyFacts(url: string): PageFacts {
  return {
    url,
    lang: null,
    documentTitle: null,
    ogTitle: null,
    siteName: null,
    h1: null,
    metaDescription: null,
    head: { metaTags: [], jsonLd: [], documentTitle: null, h1: null, htmlLang: null },
    h1Count: 0,
    purposeLine: null,
    firstParagraph: '',
    paragraphs: [],
    headings: [],
    terms: [],
    links: [],
    canonical: null,
    refresh: null,
    alternates: [],
    generator: null,
    textChars: 0,
    codeChars: 0,
    codeOpening: '',
    frameset: false,
  };
}
