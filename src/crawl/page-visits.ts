/**
 * The one way a job fetches its pages: the pages links reach (crawler.ts) and the pages only a
 * sitemap listed (listed-pages.ts) are visits in one pool capped per host (p-limit), in the order
 * asked, through the job's fetcher (its address guard, size limits and pace), a body downloaded
 * only when it is HTML.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import type { Fetcher, FetchResponse } from './fetcher.ts';

export function isHtmlContentType(contentType: string | null): boolean {
  if (contentType === null) return true; // unknown: look at the body
  const type = contentType.split(';', 1)[0].trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}

export class PageVisits {
  readonly fetcher: Fetcher;
  private readonly limit: LimitFunction;

  constructor(fetcher: Fetcher, concurrencyPerHost: number) {
    this.fetcher = fetcher;
    this.limit = pLimit(Math.max(1, concurrencyPerHost));
  }

  /** Runs a visit when the pool has room, after the visits asked before it. */
  visit<T>(run: () => Promise<T> | T): Promise<T> {
    return this.limit(run);
  }

  /** A page's response; the body only when the Content-Type says HTML (or says nothing). */
  fetch(url: string, signal?: AbortSignal): Promise<FetchResponse> {
    return this.fetcher.fetch(url, { signal, wantBody: isHtmlContentType });
  }
}
