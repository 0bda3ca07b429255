// Small text helpers shared by extraction, description and rendering.

/**
 * Collapses every run of whitespace (including newlines) to one space and trims. Zero-width
 * spaces go: themes put one in a heading's permalink anchor ("Installation \u200b").
 */
export function normalizeWhitespace(text: string | null | undefined): string {
  if (!text) return '';
  // Most texts (a link's, a title) are already so; they are returned without a copy.
  return NOT_NORMAL_WHITESPACE.test(text) ? text.replace(ZERO_WIDTH, '').replace(/\s+/g, ' ').trim() : text;
}

const NOT_NORMAL_WHITESPACE = /^\s|\s$|\s\s|[^\S ]|[\u200b\u2060\ufeff]/;
const ZERO_WIDTH = /[\u200b\u2060\ufeff]/g;

/**
 * Longest candidate text (a title, heading, paragraph, link text, meta value) the rules read: far
 * more than any of them uses, and a bound on what a crafted page makes each rule read.
 */
export const MAX_CANDIDATE_CHARS = 4096;

/** A candidate text as the rules see it: whitespace collapsed, at most MAX_CANDIDATE_CHARS (not cutting a character in two). */
export function candidateText(text: string | null | undefined): string {
  const normal = normalizeWhitespace(text);
  if (normal.length <= MAX_CANDIDATE_CHARS) return normal;
  const end = isHighSurrogate(normal.charCodeAt(MAX_CANDIDATE_CHARS - 1)) ? MAX_CANDIDATE_CHARS - 1 : MAX_CANDIDATE_CHARS;
  return normal.slice(0, end).trimEnd();
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isSurrogate = (code: number) => code >= 0xd800 && code <= 0xdfff;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ',
  ndash: '–', mdash: '—', hellip: '…', laquo: '«', raquo: '»',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', middot: '·', bull: '•', copy: '©', reg: '®', trade: '™',
};

/**
 * Decodes the HTML entities left in attribute values that sites escaped twice
 * (`content="Tom &amp;amp; Jerry"`), which the HTML parser decodes only once.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return String.fromCodePoint(valid ? code : 0xfffd);
    }
    return NAMED_ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

// Abbreviations after which a period does not end a sentence.
const ABBREVIATIONS = new Set([
  'e.g', 'i.e', 'etc', 'vs', 'cf', 'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'no', 'fig', 'approx',
  'inc', 'ltd', 'co', 'corp', 'dept', 'est', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept',
  'oct', 'nov', 'dec', 'u.s', 'u.k', 'p', 'pp', 'vol', 'ed', 'al',
]);

/** Splits prose into sentences (Latin punctuation and CJK full stops), keeping abbreviations intact. */
export function splitSentences(text: string): string[] {
  const source = normalizeWhitespace(text);
  if (!source) return [];
  const pieces = source.split(/(?<=[.!?…]["'”’)\]]*)\s+(?=["'“‘(\[¿¡]?[\p{Lu}\p{N}])|(?<=[。！？])/u);
  const sentences: string[] = [];
  for (const piece of pieces) {
    const previous = sentences[sentences.length - 1];
    if (previous !== undefined && endsWithAbbreviation(previous)) {
      sentences[sentences.length - 1] = `${previous} ${piece}`;
    } else {
      sentences.push(piece);
    }
  }
  return sentences.map((s) => s.trim()).filter(Boolean);
}

function endsWithAbbreviation(sentence: string): boolean {
  const match = /(?:^|\s)\(?([\p{L}.]+)\.$/u.exec(sentence);
  if (!match) return false;
  const word = match[1].toLowerCase();
  // A single capital letter followed by a period is an initial ("J. R. R. Tolkien").
  return ABBREVIATIONS.has(word) || /^\p{Lu}$/u.test(match[1]);
}

/** Cuts text at the last word boundary before `max` characters and marks the cut with an ellipsis. */
export function truncateAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max - 1);
  const lastSpace = slice.lastIndexOf(' ');
  const cut = lastSpace > max * 0.6 ? slice.slice(0, lastSpace) : slice;
  return `${trimEndOf(cut, ',;:–—-', { orSpace: true })}…`;
}

/**
 * Shortens prose to one or two whole sentences that fit in `max` characters; a first sentence
 * longer than that is cut at a word boundary.
 */
export function summarizeToSentences(text: string, max = 200): string {
  const clean = withoutBuildStamps(normalizeWhitespace(text));
  if (clean.length <= max) return clean;
  const sentences = splitSentences(clean);
  let result = '';
  for (const sentence of sentences.slice(0, 2)) {
    const candidate = result ? `${result} ${sentence}` : sentence;
    if (candidate.length > max) break;
    result = candidate;
  }
  return result || truncateAtWord(sentences[0] ?? clean, max);
}

/**
 * "This Debian Reference (version 2.100) (2023-02-04 11:59:01 UTC) is intended to…": a date with
 * its time of day in parentheses is when the page was built, not what it says. A date alone
 * ("since version 3.0.0 (2004-06-18)") is kept.
 */
export function withoutBuildStamps(text: string): string {
  return text.includes(':') ? text.replace(BUILD_STAMP, '') : text;
}

const BUILD_STAMP = /\s*\(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:UTC|GMT|Z|[+-]\d{2}:?\d{2})?\)/g;

const WORD_TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Lowercased word tokens (letters and digits, any script). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(WORD_TOKEN) ?? [];
}

