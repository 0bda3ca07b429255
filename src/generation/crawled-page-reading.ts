// The modules themselves, not their folders' index: a worker thread imports this file, and each
// module it loads (the crawler's fetcher, the model describer, ...) would take memory in every thread.
import { scanLinks, type ExtractOptions as LinkOptions, type PageLinks } from '../crawl/links.ts';
import { readHtml } from '../llms-txt/reading.ts';
import type { PageReading } from '../llms-txt/types.ts';

/** What the generation pipeline reads from each page the crawler fetches. */
export interface CrawledPageReading extends PageReading {
  /** for the crawler */
  links: PageLinks;
}

/**
 * A crawled page's links (for the crawler), outline and hash (for the generator) in one pass of
 * the tokenizer. `copy`: see FactsOptions (false in a worker thread, whose answer is copied on
 * its way out); `utf8`: see readHtml.
 */
export function readCrawledPage(html: string, url: string, linkOptions: LinkOptions, { copy = true, utf8 }: { copy?: boolean; utf8?: Uint8Array } = {}): CrawledPageReading {
  const scan = scanLinks(html, linkOptions);
  // The outline's pass tokenizes the page, for the link scan too: the links are there after it.
  const reading = readHtml(html, url, { alsoTokens: scan.tokens, copy }, utf8);
  return { links: scan.links(url), ...reading };
}
