// A page's structure in one htmlparser2 pass (no DOM): what the site says about the page (meta
// description, a reference page's purpose line, its first paragraph) and its links, told apart
// by where they sit. Links in navigation and contents blocks (lists, tables of contents,
// sidebars) are the site's own map; links in running text count less; links in page chrome
// (headers, footers, breadcrumbs, "previous/next" bars) count not at all, since they repeat on
// every page. The generator ranks pages and names sections from these outlines.
import { Parser, type ParserOptions, type Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { isAnsweredQuestion, isMeaningfulParagraph, isSynopsisHeading } from './boilerplate.ts';
import { phrasesFor, type Phrases } from './phrases.ts';
import { TeeTokenizer } from './tee-tokenizer.ts';
import { LINK_LIST_SHARE } from './tuning.ts';
import type { MetaTag, PageHead } from './metadata.ts';
import { candidateText, normalizeWhitespace } from './text.ts';

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
  /** A <frameset>: the page's content is other documents, its frames. */
  frameset: boolean;
}

/**
 * What a paragraph of the content is to its page. Only a `lead` says what the page is and is kept
 * (`paragraphs`, `firstParagraph`); an `answer` follows a question heading (a FAQ's), a `synopsis`
 * a usage heading, a `switcher` links to the page in other languages, a `link-list` is mostly
 * links ("See also"), a `fragment` is too short to say anything. Paragraphs in asides (notes,
 * warnings, "See also" boxes), navigation, chrome and list items are not read at all.
 */
export type ParagraphRole = 'lead' | 'answer' | 'synopsis' | 'switcher' | 'link-list' | 'fragment';

// Page chrome: repeated on every page, never part of the site's map.
const CHROME_CLASS = /(?:^|[\s_-])(?:header|footer|breadcrumbs?|related|navheader|navfooter|topbar|masthead|copyright|skip|cookie|banner|sphinxsidebar|edit-?link|pager|prev|next|footnotes?)(?:$|[\s_-])/i;
const CHROME_ID = /^(?:header|footer|site-header|site-footer|top|masthead|breadcrumbs?|copyright|footnotes|searchbox)$/i;
// Navigation and contents blocks: their links are the site's own table of contents.
const NAV_CLASS = /(?:^|[\s_-])(?:toc|toctree|nav|menu|sidebar|contents|sitemap|biglink|linkdescr)(?:$|[\s_-])/i;
const NAV_ID = /^(?:toc|nav|sidebar|menu)/i;
const CAPTION_CLASS = /(?:^|\s)caption(?:-text)?(?:$|\s)/;
const REFNAMEDIV_CLASS = /(?:^|\s)refnamediv(?:$|\s)/;
// Asides: "See also" boxes (pointers to other parts of the site), notes, tips and warnings (Sphinx's
// admonitions, DocBook's boxes): not this page's entries, nor its text. (An admonition of a title of
// its own, Django's "About this document", is the page's text.)
const ASIDE_CLASSES = ['seealso', 'note', 'tip', 'hint', 'important', 'warning', 'caution', 'attention', 'danger'];
const ASIDE_CLASS = new RegExp(`(?:^|\\s)(?:${ASIDE_CLASSES.join('|')})(?:$|\\s)`);
// Sphinx's glossary directive (and themes that follow it): a definition list of the site's terms.
const GLOSSARY_CLASS = /(?:^|\s)glossary(?:$|\s)/;

interface ClassKind {
  chrome: boolean;
  nav: boolean;
  caption: boolean;
  refnamediv: boolean;
  aside: boolean;
  glossary: boolean;
}

const PLAIN: ClassKind = { chrome: false, nav: false, caption: false, refnamediv: false, aside: false, glossary: false };
// A site writes the same few class lists on every page: each is matched once, not once per element.
const classKinds = new Map<string, ClassKind>();
const MAX_CLASS_KINDS = 10_000;

// Longer lists are matched each time: a hostile page's megabyte-long class attributes stay out of memory.
const MAX_CACHED_CLASS_CHARS = 200;

function classKind(classes: string): ClassKind {
  if (classes === '') return PLAIN;
  let kind = classKinds.get(classes);
  if (kind === undefined) {
    kind = {
      chrome: CHROME_CLASS.test(classes),
      nav: NAV_CLASS.test(classes),
      caption: CAPTION_CLASS.test(classes),
      refnamediv: REFNAMEDIV_CLASS.test(classes),
      aside: ASIDE_CLASS.test(classes),
      glossary: GLOSSARY_CLASS.test(classes),
    };
    if (classes.length > MAX_CACHED_CLASS_CHARS) return kind;
    if (classKinds.size >= MAX_CLASS_KINDS) classKinds.clear();
    // A copy as the key: the attribute is a slice that would keep its whole page alive (see below).
    classKinds.set(structuredClone(classes), kind);
  }
  return kind;
}

