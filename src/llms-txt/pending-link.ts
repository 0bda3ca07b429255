// A link the parser is inside of, and what the page around it says of it when it opens: whether
// it follows text in its list item (prose, not an entry), whether it is a "previous/next" link.
import { resolveUrl } from '../crawl/normalize-url.ts';
import type { Phrases } from './phrases.ts';

export interface PendingLink {
  href: string;
  parts: string[];
  afterText: boolean;
  /** A "previous"/"next" link: the reading order's neighbour, not a contents entry. */
  sequence: boolean;
  /** The text being collected when the link opened, and how far (see dropNamelessEnd). */
  text: { parts: number; linkChars: number } | null;
}

// rel="prev"/"next": the reading order's neighbours. Their titles (Sphinx's "Previous topic", which
// some themes repeat inside a navigation menu) and texts ("« previous | up | next »", Django's
// theme) are in the page's language (Phrases.sequenceTitle, sequenceText).
const SEQUENCE_REL = /(?:^|\s)(?:prev|previous|next)(?:$|\s)/i;

/** Nothing, or a label of at most 40 characters ending in ":", says nothing about the link after it. */
const MAX_LABEL_CHARS = 40;
/** Past this much text (white space included), an item has said something. */
export const MAX_ITEM_CHARS = 400;
const SEPARATORS = /[\s|·•,/–—-]+/g;

const WORD_CHAR = /[^\s|·•,/–—-]/;

/** Whether a list item's texts so far say something, so that a link after them is prose. */
export function saysSomething(texts: readonly string[]): boolean {
  // Most texts between an item's tags are white space: no copy of them.
  let words = '';
  for (const text of texts) if (WORD_CHAR.test(text)) words += text;
  if (words === '') return false;
  words = words.slice(0, MAX_ITEM_CHARS).replace(SEPARATORS, ' ').trim();
  return words.length > MAX_LABEL_CHARS || !words.endsWith(':') || /[.!?;]/.test(words);
}

export function isSequenceLink(attrs: Record<string, string>, phrases: Phrases): boolean {
  return (attrs.rel !== undefined && SEQUENCE_REL.test(attrs.rel)) || (attrs.title !== undefined && phrases.sequenceTitle.test(attrs.title));
}

/** An http(s) link's absolute URL without its fragment; null for any other scheme or a malformed link. */
export function resolveHref(href: string, base: string): string | null {
  // Resolved as the crawler resolves the page's links, which finds the link resolved already.
  return resolveUrl(href.trim(), base, Infinity)?.written ?? null;
}