/** Whether the text has at least `count` of tokenize's tokens, counted without collecting them. */
export function hasTokens(text: string, count: number): boolean {
  const lower = text.toLowerCase();
  WORD_TOKEN.lastIndex = 0;
  for (let found = 0; found < count; found++) if (!WORD_TOKEN.exec(lower)) return false;
  return true;
}

/** Dice coefficient of the two texts' token multisets: 1 for the same words, 0 for none shared. */
export function tokenOverlap(a: string, b: string): number {
  const left = tokenize(a);
  const right = tokenize(b);
  if (left.length === 0 && right.length === 0) return 1;
  if (left.length === 0 || right.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const token of left) counts.set(token, (counts.get(token) ?? 0) + 1);
  let shared = 0;
  for (const token of right) {
    const count = counts.get(token) ?? 0;
    if (count > 0) {
      shared++;
      counts.set(token, count - 1);
    }
  }
  return (2 * shared) / (left.length + right.length);
}

/** Lowercase letters and digits only: "GitHub Docs" and "github-docs" compare equal. */
export function compactKey(text: string): string {
  // An ASCII text's letters and digits, once lowercased, are a-z and 0-9: the plain expression
  // is several times faster than the Unicode-aware one, and most texts are ASCII.
  return text.toLowerCase().replace(NON_ASCII.test(text) ? NOT_LETTER_OR_DIGIT : NOT_ASCII_LETTER_OR_DIGIT, '');
}

const NON_ASCII = /[^\x00-\x7f]/;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;
const NOT_ASCII_LETTER_OR_DIGIT = /[^a-z0-9]+/g;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/**
 * `compactKey(text).slice(0, chars)`, from as little of the text as that takes: a paragraph's
 * opening without lowercasing the whole paragraph. The text is cut at a space, where lowercasing
 * stops looking ahead (a final sigma), so the cut's key begins as the whole text's does.
 */
export function compactKeyPrefix(text: string, chars: number): string {
  for (let from = 2 * chars; ; from *= 2) {
    const cut = from < text.length ? text.indexOf(' ', from) : -1;
    if (cut < 0) return compactKey(text).slice(0, chars);
    const key = compactKey(text.slice(0, cut));
    if (key.length >= chars) return key.slice(0, chars);
  }
}

const NUMBERING = /^(?:(?:part|chapter|appendix|section)\s+)?(?:[IVXLC]+|[A-Z]|\d+)(?:\.\d+)*\.\s+(?=\S)/i;