/** Text being collected for the element that asked for it. */
interface CollectedText {
  kind: 'title' | 'heading' | 'paragraph' | 'caption' | 'purpose' | 'label' | 'term';
  tag: string;
  parts: string[];
  level?: number;
  /** How much of the text is link text. */
  linkChars: number;
  /** Whether it links to the page in another language (`hreflang`): a language switcher ("Available Languages: en | ko"). */
  switchesLanguage: boolean;
}

function collecting(kind: CollectedText['kind'], tag: string, level?: number): CollectedText {
  return { kind, tag, parts: [], level, linkChars: 0, switchesLanguage: false };
}

interface PendingLink {
  href: string;
  parts: string[];
  afterText: boolean;
  /** A "previous"/"next" link: the reading order's neighbour, not a contents entry. */
  sequence: boolean;
}

// rel="prev"/"next": the reading order's neighbours. Their titles (Sphinx's "Previous topic", which
// some themes repeat inside a navigation menu) and texts ("« previous | up | next »", Django's
// theme) are in the page's language (Phrases.sequenceTitle, sequenceText).
const SEQUENCE_REL = /(?:^|\s)(?:prev|previous|next)(?:$|\s)/i;

/** Nothing, or a label of at most 40 characters ending in ":", says nothing about the link after it. */
const MAX_LABEL_CHARS = 40;
/** Past this much text (white space included), an item has said something. */
const MAX_ITEM_CHARS = 400;
const SEPARATORS = /[\s|·•,/–—-]+/g;

const WORD_CHAR = /[^\s|·•,/–—-]/;

function saysSomething(texts: readonly string[]): boolean {
  // Most texts between an item's tags are white space: no copy of them.
  let words = '';
  for (const text of texts) if (WORD_CHAR.test(text)) words += text;
  if (words === '') return false;
  words = words.slice(0, MAX_ITEM_CHARS).replace(SEPARATORS, ' ').trim();
  return words.length > MAX_LABEL_CHARS || !words.endsWith(':') || /[.!?;]/.test(words);
}

function isSequenceLink(attrs: Record<string, string>, phrases: Phrases): boolean {
  return (attrs.rel !== undefined && SEQUENCE_REL.test(attrs.rel)) || (attrs.title !== undefined && phrases.sequenceTitle.test(attrs.title));
}

const LIST_TAGS = new Set(['ul', 'ol', 'dl']);
// Text a <div> holds outside any <p> (an API generator's class comment: "<div class=block>A set
// of characters.</div>") is a paragraph too, up to the first block element inside the <div>.
const LOOSE_SENTENCE = /^\S+(?:\s+\S+){3,}[.!?]$/;
const BLOCK_TAGS = new Set(['div', 'p', 'ul', 'ol', 'dl', 'table', 'pre', 'blockquote', 'section', 'article', 'aside', 'nav', 'header', 'footer', 'main', 'form', 'details', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const ITEM_TAGS = new Set(['li', 'dt', 'dd', 'td', 'th']);
const HEADING = /^h[1-6]$/;
const VOID_TAGS = new Set(['br', 'img', 'meta', 'link', 'input', 'hr', 'wbr', 'area', 'base', 'col', 'embed', 'source', 'track', 'param']);
const SKIP_TEXT_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'button', 'select', 'textarea']);
const MAX_LINKS = 1500;
const MAX_ITEM_CAPTION_CHARS = 60;
const MAX_PARAGRAPHS = 6;
const MAX_HEADINGS = 30;
/** A longer heading in a page's content is a sentence set as one, not a part's name. */
export const MAX_HEADING_CHARS = 120;
const MAX_TERMS = 12;
const MAX_JSON_LD_CHARS = 50_000;
const PURPOSE_LABEL = /^(?:description|summary|purpose)\s*:\s*$/i;

/** "Installation ¶", "Installation #" → "Installation": the permalink sign documentation themes put after a heading. */
function withoutPilcrow(text: string): string {
  const sign = [...text.slice(-2)].at(-1) ?? '';
  const rest = text.slice(0, text.length - sign.length);
  // "¶" (Sphinx, MkDocs) anywhere; "#", "§", "🔗" after a space only ("C#" keeps its sign).
  if (sign === '¶' || (PERMALINK_SIGNS.has(sign) && rest !== rest.trimEnd())) return rest.trimEnd();
  return text;
}

