// One short, specific description per listed page, from what the page says about itself: its
// purpose line ("SELECT — retrieve rows from a table or view"), its meta description, its first
// paragraph; a contents page without prose is summarised by its children's titles. Text many
// pages share, navigation, bylines, dates and hashes describe nothing and are passed over.
import { declaresItsTitle, isBoilerplateDescription, QUESTION, QUOTATION } from './boilerplate.ts';
import { phrasesFor, type Phrases } from './phrases.ts';
import type { DescriptionRule } from './rules.ts';
import { shorten } from './shorten.ts';
import { compactKey, listOf, normalizeWhitespace, splitSentences, trimEndOf, withoutNumbering, wordCount, writesOutAddress } from './text.ts';
import { DESCRIPTION_MAX_LISTED as MAX_LISTED, DESCRIPTION_MAX_WORDS as MAX_WORDS, MIN_PURPOSE_CHARS } from './tuning.ts';

export interface DescriptionSignals {
  title: string;
  purposeLine: string | null;
  metaDescription: string | null;
  /** Paragraphs from the page, best first (the outline's first paragraph, the extracted one). */
  paragraphs: readonly string[];
  /** Titles of the pages this one lists as its contents, in order. */
  childTitles: readonly string[];
  headings: readonly string[];
  /** A source listing's header comment (see listingComment), null on any other page. */
  listingComment?: string | null;
  /** The terms the page's glossary defines, in order. */
  terms: readonly string[];
  /** The page's first <h1>: "Source code for sphinx.builders.html" where the title is the module's name. */
  h1: string | null;
  /** The page's own links (outside its chrome): what an index or a list of links points to. */
  linkTexts: readonly string[];
  /** False on a site in another language: its parts are listed without English words ("Covers"). */
  english?: boolean;
  /** The words the rules match, in the site's language (see phrases.ts); English when omitted. */
  phrases?: Phrases;
}

/** Bylines, dates, navigation words, notes and legal notices in words are the language's (Phrases.noise, legalNotice); a copyright sign is in any. */
const COPYRIGHT_SIGN = /^©/u;
const HASH = /\b[0-9a-f]{12,}\b/i;

/** A description and the rule that chose it (`description.meta-description`, …), for the page's trace. */
export interface Described {
  text: string;
  rule: DescriptionRule;
}

const ruled = (rule: DescriptionRule, text: string): Described => ({ text, rule });

/** The description, or '' only when the page offers no text at all. */
export function describePage(signals: DescriptionSignals, isRepeated: (text: string) => boolean): string {
  return describeByRule(signals, isRepeated).text;
}

