// Pages a reader rarely needs first: legal text, indexes, bibliographies, release notes, search,
// lists of the people behind the project, guides for the project's contributors, guides for
// moving up from an older version ("Migrating from 0.x to v2"), source listings (source-listing.ts).
// They are ranked last, never vouch for other pages, and are listed under `## Optional`.
import { findOptionalPages } from './sections.ts';
import { languageOf } from './language.ts';
import { isEntry, type PageFacts } from './page-facts.ts';
import { phrasesFor, type Phrases } from './phrases.ts';
import { pageKey } from './site-map.ts';
import { compactKeyPrefix, withoutNumbering } from './text.ts';
import { findSharedTitleEnds } from './title.ts';
import { isSourceListing } from './source-listing.ts';
import { GLOSSARY_MAX_DEFINITION_CHARS, GLOSSARY_MIN_TERMS, GLOSSARY_SORTED_SHARE, MAX_SOURCE_LISTING_SITE_SHARE } from './tuning.ts';

/** A contents page lists at least this many pages, and twice as many as the site's median page. */
const MIN_CONTENTS_TARGETS = 10;

/** Title-based test, for pages whose URL says nothing ("bookindex.html", "legalnotice.html"), in the words of the page's language. */
export function isSecondaryTitle(title: string | null | undefined, phrases: Phrases): boolean {
  const clean = cleanTitle(title);
  return clean !== null && [phrases.indexTitle, phrases.secondaryTitle, phrases.contentsTitle, ...ANY_LANGUAGE_TITLES].some((pattern) => pattern.test(clean));
}

/**
 * A page named after a source file ("shelf.h", "shelf.h File Reference", "Data/Shelf.hs"): an API
 * generator's page per file, which lists again what the pages on the API's topics document.
 */
const SOURCE_FILE_TITLE = /^[\w/.-]+\.(?:h|hh|hpp|hxx|c|cc|cpp|cxx|hs|py|rs|java|go|rb)(?:\s+\p{L}+){0,2}$/iu;

/**
 * A web server's listing of a folder ("Index of /docs/images/", Apache's and nginx's; "Directory
 * listing for /docs/", Python's http.server), in English whatever the site's language: the
 * server's page, not the site's.
 */
const DIRECTORY_LISTING_TITLE = /^(?:index of|directory listing for)\s+\/\S*$/i;

/** Secondary titles in any site's language. */
const ANY_LANGUAGE_TITLES = [SOURCE_FILE_TITLE, DIRECTORY_LISTING_TITLE];

/** A title as the title patterns read it; null when there is none. */
function cleanTitle(title: string | null | undefined): string | null {
  return title ? withoutNumbering(title.trim()) : null;
}

/**
 * The secondary pages among outlined pages, by URL (archives, legal paths, old versions) or by
 * title. An index is one of the site's parts when its home page names it so: Apache's lists its
 * "Module Index" as "Modules", the part of the manual every module is in, where Python's lists its
 * "Global Module Index" as such, an alphabetical index beside the Library Reference.
 */
export function findSecondaryPages(outlines: readonly PageFacts[], home?: PageFacts): Set<string> {
  const secondary = findOptionalPages(outlines.map((outline) => outline.url));
  const namesByHome = new Map<string, string[]>();
  for (const link of home?.links ?? []) namesByHome.set(link.url, [...(namesByHome.get(link.url) ?? []), link.text]);
  const listsTheSite = contentsLister(outlines);
  const isListing = sourceListingTest(outlines);
  // The end most titles share is the site's name (Texinfo's "Function Index (GNU Octave …)").
  const sharedTail = findSharedTitleEnds(outlines.map((outline) => outline.documentTitle ?? '')).tail;
  for (const outline of outlines) {
    const titles = titlesOf(outline, home?.documentTitle, sharedTail).map(cleanTitle);
    const phrases = phrasesFor(languageOf(outline));
    const names = namesByHome.get(outline.url);
    const namedAsPart = names !== undefined && !names.some((name) => isSecondaryTitle(name, phrases));
    const titled = (pattern: RegExp) => titles.some((title) => title !== null && pattern.test(title));
    if (isListing(outline) || isGlossary(outline) || titled(phrases.secondaryTitle) || ANY_LANGUAGE_TITLES.some(titled) || (titled(phrases.indexTitle) && !namedAsPart) || (titled(phrases.contentsTitle) && listsTheSite(outline))) {
      secondary.add(outline.url);
    }
  }
  return secondary;
}