const PERMALINK_SIGNS = new Set(['#', '§', '🔗']);

function parserOptions(alsoTokens: TokenizerCallbacks | undefined): ParserOptions {
  const options: ParserOptions = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };
  return alsoTokens ? Object.assign(options, { Tokenizer: TeeTokenizer as typeof Tokenizer, alsoTokens }) : options;
}

interface Frame {
  tag: string;
  chrome: boolean;
  nav: boolean;
  caption: boolean;
  aside: boolean;
  glossary: boolean;
  /** Links in the outline when the element opened. */
  linksBefore: number;
  /** The page's main region (`<main>`, role=main). */
  main: boolean;
  /**
   * A list item whose text captions its nested list, or a list holding an item of text alone that
   * captions the items after it: the caption before, restored when the element closes.
   */
  groupBefore?: string | null;
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

export function readPageFacts(html: string, url: string, { alsoTokens, copy = true, content = false }: FactsOptions = {}): PageFacts {
  const outline: PageFacts = {
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
    frameset: false,
  };
  let base = url;
  // The words rules match, in the page's language (its <html lang>; English until it says).
  let phrases = phrasesFor(null);
  const stack: Frame[] = [];
  let chromeDepth = 0;
  let navDepth = 0;
  // Inside the main region, only navigation blocks opened there are navigation: a layout class
  // around the content ("has-sidebar") is not. -1 outside it.
  let navInMain = -1;
  let captionDepth = 0;
  let asideDepth = 0;
  let glossaryDepth = 0;
  let listDepth = 0;
  let itemDepth = 0;
  let skipDepth = 0;
  let preDepth = 0;
  // A link opening a list item is an entry of a list of links; one after text in the item is prose.
  // A label ("Models:") and the separators of a row of links ("Overview | Installation") are not
  // text (see saysSomething): the item's own texts so far, read when a link opens.
  const itemTexts: string[] = [];
  let itemChars = 0;
  let group: string | null = null;
  const lastAtDepth: number[] = [];

  let text: CollectedText | null = null;
  let jsonLd: string[] | null = null;
  const linkStack: PendingLink[] = [];
  let awaitingPurpose: 'next-cell' | 'refname' | 'name-section' | null = null;
  let refnamediv = false;
  // Headings read so far outside the chrome; past a question heading (see isAnsweredQuestion) the
  // page's paragraphs are answers.
  let headingsSeen = 0;
  let answering = false;
  let inSynopsis = false;

  const resolve = (href: string): string | null => {
    try {
      const target = new URL(href.trim(), base);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
      // Cut as a string: URL's hash setter parses the whole URL again.
      const fragment = target.href.indexOf('#');
      return fragment === -1 ? target.href : target.href.slice(0, fragment);
    } catch {
      return null;
    }
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const classes = attrs.class ?? '';
        const id = attrs.id ?? '';
        const role = attrs.role ?? '';
        if (SKIP_TEXT_TAGS.has(name)) skipDepth++;
        if (name === 'html') readLanguage(attrs);
        if (name === 'script' && /^\s*application\/ld\+json\s*$/i.test(attrs.type ?? '')) jsonLd = [];
        if (name === 'h1') outline.h1Count++;
        if (name === 'frameset') outline.frameset = true;
        if (name === 'base' && attrs.href) base = resolve(attrs.href) ?? base;
        if (name === 'meta') return readMeta(attrs);
        if (name === 'link') return readLink(attrs);
        if (VOID_TAGS.has(name)) return;
        if (text?.kind === 'paragraph' && text.tag === 'div' && BLOCK_TAGS.has(name)) finishText();

        // A class on <body> or <html> names the page's layout ("no-sidebar"), not a part of it.
        const kind = name === 'body' || name === 'html' ? PLAIN : classKind(classes);
        const chrome =
          !content && (name === 'header' || name === 'footer' || role === 'banner' || role === 'contentinfo' || kind.chrome || (id !== '' && CHROME_ID.test(id)));
        const nav = !content && (name === 'nav' || role === 'navigation' || kind.nav || (id !== '' && NAV_ID.test(id)));
        if (name === 'pre') preDepth++;
        // A <details> group's <summary> captions the links it folds away (Starlight's sidebar groups).
        const caption = kind.caption || name === 'caption' || name === 'legend' || name === 'summary';
        const main = (name === 'main' || role === 'main') && navInMain < 0;
        if (main) navInMain = 0;
        // In content, a glossary's definition list: the page's terms are read from its facts.
        const glossary = kind.glossary && (!content || name === 'dl');
        stack.push({ tag: name, chrome, nav, caption, aside: kind.aside, glossary, linksBefore: outline.links.length, main });
        if (kind.aside) asideDepth++;
        if (glossary) glossaryDepth++;
        if (chrome) chromeDepth++;
        if (nav) navDepth++;
        if (nav && navInMain >= 0) navInMain++;
        if (caption) {
          captionDepth++;
          if (captionDepth === 1 && !text) text = collecting('caption', name);
        }
        if (LIST_TAGS.has(name) && chromeDepth === 0) captionNestedList();
        if (LIST_TAGS.has(name)) listDepth++;
        if (ITEM_TAGS.has(name)) {
          itemDepth++;
          itemTexts.length = 0;
          itemChars = 0;
        }
        if (kind.refnamediv) refnamediv = true;

        if (content) {
          if (HEADING.test(name) && !text) text = collecting('heading', name, Number(name[1]));
          else if (name === 'p' && asideDepth === 0 && glossaryDepth === 0 && preDepth === 0 && !text) text = collecting('paragraph', name);
        } else if (name === 'title' && !text) text = collecting('title', name);
        else if (HEADING.test(name) && !text) text = collecting('heading', name, Number(name[1]));
        else if (name === 'p' && refnamediv && !outline.purposeLine && !text) text = collecting('purpose', name);
        else if (name === 'p' && awaitingPurpose === 'name-section' && !text) text = collecting('purpose', name);
        else if ((name === 'td' || name === 'dd') && awaitingPurpose === 'next-cell' && !text) text = collecting('purpose', name);
        else if (name === 'dt' && glossaryDepth > 0 && chromeDepth === 0 && !text) text = collecting('term', name);
        else if ((name === 'th' || name === 'dt') && !outline.purposeLine && chromeDepth === 0 && !text) text = collecting('label', name);
        else if ((name === 'p' || name === 'div') && chromeDepth === 0 && navDepth === 0 && itemDepth === 0 && asideDepth === 0 && !text) text = collecting('paragraph', name);

        if (name === 'a' && attrs.hreflang && text) text.switchesLanguage = true;
        if (name === 'a' && attrs.href !== undefined && skipDepth === 0) {
          linkStack.push({ href: attrs.href, parts: [], afterText: itemDepth > 0 && saysSomething(itemTexts), sequence: isSequenceLink(attrs, phrases) });
        }
      },
      ontext(data) {
        if (jsonLd) jsonLd.push(data);
        if (skipDepth > 0) return;
        if (chromeDepth === 0 && navDepth === 0) countText(data);
        text?.parts.push(data);
        if (text && linkStack.length > 0) text.linkChars += data.trim().length;
        for (const link of linkStack) link.parts.push(data);
        // A caption's text (a <summary> toggle's "Submodules") is the caption's, not its item's.
        if (linkStack.length === 0 && itemDepth > 0 && captionDepth === 0 && itemChars <= MAX_ITEM_CHARS) {
          itemTexts.push(data);
          itemChars += data.length;
        }
      },
      onclosetag(name, implied) {
        void implied;
        if (SKIP_TEXT_TAGS.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
        if (name === 'script' && jsonLd) {
          const script = jsonLd.join('');
          if (script.length <= MAX_JSON_LD_CHARS) outline.head.jsonLd.push(script);
          jsonLd = null;
        }
        if (VOID_TAGS.has(name)) return;
        if (name === 'a' && linkStack.length > 0) addLink(linkStack.pop()!);
        if (text && text.tag === name) finishText();
        // Pop to the matching frame: htmlparser2 closes implied tags itself, so frames match.
        const frame = stack.pop();
        if (!frame) return;
        if (frame.groupBefore !== undefined) group = frame.groupBefore;
        else if (frame.tag === 'li' && navDepth > 0 && chromeDepth === 0 && frame.linksBefore === outline.links.length) captionFromItem();
        if (frame.chrome) chromeDepth--;
        if (frame.nav) navDepth--;
        if (frame.nav && navInMain > 0) navInMain--;
        if (frame.main) navInMain = -1;
        if (frame.caption) captionDepth--;
        if (frame.aside) asideDepth--;
        if (frame.glossary) glossaryDepth--;
        if (LIST_TAGS.has(frame.tag)) listDepth--;
        if (ITEM_TAGS.has(frame.tag)) itemDepth--;
      },
    },
    parserOptions(alsoTokens),
  );

