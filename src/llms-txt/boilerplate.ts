// Recognizing descriptions that say nothing about the page they sit on.
import { compactKey, hashOf, hasTokens, NOT_ASCII, normalizeWhitespace, tokenize } from './text.ts';
import { LINK_LIST_SHARE, MIN_DESCRIPTION_CHARS, REPEATED_TEXT_ENOUGH_PAGES, REPEATED_TEXT_MIN_PAGES, REPEATED_TEXT_SHARE, SHORT_PLACEHOLDER_MAX_CHARS } from './tuning.ts';
import type { Phrases } from './phrases.ts';

// Unrendered template placeholders ("{{ page.description }}", "${description}", "<%= summary %>").
const TEMPLATE_DELIMITERS: ReadonlyArray<readonly [string, string]> = [['{{', '}}'], ['${', '}'], ['<%', '%>']];

/**
 * An opener with its closer after it, found with two searches: the regular expression this was
 * (/\{\{.*\}\}/) read to the end of the text from every opener, quadratic in a text of openers.
 * The text is one line (whitespace normalized), as `.` required.
 */
function hasTemplatePlaceholder(text: string): boolean {
  return TEMPLATE_DELIMITERS.some(([opener, closer]) => {
    const open = text.indexOf(opener);
    return open !== -1 && text.indexOf(closer, open + opener.length) !== -1;
  });
}

// What a template writes where a value is missing ("undefined", "null", "N/A"), in any language.
const MISSING_VALUE = /^(?:null|undefined|n\/a)\.?$/i;

// Words of "lorem ipsum" filler text, which also comes without the words "lorem ipsum".
const FILLER_WORDS = /\b(?:lorem|ipsum|consectetur|adipisicing|adipiscing|eiusmod|incididunt|aliqua|exercitation|ullamco|laboris|aliquip|commodo|consequat|reprehenderit|voluptate|cillum|pariatur|occaecat|cupidatat|proident|deserunt|perspiciatis|voluptatem|accusantium|doloremque|laudantium|veritatis|architecto|explicabo|aspernatur|consequuntur|nesciunt|quisquam|adipisci|molestias|mollitia|obcaecati|praesentium|recusandae|cupiditate|doloribus|officiis|voluptates|voluptatibus|necessitatibus|blanditiis|repellendus|repudiandae)\b/gi;

/** Placeholder Latin ("Lorem ipsum dolor sit amet…", "Tempor incididunt ut labore…"). */
export function isFillerText(text: string): boolean {
  const found = new Set((text.match(FILLER_WORDS) ?? []).map((word) => word.toLowerCase()));
  return found.size >= 2;
}

/**
 * A page of placeholder text only (a theme's demo page, a stub): every paragraph it has is filler
 * and so is its meta description, if any. A frameset is a shell around other documents (its
 * "Frame Alert" is for browsers without frames). Neither has anything to list.
 */
export function isPlaceholderPage(page: { paragraphs: readonly string[]; metaDescription: string | null; frameset?: boolean }): boolean {
  if (page.frameset) return true;
  const texts = [...page.paragraphs, ...(page.metaDescription ? [page.metaDescription] : [])];
  return texts.length > 0 && texts.every(isFillerText);
}

/**
 * True when a description is missing, too short, repeats the title, is a known placeholder
 * ("Welcome to our website", "Default description", lorem ipsum), or has hardly any words.
 */
export function isBoilerplateDescription(description: string | null | undefined, phrases: Phrases, title?: string | null, minChars = MIN_DESCRIPTION_CHARS): boolean {
  const text = normalizeWhitespace(description);
  if (text.length < minChars) return true;
  const words = tokenize(text);
  if (words.length < 3 && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(text)) {
    return true;
  }
  if (hasTemplatePlaceholder(text) || isFillerText(text) || MISSING_VALUE.test(text)) return true;
  // An alphabet bar ("A | B | C …") or other runs of single characters.
  if (words.filter((word) => word.length === 1).length > words.length / 2) return true;
  if (text.length <= SHORT_PLACEHOLDER_MAX_CHARS && phrases.shortPlaceholder.test(text)) return true;
  if (/^(?:https?:\/\/|www\.)\S+$/i.test(text)) return true;
  if (title) {
    const key = compactKey(text);
    const titleKey = compactKey(title);
    if (key === titleKey) return true;
    // The title plus a word or two ("Install Acme. Acme docs") says nothing more.
    if (titleKey.length > 0 && key.includes(titleKey) && words.length - tokenize(title).length <= 2) return true;
  }
  return false;
}

/** How many pages must share a text for it to count as repeated (see findRepeatedDescriptions). */
export interface RepetitionOptions {
  minShare?: number;
  minPages?: number;
  enoughPages?: number;
}

/**
 * Builds a test for texts (descriptions, titles, paragraphs, lines) that too many of a site's pages
 * share: a site-wide default rather than a description of the page. One entry per page: a text, or
 * all the texts of that page (each counted once for it). A text counts as repeated when at least 2
 * pages share it and at least 20 % of the pages (never more than 5 pages are needed).
 */
export function findRepeatedDescriptions(
  pages: Iterable<string | readonly string[] | null | undefined>,
  options: RepetitionOptions = {},
): (text: string | null | undefined) => boolean {
  return repeatedAmong(
    (function* () {
      for (const page of pages) yield textKeys(page);
    })(),
    options,
  );
}

