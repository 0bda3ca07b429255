/**
 * The pages discovery listed that the link crawl did not hand over (only a sitemap lists them, or
 * no crawl ran), fetched after it as the crawler's visits: in the job's pool (page-visits.ts),
 * allowed by robots.txt and in the job's scope, a redirect read only when its target is too. Their
 * links are not followed. The caller's signal bounds them, not discovery's time budget: they are
 * the pages the caller asked for, found within it.
 */
import { isInScope, type Scope } from './normalize-url.ts';
import type { FetchResponse, ResponseBody } from './fetcher.ts';
import type { PageVisits } from './page-visits.ts';
import type { Robots } from './robots.ts';

export interface ListedUrl {
  url: string;
  lastModified: string | null;
}

/** A listed page as fetched: its body is decoded by the first call of `text()`. */
export interface ListedPage extends ResponseBody {
  url: string;
  /** Where the HTML was fetched from (after redirects). */
  finalUrl: string;
  lastModified: string | null;
}

/** What the caller does with the listed pages (see DiscoverOptions.listed). */
export interface ListedPageHandlers {
  /** Every URL discovery listed, and how many of their pages the crawl handed over, before the others are fetched. */
  onListed?: (urls: ListedUrl[], handedOver: number) => void;
  onPage: (page: ListedPage) => Promise<void>;
  /** A listed URL that is not an HTML page to read, with the reason. */
  onMissed: (url: string, reason: string) => void;
}

export interface ListedVisit {
  visits: PageVisits;
  robots: Robots;
  scope: Scope;
  signal: AbortSignal | undefined;
  handlers: ListedPageHandlers;
}

/** Fetches each listed URL not yet handed over, in the order listed, and hands it over or reports why not. */
export async function fetchListedPages(urls: ListedUrl[], handedOver: ReadonlySet<string>, visit: ListedVisit): Promise<void> {
  visit.handlers.onListed?.(urls, handedOver.size);
  const toFetch = urls.filter((entry) => !handedOver.has(entry.url));
  await Promise.all(toFetch.map((entry) => visit.visits.visit(() => visitListed(entry, visit))));
}

async function visitListed(entry: ListedUrl, { visits, robots, scope, signal, handlers }: ListedVisit): Promise<void> {
  if (signal?.aborted) return;
  const notAllowed = reasonNotToFetch(entry.url, robots, scope);
  if (notAllowed) return handlers.onMissed(entry.url, notAllowed);
  try {
    const response = await visits.fetch(entry.url, signal);
    const notRead = reasonNotToRead(response, robots, scope);
    if (notRead) return handlers.onMissed(entry.url, notRead);
    const { url: finalUrl, contentType, body, text, bytesAreUtf8Text } = response;
    await handlers.onPage({ url: entry.url, finalUrl, lastModified: entry.lastModified, contentType, body, text, bytesAreUtf8Text });
  } catch (error) {
    handlers.onMissed(entry.url, error instanceof Error ? error.message : String(error));
  }
}

function reasonNotToFetch(url: string, robots: Robots, scope: Scope): string | null {
  if (!isInScope(url, scope)) return 'outside the site';
  return robots.isAllowed(url) ? null : 'disallowed by robots.txt';
}

function reasonNotToRead(response: FetchResponse, robots: Robots, scope: Scope): string | null {
  if (response.status !== 200) return `HTTP ${response.status}`;
  const leftFor = reasonNotToFetch(response.url, robots, scope);
  if (leftFor) return `redirected to ${response.url}, ${leftFor}`;
  return response.bodySkipped || !/html/i.test(response.contentType ?? '') ? `not HTML (${response.contentType})` : null;
}
