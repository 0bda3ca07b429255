// Source listings: a generator's hyperlinked copy of a source file ("Source code for acme.shelf"),
// whose text is code. The pages documenting that code say it better (they are secondary pages); what
// the listing says of itself is its file's header comment ("""Shelf builders.""", /** Shelf I/O. */).
import type { PageFacts } from './page-facts.ts';
import { SOURCE_LISTING_SHARE } from './tuning.ts';

/**
 * A page whose text is code with no heading of its own: a page of code under headings (a licence's
 * text, a worked example) is content.
 */
export function isSourceListing(outline: PageFacts): boolean {
  return outline.ownHeadings === 0 && outline.codeChars > 0 && outline.codeChars >= SOURCE_LISTING_SHARE * outline.textChars;
}

// A comment: its opener (a docstring's quotes, a block comment's "/*") and closer, or a line comment's prefix.
const BLOCK_COMMENTS: ReadonlyArray<readonly [string, string]> = [
  ['"""', '"""'],
  ["'''", "'''"],
  ['/*', '*/'],
  ['{-', '-}'],
  ['<!--', '-->'],
];
const LINE_COMMENT = /^(?:#(?![!\w])|\/\/|--|;+|%)[/!*]?/;
const PLAIN_WORD = /^\p{Ll}+[,.;:!?]?$/u;
// Not prose: an editor's or a version system's line ("-*- coding: utf-8 -*-", "$Id: x.py 9045 $"), a
// header field ("Author: …", ":copyright: …"), an underline.
const NOT_PROSE = /-\*-|\$\w+:|^:\w+:|^[\p{Lu}][\w ]{0,20}:\s/u;
const UNDERLINE = /^[-=~^*#+_.]+$/;

/** The first paragraph of prose in the comments that open a file's code, or null. */
export function listingComment(code: string): string | null {
  for (const paragraph of commentParagraphs(code)) {
    const words = paragraph.split(/\s+/);
    if (words.length >= 2 && words.some((word) => PLAIN_WORD.test(word)) && !NOT_PROSE.test(paragraph)) return paragraph;
  }
  return null;
}

/** The paragraphs of the comments before the code's first statement (blank comment lines part them). */
function commentParagraphs(code: string): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) paragraphs.push(current.join(' '));
    current = [];
  };
  let closer: string | null = null;
  for (const raw of code.split('\n')) {
    let line = raw.trim();
    if (closer === null) {
      const block = BLOCK_COMMENTS.find(([opener]) => line.startsWith(opener));
      const prefix = block ? null : LINE_COMMENT.exec(line);
      if (block) [closer, line] = [block[1], line.slice(block[0].length)];
      else if (prefix) line = line.slice(prefix[0].length);
      else if (line.startsWith('#!')) continue;
      else if (line !== '') break;
    }
    if (closer !== null) {
      const end = line.indexOf(closer);
      if (end >= 0) [closer, line] = [null, line.slice(0, end)];
    }
    const text = line.replace(/^\*+\s?/, '').trim();
    if (text === '' || UNDERLINE.test(text)) flush();
    else current.push(text);
    if (closer === null && !LINE_COMMENT.test(raw.trim())) flush();
  }
  flush();
  return paragraphs;
}

/** A paragraph of prose has at least this many words… */
const MIN_PROSE_WORDS = 6;
/** …at least this share of them plain lower-case words… */
const MIN_PLAIN_WORD_SHARE = 0.5;
/** …and a sentence's end. */
const SENTENCE_END = /[.!?](?:\s|$)/;
/** A text up to its last sentence's end. */
const WHOLE_SENTENCES = /^[\s\S]*[.!?](?=\s)/;
/** Columns laid out in the text (a table, a tag beside a heading): not a paragraph. */
const ALIGNED_COLUMNS = /\S(?: *\t[ \t]*| {3,})\S/;
/** A list's item ("2. changing the buffer", "- one"): a line of a list, not of a paragraph. */
const LIST_ITEM = /^(?:\d+[.)]|[-*•])\s/;

/**
 * The paragraphs of prose in a page written as preformatted text (a plain-text manual converted to
 * HTML, each page one `<pre>`): blocks between blank lines whose lines are flowing sentences, not
 * a header line, a title, a table or an example.
 */
export function preformattedProse(text: string, { cut }: { cut: boolean }): string[] {
  const paragraphs: string[] = [];
  const blocks = text.split(/\n[ \t]*\n/);
  // The text's opening cut at a length: its last block is read up to its last sentence's end.
  if (cut) blocks.push(WHOLE_SENTENCES.exec(blocks.pop()!)?.[0] ?? '');
  for (const block of blocks) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    if (lines.length === 0 || lines.some((line, index) => /^\s/.test(line) || ALIGNED_COLUMNS.test(line) || (index > 0 && LIST_ITEM.test(line)))) continue;
    const paragraph = lines.map((line) => line.trim()).join(' ');
    const words = paragraph.split(/\s+/);
    const plain = words.filter((word) => PLAIN_WORD.test(word)).length;
    if (words.length >= MIN_PROSE_WORDS && plain >= MIN_PLAIN_WORD_SHARE * words.length && SENTENCE_END.test(paragraph) && !NOT_PROSE.test(paragraph)) paragraphs.push(paragraph);
  }
  return paragraphs;
}
