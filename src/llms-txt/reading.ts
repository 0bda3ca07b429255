// What the generator reads of every page before it chooses which to list: its outline and its
// content's hash. Made where the page is parsed: in a worker thread (see the generation's page
// pool), which imports this module alone, or by the generator itself.
import { createHash } from 'node:crypto';
import { readPageFacts, type FactsOptions } from './page-facts.ts';
import type { PageReading } from './types.ts';

/**
 * A page's identity by content: two URLs with the same body are one page; a changed hash is a
 * changed page. The HTML's UTF-8 bytes, when the page came as such, hash the same as its text.
 */
export function pageContentHash(html: string | Uint8Array): string {
  return createHash('sha1').update(html).digest('base64');
}

/** `utf8`: the page's bytes when they are the HTML's UTF-8 as they stand (see decodePage), hashed without encoding the text again. */
export function readHtml(html: string, url: string, options?: FactsOptions, utf8?: Uint8Array): PageReading {
  return { outline: readPageFacts(html, url, options), contentHash: pageContentHash(utf8 ?? html) };
}