/** "Part II. The SQL Language" → "The SQL Language"; "E.21. Release 15" → "Release 15". */
export function withoutNumbering(title: string): string {
  return title.replace(NUMBERING, '');
}

/**
 * "A, B and C"; past `max` items, the first ones and ", and more". Not in English: "A, B, C",
 * and "A, B, …" (no English word is added to a site in another language).
 */
export function listOf(items: readonly string[], max = Infinity, english = true): string {
  const shown = items.slice(0, max);
  if (!english) return `${shown.join(', ')}${items.length > shown.length ? ', …' : ''}`;
  const list = shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
  return items.length > shown.length ? `${list}, and more` : list;
}

/**
 * Replaces each markdown link `[text](target)` (or image, with `image`) as /\[([^\]]*)\]\([^)]*\)/g
 * would (/\[([^\]]+)\]…/ with `nonEmpty`), in one pass: that expression read to the next `]` from
 * every `[`, quadratic in a text of `[` without one.
 */
export function replaceMarkdownLinks(text: string, replace: (linkText: string) => string, { image = false, nonEmpty = false } = {}): string {
  const opener = image ? '![' : '[';
  let result = '';
  let copied = 0;
  let from = 0;
  for (;;) {
    const open = text.indexOf(opener, from);
    if (open === -1) break;
    const textStart = open + opener.length;
    const close = text.indexOf(']', textStart);
    if (close === -1) break;
    // Every opener before this `]` ends its text there too, and fails as this one does.
    if (text[close + 1] !== '(' || (nonEmpty && close === textStart)) {
      from = close + 1;
      continue;
    }
    const end = text.indexOf(')', close + 2);
    if (end === -1) break;
    result += text.slice(copied, open) + replace(text.slice(textStart, close));
    copied = from = end + 1;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/**
 * The text without the characters of `chars` (or whitespace, with `orSpace`) at its end, as
 * /[…]+$/ would cut them: that expression reads a run of them to its end from each of them.
 */
export function trimEndOf(text: string, chars: string, { orSpace = false } = {}): string {
  let end = text.length;
  while (end > 0 && (chars.includes(text[end - 1]) || (orSpace && /\s/.test(text[end - 1])))) end--;
  return end === text.length ? text : text.slice(0, end);
}
/** A text that writes out a web address ("… can be found on-line at https://…") points elsewhere. */
export function writesOutAddress(text: string): boolean {
  return WRITTEN_OUT_ADDRESS.test(text);
}

const WRITTEN_OUT_ADDRESS = /\bhttps?:\/\/\S/i;

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** hashOf's answer for a text read `asAsciiKey` that is not ASCII. */
export const NOT_ASCII = -1;

/**
 * A 53-bit hash of a text (two 32-bit FNV-1a lanes over its characters), null for an empty text.
 * `asAsciiKey`: an ASCII text is read as its compact key (its letters and digits, lowercased)
 * without building it, as a 1,000-page llms-full.txt has some 200,000 lines, each hashed twice,
 * and compactKey's Unicode-aware regular expression was most of that time. Other characters
 * that are neither letters nor digits (quotes, dashes, no-break spaces) are left out as
 * compactKey leaves them out; a text with a letter or digit beyond ASCII (or any character
 * outside the Basic Multilingual Plane) answers NOT_ASCII.
 */
export function hashOf(text: string, asAsciiKey = false): number | null {
  let left = 0x811c9dc5;
  let right = 0x050c5d1f;
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (asAsciiKey) {
      if (code >= 0x80) {
        if (isSurrogate(code) || LETTER_OR_DIGIT.test(String.fromCharCode(code))) return NOT_ASCII;
        continue;
      }
      if (code >= 0x41 && code <= 0x5a) code |= 0x20;
      else if (!((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39))) continue;
    }
    left = Math.imul(left ^ code, 0x01000193);
    right = Math.imul(right ^ code, 0x5bd1e995);
    length++;
  }
  return length === 0 ? null : (left >>> 0) * 2 ** 21 + ((right >>> 0) >>> 11);
}