  function readLanguage(attrs: Record<string, string>) {
    if (attrs.lang) outline.lang = attrs.lang.toLowerCase();
    phrases = phrasesFor(outline.lang);
    outline.head.htmlLang = attrs.lang ?? attrs['xml:lang'] ?? null;
  }

  function readMeta(attrs: Record<string, string>) {
    outline.head.metaTags.push(attrs as MetaTag);
    const key = (attrs.name ?? attrs.property ?? '').toLowerCase();
    const content = candidateText(attrs.content);
    if ((attrs['http-equiv'] ?? '').toLowerCase() === 'refresh') {
      const match = /url\s*=\s*['"]?([^'"]+)/i.exec(attrs.content ?? '');
      if (match) outline.refresh = resolve(match[1]);
      return;
    }
    if (!content) return;
    if (key === 'description' && !outline.metaDescription) outline.metaDescription = content;
    else if (key === 'og:description' && !outline.metaDescription) outline.metaDescription = content;
    else if (key === 'og:title') outline.ogTitle = content;
    else if (key === 'og:site_name') outline.siteName = content;
    else if (key === 'generator') outline.generator ??= content;
  }

  function readLink(attrs: Record<string, string>) {
    const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
    if (!attrs.href) return;
    if (rel.includes('canonical')) outline.canonical = resolve(attrs.href);
    else if (rel.includes('alternate') && attrs.hreflang) {
      const target = resolve(attrs.href);
      if (target && target !== url) outline.alternates.push(target);
    }
  }

  function addLink(link: PendingLink) {
    if (chromeDepth > 0 || link.sequence || outline.links.length >= MAX_LINKS) return;
    if (/^\s*(?:#|javascript:|mailto:|tel:)/i.test(link.href)) return;
    const target = resolve(link.href);
    if (!target) return;
    const linkText = withoutPilcrow(candidateText(link.parts.join('')));
    if (!linkText || phrases.sequenceText.test(linkText)) return;
    // A link opening a list item or a table cell is a contents entry, unless it points into another
    // page: "math.floor()" in a table of operations, "math" opening a changelog's item.
    const crossReference = link.href.includes('#') && target !== url;
    const toc = navDepth > 0 || (itemDepth > 0 && !link.afterText && asideDepth === 0 && !crossReference);
    const depth = toc ? Math.max(0, listDepth - 1) : 0;
    let parent = -1;
    if (toc) {
      for (let d = depth - 1; d >= 0; d--) {
        if (lastAtDepth[d] !== undefined) {
          parent = lastAtDepth[d];
          break;
        }
      }
      lastAtDepth[depth] = outline.links.length;
      lastAtDepth.length = depth + 1;
    }
    const inNavigation = navInMain < 0 ? navDepth > 0 : navInMain > 0;
    outline.links.push({ url: target, text: linkText, block: inNavigation ? 'navigation' : toc ? 'toc' : 'content', depth, parent, group });
  }

  /**
   * A navigation list's item of text alone ("User Guide" in mdBook's sidebar, a part title) captions
   * the entries after it in its own list, up to that list's end: the last item of a nested list (a
   * chapter not yet written) captions nothing, and the entries above that list stay its parents.
   */
  function captionFromItem() {
    const value = normalizeWhitespace(itemTexts.join(''));
    if (value === '' || value.length > MAX_ITEM_CAPTION_CHARS) return;
    const list = stack.at(-1);
    if (list && LIST_TAGS.has(list.tag) && list.groupBefore === undefined) list.groupBefore = group;
    group = value.replace(/:$/, '');
    lastAtDepth.length = Math.max(0, listDepth - 1);
  }

  /**
   * A list item whose own text (no link) comes before a nested list captions that list's entries
   * ("Shortcodes" over its pages in a sidebar, a contents page's group of extensions), up to the
   * item's end.
   */
  function captionNestedList() {
    let item: Frame | undefined;
    for (let index = stack.length - 2; index >= 0 && !LIST_TAGS.has(stack[index].tag); index--) {
      if (stack[index].tag === 'li') {
        item = stack[index];
        break;
      }
    }
    if (!item || item.groupBefore !== undefined || item.linksBefore !== outline.links.length) return;
    const value = normalizeWhitespace(itemTexts.join(''));
    if (value === '' || value.length > MAX_ITEM_CAPTION_CHARS) return;
    item.groupBefore = group;
    group = value.replace(/:$/, '');
    // The entries above the item stay its parents; its earlier siblings do not.
    lastAtDepth.length = Math.max(0, listDepth - 1);
  }

  function countText(data: string) {
    const chars = data.trim().length;
    outline.textChars += chars;
    if (preDepth > 0) outline.codeChars += chars;
  }

  /** Whether the list item the parser is in has a link or text of its own so far. */
  function itemHasLabel(): boolean {
    for (let index = stack.length - 1; index >= 0 && !LIST_TAGS.has(stack[index].tag); index--) {
      if (stack[index].tag === 'li') return stack[index].linksBefore < outline.links.length || normalizeWhitespace(itemTexts.join('')) !== '';
    }
    return false;
  }

  function finishText() {
    const current = text!;
    text = null;
    // Past the paragraphs an outline keeps, a paragraph's text is not worth assembling (in content,
    // once the first meaningful one is found).
    if (current.kind === 'paragraph' && outline.paragraphs.length >= MAX_PARAGRAPHS && (!content || outline.firstParagraph)) return;
    const value = withoutPilcrow(candidateText(current.parts.join('')));
    switch (current.kind) {
      case 'title':
        outline.documentTitle ??= value || null;
        outline.head.documentTitle ??= value || null;
        break;
      case 'heading':
        if (!value) break;
        if (current.level === 1) outline.h1 = outline.head.h1 ??= value;
        // A note's or a warning's heading ("Note") is no part of the page.
        else if (content ? current.level! <= 3 && value.length <= MAX_HEADING_CHARS : (current.level ?? 0) <= 3 && chromeDepth === 0 && asideDepth === 0) {
          if (outline.headings.length < MAX_HEADINGS) outline.headings.push(value);
        }
        if (chromeDepth === 0) {
          // A navigation block's heading that is all link (the site's name over its sidebar) is an entry, not a caption.
          if (navDepth === 0 || current.linkChars < value.length) {
            group = value;
            lastAtDepth.length = 0;
          }
          answering ||= isAnsweredQuestion(value, current.level ?? 1, headingsSeen++);
          inSynopsis = isSynopsisHeading(value);
        }
        awaitingPurpose = /^name$/i.test(value) && !outline.purposeLine ? 'name-section' : awaitingPurpose;
        break;
      case 'caption':
        // A <summary> toggle ("Submodules") in an entry that has its own name or link folds that
        // entry's children away: the entry, not the toggle, is their parent.
        if (value && !(current.tag === 'summary' && itemHasLabel())) {
          group = value.replace(/:$/, '');
          lastAtDepth.length = 0;
        }
        break;
      case 'term':
        if (value && outline.terms.length < MAX_TERMS) outline.terms.push(value);
        break;
      case 'label':
        awaitingPurpose = PURPOSE_LABEL.test(value) ? 'next-cell' : null;
        break;
      case 'purpose':
        awaitingPurpose = null;
        refnamediv = false;
        if (value && !outline.purposeLine) outline.purposeLine = value;
        break;
      case 'paragraph':
        // A <div>'s own text that is not a sentence is a label, a signature or a name: "Deprecated.", "public class A extends B".
        if (current.tag === 'div' && !LOOSE_SENTENCE.test(value)) break;
        if (paragraphRole(current, value) !== 'lead') break;
        if (outline.paragraphs.length < MAX_PARAGRAPHS) outline.paragraphs.push(value);
        if (!outline.firstParagraph && isMeaningfulParagraph(value, current.linkChars, phrases)) outline.firstParagraph = value;
        break;
    }
  }

  function paragraphRole(paragraph: CollectedText, value: string): ParagraphRole {
    if (answering) return 'answer';
    if (inSynopsis) return 'synopsis';
    if (paragraph.switchesLanguage) return 'switcher';
    if (value.length < 3) return 'fragment';
    // A paragraph that is mostly links lists other pages ("See also"): it states nothing about this one.
    return paragraph.linkChars <= value.length * LINK_LIST_SHARE ? 'lead' : 'link-list';
  }

  parser.write(html);
  parser.end();
  // htmlparser2 hands out slices of the page, and V8 keeps a whole string alive behind each of its
  // slices: without this copy the outlines of a 1,000-page crawl would hold all 1,000 pages.
  return copy ? structuredClone(outline) : outline;
}