/** The description with the rule that chose it. */
export function describeByRule(signals: DescriptionSignals, isRepeated: (text: string) => boolean): Described {
  const phrases = signals.phrases ?? phrasesFor(null);
  const cut = (text: string) => shorten(text, phrases);
  const isNoise = (text: string) => phrases.noise.test(text) || phrases.legalNotice.test(text) || COPYRIGHT_SIGN.test(text);
  const usable = (text: string | null | undefined, minChars?: number): string | null => {
    const clean = normalizeWhitespace(text);
    if (!clean || isRepeated(clean) || isNoise(clean) || HASH.test(clean) || isNavigation(clean)) return null;
    if (isBoilerplateDescription(clean, phrases, signals.title, minChars)) return null;
    return clean;
  };
  const statedPurpose = purposeOf(signals.purposeLine);
  const purpose = usable(statedPurpose);
  if (purpose) return ruled('description.purpose-line', cut(capitalize(purpose)));
  const meta = usable(signals.metaDescription);
  if (meta && !isContentExcerpt(meta, [signals.h1, ...signals.headings]) && !isCutCopy(meta, signals.paragraphs)) return ruled('description.meta-description', cut(meta));
  // A short stated purpose (a manual page's "gitglossary - A Git Glossary") still says what the page
  // is, where no paragraph does.
  const shortPurpose = usable(statedPurpose, MIN_PURPOSE_CHARS);
  // A lead-in comes after a paragraph that states something: "Are you tired of writing docstrings
  // that look like this:" leads to an example the description cannot show, "This allows…" follows
  // from a paragraph before it, a paragraph introducing a list ("The remaining data of each directory
  // block is grouped by type:") says less than a short stated purpose, a signature than a sentence.
  let leadIn: string | null = null;
  // It says nothing of the page (see saysNothingOfItsPage): the page's parts say more.
  let lastResort: string | null = null;
  for (const paragraph of signals.paragraphs) {
    const text = usable(paragraph);
    if (!text || wordCount(text) < 4 || phrases.fragment.test(text) || QUOTATION.test(text)) continue;
    if (saysNothingOfItsPage(text, phrases)) lastResort ??= text;
    else if (leadsOn(text, phrases) || phrases.continues.test(text) || (shortPurpose && text.endsWith(':')) || declaresItsTitle(text, signals.title)) leadIn ??= text;
    else return ruled('description.paragraph', cut(text));
  }
  if (shortPurpose) return ruled('description.short-purpose-line', cut(capitalize(shortPurpose)));
  if (leadIn) return ruled('description.lead-in', cut(leadIn));
  // A file's header comment is terse ("LaTeX builder."), as a stated purpose is.
  const comment = usable(signals.listingComment, MIN_PURPOSE_CHARS);
  if (comment) return ruled('description.listing-comment', cut(comment));
  // A glossary without a lead paragraph: its first definition describes one term, not the page.
  const english = signals.english ?? true;
  const terms = summarizeTerms(signals.terms, english);
  if (terms) return ruled('description.glossary-terms', terms);
  const children = summarizeTitles(signals.childTitles, english);
  if (children) return ruled('description.contents-entries', children);
  // A page's heading that is its own title ("D.1. Supported Features") says nothing more about it;
  // nor is its <h1> one of its parts (Readability makes the <h1> of the content an <h2>).
  const titleKey = compactKey(withoutNumbering(signals.title));
  const h1Key = compactKey(withoutNumbering(signals.h1 ?? ''));
  const isPart = (heading: string) => !isNoise(heading) && ![titleKey, h1Key].includes(compactKey(withoutNumbering(heading)));
  const parts = signals.headings.filter(isPart);
  // Headings that are mostly the names of its members (an API page's "◆ KEY_A", "accept") list what
  // it declares, not what it covers.
  const headings = parts.filter(namesMember).length * 2 > parts.length ? '' : summarizeHeadings(parts, english, phrases);
  if (headings) return ruled('description.headings', headings);
  if (lastResort) return ruled('description.paragraph-pointing-elsewhere', cut(lastResort));
  // An <h1> that says more than the title does, on a page with nothing else to go by.
  const h1 = usable(signals.h1);
  if (h1 && h1Key !== titleKey) return ruled('description.heading', cut(h1));
  const links = summarizeTitles(signals.linkTexts.filter((text) => !isNoise(text) && namesAPage(text, phrases)), english);
  return ruled(links ? 'description.link-texts' : 'description.none', links);
}

/** A link's text that can stand for its page in a list of them: a few words naming something, no marker. */
function namesAPage(text: string, phrases: Phrases): boolean {
  return wordCount(text) <= 8 && namesSomething(text) && !MARKER_LINK.test(text) && !NAMES_NOTHING.test(text) && !phrases.namesNothing.test(text);
}

/** Headings of at least this many words, two of them in a text, make it the page's content flattened. */
const EXCERPT_HEADING_WORDS = 2;

/**
 * Whether a text runs through two or more of the page's headings (of two words or more), or opens
 * with one run on into the text below it: a meta description a generator cut from the page's
 * content, headings and permalink signs included ("Acerbo datus maxime # Astris ipse furtiva # Est
 * in…"), where an author's names one heading at most and goes on from it as a sentence.
 */
