/**
 * One page read now, outside a crawl (a fresh markdown export, an MCP `get_page` of a page whose
 * markdown was not stored): robots.txt first (remembered per origin), the host's pace, the
 * crawler's address guard and size and time bounds, then the same extraction a generation uses.
 */
import { resolveLimits, type CrawlOptions, type Fetcher, type RobotsCache } from '../crawl/index.ts';
import { crawlMessages } from '../errors.ts';
import { extractPage, pageText, readPageFacts } from '../llms-txt/index.ts';

export interface LivePageDeps {
  crawl: CrawlOptions;
  robots: RobotsCache;
}

/** The page's markdown, or why it could not be read. Network failures are answered as reasons, never thrown. */
export type LivePage = { markdown: string; title: string } | { refused: string };

export async function readPageLive(deps: LivePageDeps, fetcher: Fetcher, url: string, signal?: AbortSignal): Promise<LivePage> {
  try {
    const { robots } = await deps.robots.rulesFor(url, fetcher, signal);
    if (!robots.isAllowed(url)) return { refused: crawlMessages.robotsDisallowed };
    fetcher.pace(Math.max(resolveLimits(deps.crawl.limits).delayMs, robots.crawlDelayMs));
    const response = await fetcher.fetch(url, { signal });
    if (response.status !== 200) return { refused: crawlMessages.pageStatus(response.status) };
    const html = response.text();
    // The title from the page's facts, as a generation titles it; the DOM pass writes the markdown.
    return { markdown: extractPage(html, url).markdown, title: pageText(readPageFacts(html, url)).title };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}