/**
 * Source listings stand beside the pages that document their code: where nearly all of a site's
 * pages are preformatted text (a plain-text manual converted to HTML, each page one `<pre>`), that
 * text is the documentation, not listings of it.
 */
function sourceListingTest(outlines: readonly PageFacts[]): (outline: PageFacts) => boolean {
  const listings = outlines.filter(isSourceListing).length;
  const site = listings <= MAX_SOURCE_LISTING_SITE_SHARE * outlines.length;
  return (outline) => site && isSourceListing(outline);
}

/** A term a glossary's list defines: a few words, no identifier ("not nullable"; not "ALLOWED_HOSTS", "getName()"). */
const TERM = /^\p{L}[\p{L}'’ -]{0,40}$/u;
/** A term a heading names: up to four words, the first capitalised, none a name in code ("Semver Range"; not "ArrayAgg", "auth"). */
const HEADING_TERM = /^\p{Lu}\p{Ll}+(?:[ -]\p{L}\p{Ll}*){0,3}$/u;

/**
 * A glossary: a page whose content is terms, each with its definition, in alphabetical order (the
 * terms of its definition list, else its headings): a reader looks a word up there, as in an
 * index, and reads the pages that use it first. A reference of settings or functions in
 * alphabetical order names identifiers, not terms.
 */
function isGlossary(outline: PageFacts): boolean {
  // A glossary's definition list says what it is; headings are terms when each has a definition's
  // few lines under it, not a reference's sections (a field's or a command's options and examples).
  const marked = outline.terms.length > 0;
  const terms = marked ? outline.terms.filter((text) => TERM.test(text)) : outline.headings.filter((text) => HEADING_TERM.test(text));
  if (terms.length < GLOSSARY_MIN_TERMS || (!marked && outline.textChars > GLOSSARY_MAX_DEFINITION_CHARS * terms.length)) return false;
  // Terms, not a page's parts named alike ("Options for HTML output", "Options for LaTeX output").
  const firstWords = new Set(terms.map((term) => term.split(/[\s-]/)[0].toLowerCase()));
  if (firstWords.size * 2 < terms.length) return false;
  let sorted = 0;
  for (let index = 1; index < terms.length; index++) if (terms[index - 1].localeCompare(terms[index], 'en', { sensitivity: 'base' }) <= 0) sorted++;
  return sorted >= GLOSSARY_SORTED_SHARE * (terms.length - 1);
}

/** An opening is compared by its first this many letters and digits. */
const OPENING_CHARS = 40;
/** A listing quotes the openings of at least this many of the pages it links to… */
const MIN_EXCERPTS = 2;
/** …and they make at least this share of its paragraphs. */
const EXCERPT_SHARE = 0.5;

/** A text's opening as listings and the pages they quote are compared by; null for a text too short to tell. */
export function openingOf(text: string | null | undefined): string | null {
  const key = compactKeyPrefix(text ?? '', OPENING_CHARS);
  return key.length >= OPENING_CHARS ? key : null;
}

/**
 * Listings of excerpts (a blog's front page, a feed of articles): most of the page's paragraphs
 * open as pages it links to open. They repeat those pages, which say it better: listed under
 * Optional, though they lead to those pages as the site's navigation does.
 */
export function findExcerptListings(outlines: readonly PageFacts[], opening: (text: string | null | undefined) => string | null = openingOf): string[] {
  // A link to `/posts/a` leads to the page served at `/posts/a/`.
  const pageOf = (url: string) => pageKey(url).replace(/\/$/, '');
  const pagesOpening = new Map<string, string[]>();
  for (const outline of outlines) {
    for (const key of new Set([outline.firstParagraph, outline.paragraphs[0], outline.metaDescription].map(opening))) {
      if (!key) continue;
      const pages = pagesOpening.get(key);
      if (pages) pages.push(pageOf(outline.url));
      else pagesOpening.set(key, [pageOf(outline.url)]);
    }
  }
  const listings: string[] = [];
  for (const outline of outlines) {
    if (outline.paragraphs.length === 0) continue;
    const self = pageOf(outline.url);
    let linked: Set<string> | null = null;
    const quoted = new Set<string>();
    let excerpts = 0;
    for (const paragraph of outline.paragraphs) {
      const openingAlike = pagesOpening.get(opening(paragraph) ?? '');
      // Its own first paragraph opens as it does: only another page's opening makes an excerpt.
      if (!openingAlike?.some((page) => page !== self)) continue;
      linked ??= new Set(outline.links.map((link) => pageOf(link.url)));
      const target = openingAlike.find((page) => page !== self && linked!.has(page));
      if (!target) continue;
      excerpts++;
      quoted.add(target);
    }
    if (quoted.size >= MIN_EXCERPTS && excerpts >= EXCERPT_SHARE * outline.paragraphs.length) listings.push(outline.url);
  }
  return listings;
}

/**
 * Whether a page lists far more of the site's pages than its pages do (a manual's table of
 * contents), where a page titled "Table of Contents" that documents a table-of-contents feature
 * lists no more than the sidebar every page repeats.
 */
function contentsLister(outlines: readonly PageFacts[]): (outline: PageFacts) => boolean {
  const targets = (outline: PageFacts) => new Set(outline.links.filter((link) => isEntry(link) && link.url !== outline.url).map((link) => link.url)).size;
  const counts = outlines.map(targets).sort((a, b) => a - b);
  const median = counts[Math.floor(counts.length / 2)] ?? 0;
  return (outline) => targets(outline) >= Math.max(MIN_CONTENTS_TARGETS, 2 * median);
}

/** Whether the page's heading or title names it secondary (an index, a licence, release notes…). */
export function hasSecondaryTitle(outline: PageFacts): boolean {
  const phrases = phrasesFor(languageOf(outline));
  return titlesOf(outline).some((title) => isSecondaryTitle(title, phrases));
}

/**
 * The page's heading and title; each side of a title's first ": " ("Lib: shelf.h File Reference",
 * "Index: Lib Manual"); its title past the home page's, where the title is the site's name and
 * then the page's own ("Lib 1.0: Basic libraries (Index - A)"); and its title before the end most
 * titles share ("Function Index (GNU Octave (version 7.3.0))").
 */
function titlesOf(outline: PageFacts, homeTitle?: string | null, sharedTail?: string | null): Array<string | null | undefined> {
  const titles = [outline.h1, outline.documentTitle?.split(/\s[|–—-]\s/)[0]];
  const title = outline.documentTitle ?? '';
  const colon = title.indexOf(': ');
  if (colon > 0) titles.push(title.slice(0, colon), title.slice(colon + 2));
  if (homeTitle && title.length > homeTitle.length && title.startsWith(homeTitle)) titles.push(trimmedOfMarks(title.slice(homeTitle.length)));
  if (sharedTail && title.endsWith(sharedTail)) titles.push(title.slice(0, -sharedTail.length));
  return titles;
}


/** " (Index - A)" → "Index - A": the marks that join a title to the site's name. */
function trimmedOfMarks(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && TITLE_JOINER.includes(text[start])) start++;
  while (end > start && TITLE_JOINER.includes(text[end - 1])) end--;
  return text.slice(start, end);
}

const TITLE_JOINER = ' ()[]:|–—-';