/** A page's texts (one, or all of them) as the keys findRepeatedDescriptions counts. */
export function textKeys(page: string | readonly string[] | null | undefined): number[] {
  return (typeof page === 'string' || !page ? [page ?? ''] : page).map(hashedKey).filter((key) => key !== null);
}

/** findRepeatedDescriptions's test from each page's keys (see textKeys), read beforehand. */
export function repeatedAmong(pageKeys: Iterable<Iterable<number>>, options: RepetitionOptions = {}): (text: string | null | undefined) => boolean {
  const repeated = repeatedKeys(pageKeys, options);
  return (text) => {
    const key = hashedKey(text ?? '');
    return key !== null && repeated.has(key);
  };
}

/**
 * The keys (hashedKey) that too many pages share, from each page's keys (a key counted once per
 * page). Counted by a hash of the compact key: a large site's llms-full.txt has some 200,000
 * distinct lines, and keeping each as a key held tens of megabytes while it rendered.
 */
export function repeatedKeys(pages: Iterable<Iterable<number>>, options: RepetitionOptions = {}): Set<number> {
  const minShare = options.minShare ?? REPEATED_TEXT_SHARE;
  const minPages = options.minPages ?? REPEATED_TEXT_MIN_PAGES;
  const enoughPages = options.enoughPages ?? REPEATED_TEXT_ENOUGH_PAGES;
  const counts = new Map<number, number>();
  let total = 0;
  for (const page of pages) {
    total++;
    for (const key of new Set(page)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const threshold = Math.max(minPages, Math.min(enoughPages, Math.ceil(total * minShare)));
  return new Set([...counts].filter(([, count]) => count >= threshold).map(([key]) => key));
}

/**
 * A 53-bit hash (two 32-bit FNV-1a lanes) of the text's compact key, null when the key is empty.
 * Two of a site's 200,000 distinct lines share a hash about once in 500,000 sites, and a shared
 * hash only matters if it lifts a line's count to the threshold.
 */
export function hashedKey(text: string): number | null {
  const hash = hashOf(text, true);
  return hash === NOT_ASCII ? hashOf(compactKey(text), false) : hash;
}

/** A copyright sign, in any language (the words of a notice are the page language's, see Phrases). */
const COPYRIGHT_SIGN = /^(?:©|\(c\))/i;

/**
 * A paragraph with a real sentence in it: not a byline, a date, a legal notice (in the words of the
 * page's language), a list of links (`linkChars`: how much of its text is link text) or a placeholder.
 */
export function isMeaningfulParagraph(text: string, linkChars: number, phrases: Phrases): boolean {
  if (text.length < 40 || !hasTokens(text, 6) || phrases.byline.test(text) || COPYRIGHT_SIGN.test(text) || phrases.legalNotice.test(text)) return false;
  return linkChars <= text.length * LINK_LIST_SHARE && !isBoilerplateDescription(text, phrases);
}

/**
 * A question heading below the page's first heading ("Why does Python use indentation?" in a
 * FAQ): the paragraphs under it, and past it, answer questions; they do not describe the page.
 * The page's own title may be a question ("1. What Is PostgreSQL?"): it is the first heading.
 */
export function isAnsweredQuestion(heading: string, level: number, headingsBefore: number): boolean {
  return headingsBefore > 0 && level >= 2 && QUESTION.test(heading);
}

/**
 * A manual page's Synopsis section ("$GIT_DIR/hooks/*", "sphinx-build [options] <sourcedir>"): its
 * paragraphs are usage lines, not what the page is about.
 */
export function isSynopsisHeading(heading: string): boolean {
  return /^synopsis$/i.test(heading);
}

/** Ends in a question mark, perhaps followed by an aside, a closing quote or a permalink's "¶". */
export const QUESTION = /\?(?:\s*\([^()]*\))?[^\p{L}\p{N}]*$/u;

/**
 * A quotation standing alone, perhaps with its source after a dash (an epigraph: "“It is better to
 * be approximately right than exactly wrong.” -- Old adage"), or its source alone after the dash
 * that opens it ("— Ann Smith (paraphrased)"): someone else's words, not what the page or the site is.
 */
export const QUOTATION = /^(?:["“«„][^"“”«»„]+["”»“]\s*(?:(?:--|[—–-])\s*[^"“”«»„\s][^"“”«»„]*)?|(?:--|—)\s*[^\s-].*)$/u;

/** A name opening a declaration: "getWidget(", "Widget<T>", "Handler: (event) => void". */
const DECLARED_NAME = /^([\p{L}_$][\w$.]*)(?:[(<]|:\s*[^\s\p{L}\p{N}])/u;

/**
 * A paragraph that declares the member its page is titled by ("getWidget(id): Widget | undefined"
 * on "Function: getWidget()"): an API page's signature, in code's words, not a sentence about it.
 */
export function declaresItsTitle(text: string, title: string): boolean {
  const name = DECLARED_NAME.exec(text)?.[1];
  return name !== undefined && new RegExp(`(?:^|[^\\w$])${name.replace(/[$.]/g, '\\$&')}(?:$|[^\\w$])`).test(title);
}