export function isContentExcerpt(text: string, headings: ReadonlyArray<string | null | undefined>): boolean {
  const key = compactKey(text);
  const named = headings.filter((heading): heading is string => Boolean(heading) && wordCount(heading!) >= EXCERPT_HEADING_WORDS);
  let found = 0;
  for (const heading of new Set(named.map(compactKey))) if (heading !== '' && key.includes(heading) && ++found >= 2) return true;
  // Or it opens with one run on into the text below it, "Move static content # Jekyll has a rule…",
  // with its permalink sign when the heading is one word: "Introduction # This tutorial shows…".
  return headings.some((heading) => {
    const clean = normalizeWhitespace(heading?.replace(/\s#$/, ''));
    if (clean === '' || !text.startsWith(clean)) return false;
    const rest = text.slice(clean.length);
    return SIGN_RUNS_ON.test(rest) || (wordCount(clean) >= EXCERPT_HEADING_WORDS && RUNS_ON.test(rest));
  });
}

/**
 * Whether a meta description is the opening of one of the page's paragraphs cut mid-sentence (a
 * generator that copies the source's first line: "Opaque types in Zig have"): the paragraph,
 * which goes on, says it whole.
 */
function isCutCopy(meta: string, paragraphs: readonly string[]): boolean {
  if (SENTENCE_END.test(meta)) return false;
  const key = compactKey(meta);
  return key !== '' && paragraphs.some((paragraph) => {
    const paragraphKey = compactKey(paragraph);
    return paragraphKey.length > key.length && paragraphKey.startsWith(key);
  });
}

const SENTENCE_END = /[.!?…:;]["'”’)]?$/u;

/** What follows a heading run into its text: a permalink sign or nothing, then a capital. */
const RUNS_ON = /^\s+(?:[#¶§]\s+)?\p{Lu}/u;
const SIGN_RUNS_ON = /^\s+[#¶§]\s+\p{Lu}/u;

/**
 * Each page's description, no two alike where a page has another to give: of pages that would
 * share one (a contents page quoting its first entry's opening, two pages opening with the same
 * warning), the page listing the fewest others keeps it, the rest are described without it.
 */
export function distinctDescriptions(
  pages: ReadonlyArray<{ signals: DescriptionSignals; listedPages: number }>,
  isRepeatedFor: (index: number) => (text: string) => boolean,
): Described[] {
  const descriptions = pages.map(({ signals }, index) => describeByRule(signals, isRepeatedFor(index)));
  const byText = new Map<string, number[]>();
  descriptions.forEach(({ text }, index) => {
    if (!text) return;
    const key = compactKey(text);
    const sharing = byText.get(key);
    if (sharing) sharing.push(index);
    else byText.set(key, [index]);
  });
  for (const [key, indexes] of byText) {
    if (indexes.length < 2) continue;
    const [, ...others] = [...indexes].sort((a, b) => pages[a].listedPages - pages[b].listedPages || a - b);
    for (const index of others) {
      const isRepeated = isRepeatedFor(index);
      const again = describeByRule(pages[index].signals, (text) => isRepeated(text) || compactKey(shorten(text, pages[index].signals.phrases)) === key);
      if (again.text && compactKey(again.text) !== key) descriptions[index] = again;
    }
  }
  return descriptions;
}

/**
 * Link texts that name no part of a page: a commit's hash ("2df0107b", SQLite's release notes link
 * their check-ins), a file's name ("34to35.html"); in words, Phrases.namesNothing ("More information").
 */
const NAMES_NOTHING = /^(?:(?=[a-f]*\d)[0-9a-f]{7,40}|[\w.-]+\.(?:html?|php|aspx?|txt|md|pdf))$/i;

/** "[docs]", "[source]": the markers that link a symbol to its documentation or its code. */
const MARKER_LINK = /^\[[^\]]*\]$/;

/**
 * A paragraph that is one sentence pointing at what follows it ("…like this:", "…as follows:",
 * "…using:"), a question, or a setting off ("Let’s learn by example.", "This tutorial begins
 * where Tutorial 1 left off."). One that says something before its colon ("PostgreSQL has four
 * primary documentation formats:") describes its page.
 */
function leadsOn(text: string, phrases: Phrases): boolean {
  return (phrases.pointsAhead.test(text) || text.endsWith('?') || phrases.setsOff.test(text) || phrases.resumes.test(text)) && splitSentences(text).length === 1;
}

/** "SELECT, TABLE, WITH — retrieve rows from a table or view" → "retrieve rows from a table or view". */
function purposeOf(line: string | null): string | null {
  if (!line) return null;
  const match = /^\S.{0,120}?\s+[—–-]{1,2}\s+(.+)$/u.exec(normalizeWhitespace(line));
  return match ? match[1] : line;
}

function isNavigation(text: string): boolean {
  const separators = (text.match(/\s[|»›•·]\s/g) ?? []).length;
  return separators >= 2;
}

/**
 * A paragraph that opens by sending the reader elsewhere ("See Section 19.9 for more information
 * about setting up SSL. The configuration parameters…", which goes on about one of the page's
 * parts), or a lead-in that would be cut short ("The constants defined in this module are:" →
 * "The constants defined in this module…"), or a fragment that writes out an address (a release
 * notice's "for Acme 2.1 The latest version … can be found on-line at https://…"): below the page's
 * parts as a description.
 */
function saysNothingOfItsPage(text: string, phrases: Phrases): boolean {
  const breaksOff = text.endsWith(':') && wordCount(text) <= MAX_WORDS && shorten(text, phrases).endsWith('…');
  return breaksOff || phrases.pointsElsewhere.test(text) || (writesOutAddress(text) && /^\p{Ll}/u.test(text));
}

/**
 * A page's parts: "Covers A, B, C and more." A page of questions (a FAQ) is summed up by the topics
 * its questions are grouped under, or by its first questions when it has no such topics.
 */
function summarizeHeadings(headings: readonly string[], english: boolean, phrases: Phrases): string {
  const questions = headings.filter((heading) => QUESTION.test(heading));
  if (questions.length * 2 <= headings.length) return summarizeTitles(headings, english);
  const topics = headings.filter((heading) => !QUESTION.test(heading));
  return topics.length >= 2 ? summarizeTitles(topics, english) : shorten(questions.join(' '), phrases);
}

/**
 * A contents page's description from its entries: "Numeric, Monetary and Character types, and
 * more." when most entries end in the same word, else "Covers A, B, C and more."; on a site
 * not in English, the entries alone: "A, B, C, …".
 */
export function summarizeTitles(titles: readonly string[], english = true): string {
  const clean = [...new Set(titles.map((title) => trimEndOf(withoutNumbering(normalizeWhitespace(title)), ':.')).filter(Boolean))];
  if (clean.length === 0) return '';
  if (!english) return `${listOf(clean, MAX_LISTED, false)}.`;
  const shown = clean.slice(0, MAX_LISTED);
  const more = clean.length > shown.length ? ', and more' : '';
  const lastWords = shown.map((title) => title.split(/\s+/).pop()!.toLowerCase());
  const common = lastWords[0];
  if (shown.length >= 3 && lastWords.every((word) => word === common) && shown.every((title) => title.includes(' '))) {
    const heads = shown.map((title) => title.slice(0, title.lastIndexOf(' ')));
    return `${capitalize(listOf(heads))} ${common}${more}.`;
  }
  return `Covers ${listOf(clean, MAX_LISTED)}.`;
}

/** "Defines builder, configuration directory, directive, document name and domain, and more." (">>>" names nothing.) */
function summarizeTerms(terms: readonly string[], english: boolean): string {
  const named = [...new Set(terms.filter((term) => /\p{L}/u.test(term)))];
  if (named.length < 3) return '';
  return english ? `Defines ${listOf(named, MAX_LISTED)}.` : `${listOf(named, MAX_LISTED, false)}.`;
}

/**
 * A heading that is one identifier, past a marker ("◆ KEY_A", "accept", "valueOf", "size()"), not
 * a word of prose ("Macros", "Installation").
 */
function namesMember(heading: string): boolean {
  const name = heading.replace(LEADING_MARKS, '');
  if (name === '' || /\s/.test(name)) return false;
  return /[_(\d]/.test(name) || /^\p{Ll}/u.test(name) || /\p{Ll}\p{Lu}/u.test(name);
}

const LEADING_MARKS = /^[^\p{L}_]+/u;

/** A link text of fewer than two letters ("<<", "?", an index's "F") names no part of a page: it moves through it. */
function namesSomething(text: string): boolean {
  let letters = 0;
  for (const char of text) if (LETTER.test(char) && ++letters >= 2) return true;
  return false;
}

const LETTER = /\p{L}/u;

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
