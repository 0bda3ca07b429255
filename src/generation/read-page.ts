// The modules themselves, not their folders' index: a worker thread imports this file, and each
// module it loads (the crawler's fetcher, the model describer, ...) would take memory in every thread.
import { scanLinks, type ExtractOptions as LinkOptions, type PageLinks } from '../crawl/links.ts';
import { outlinePage, type PageOutline } from '../llms-txt/outline.ts';

/** What the generation pipeline reads from each page the crawler fetches. */
export interface LinksAndOutline {
  /** for the crawler */
  links: PageLinks;
  /** for the generator */
  outline: PageOutline;
}

/**
 * A crawled page's links and outline in one pass of the tokenizer. `copy`: see OutlineOptions
 * (false in a worker thread, whose answer is copied on its way out).
 */
export function readLinksAndOutline(html: string, url: string, linkOptions: LinkOptions, copy = true): LinksAndOutline {
  const scan = scanLinks(html, linkOptions);
  const outline = outlinePage(html, url, { alsoTokens: scan.tokens, copy });
  return { links: scan.links(url), outline };
}
