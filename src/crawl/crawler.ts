// Breadth-first link crawler over one site. Normalized URLs (each seen once per job) are
// visited by one pool with a cap (p-limit), in the order found, sharing one keep-alive
// fetcher; a handler per page reports it (unless noindex or a canonical duplicate) and
// queues its in-scope links.
import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import { FetchError, type Fetcher, type FetchResponse, type ResponseBody } from './fetcher.ts';
import { extractLinks, headerRobotsDirectives, type ExtractOptions as LinkOptions, type PageLinks } from './links.ts';
import { DEFAULT_CRAWL_LIMITS, type CrawlLimits } from './limits.ts';
import { scopeMatcher, scopeOf, type Scope } from './normalize-url.ts';
import { pathMatcher, NO_PATH_FILTERS, type PathMatcher } from './path-filter.ts';
import type { Robots } from './robots.ts';

/** A listed page as fetched: its body is decoded by the first call of `text()`. */
export interface CrawledPage extends ResponseBody {
  /** The URL the page is reported as (its canonical URL when that is another in-scope URL). */
  url: string;
  /** Where the HTML was actually fetched from (after redirects). */
  finalUrl: string;
  status: number;
  title: string | null;
}

export interface CrawlSiteOptions {
  fetcher: Fetcher;
  /** Normalized start URL. */
  startUrl: string;
  /** The start page when the caller already fetched it (discover does, to check the site). */
  startResponse?: FetchResponse;
  scope: Scope;
  /** Which URLs may be fetched and which listed; all, by default. */
  paths?: PathMatcher;
  robots: Robots;
  /** Stop after reporting this many new URLs. */
  maxUrls: number;
  /** URLs found elsewhere (sitemaps): crawled for links but not reported again. */
  known?: ReadonlySet<string>;
  limits?: Partial<CrawlLimits>;
  signal?: AbortSignal;
  onUrl?: (url: string) => void;
  /** Called once per listed page (new or known), so its HTML needs no second fetch. */
  onPage?: (page: CrawledPage) => void | Promise<void>;
  /** Reads a fetched page's links: extractLinks, unless the caller parses its pages anyway (see ReadLinks). */
  readLinks?: ReadLinks;
}

/**
 * What the crawler reads from each page it fetches. The generator outlines every page, so it
 * reads the links in the same parse (see scanLinks) instead of having the page parsed twice, in a
 * worker thread when it has one (which then decodes the page's bytes, and the answer is a promise).
 */
export type ReadLinks = (page: ResponseBody, url: string, options: LinkOptions) => PageLinks | Promise<PageLinks>;

const readLinksOnEventLoop: ReadLinks = (page, url, options) => extractLinks(page.text(), url, options);

export type CrawlStop = 'done' | 'maxUrls' | 'fetchBudget' | 'aborted';

export interface CrawlResult {
  urls: string[];
  fetched: number;
  stoppedBy: CrawlStop;
  /** Set when the start page itself could not be fetched. */
  startError: FetchError | null;
  warnings: string[];
}

// Not pages: not worth a request just to learn the Content-Type.
const NON_PAGE_EXTENSION =
  /\.(?:png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|bz2|xz|tar|rar|7z|mp3|mp4|m4a|ogg|wav|webm|avi|mov|mkv|css|js|mjs|map|json|xml|rss|atom|woff2?|ttf|otf|eot|exe|msi|dmg|iso|bin|apk|deb|rpm|csv|xlsx?|docx?|pptx?|epub)$/i;
const MAX_ERROR_WARNINGS = 10;

export function isHtmlContentType(contentType: string | null): boolean {
  if (contentType === null) return true; // unknown: look at the body
  const type = contentType.split(';', 1)[0].trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}

export async function crawlSite(options: CrawlSiteOptions): Promise<CrawlResult> {
  const limits = { ...DEFAULT_CRAWL_LIMITS, ...options.limits };
  const { fetcher, robots } = options;
  let inScope = scopeMatcher(options.scope);
  const paths = options.paths ?? pathMatcher(NO_PATH_FILTERS);
  const known = options.known ?? new Set<string>();
  const maxFetches = Math.max(options.maxUrls * limits.fetchesPerUrl, options.maxUrls + 10);
  fetcher.pace(Math.max(limits.delayMs, robots.crawlDelayMs));

  // One pool with a cap: visits run in the order their URLs were found (breadth first).
  const limit = pLimit(Math.max(1, limits.concurrencyPerHost));
  // Links the start page gives wait for it: its redirect and links decide what is fetched next.
  let firstLinks: string[] | null = [];
  let outstanding = 0;
  let failure: unknown = null;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const seen = new Set<string>([options.startUrl]);
  const reported = new Set<string>();
  const urls: string[] = [];
  const warnings: string[] = [];
  let errors = 0;
  let fetched = 0;
  let stoppedBy: CrawlStop | null = null;
  let startError: FetchError | null = null;

  // Aborts requests in flight when the crawl stops early (maxUrls, caller's signal).
  const stopController = new AbortController();
  setMaxListeners(0, stopController.signal); // one listener per request in flight
  const stop = (reason: CrawlStop) => {
    stoppedBy ??= reason;
    stopController.abort();
  };
  const onOuterAbort = () => stop('aborted');
  if (options.signal?.aborted) stop('aborted');
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  /** A visit in the pool; one stopped crawl lets the visits waiting their turn go by unvisited. */
  function schedule(url: string) {
    outstanding++;
    limit(() => (stoppedBy === null ? visit(url) : undefined))
      .catch((error: unknown) => {
        failure ??= error;
        stop('aborted');
      })
      .finally(() => {
        if (--outstanding === 0) finish();
      });
  }

  /** True when the page is one the job lists (new, or known from a sitemap) for the first time. */
  function report(url: string): boolean {
    if (reported.has(url) || stoppedBy !== null || !paths.listed(url)) return false;
    reported.add(url);
    if (known.has(url)) return true;
    urls.push(url);
    options.onUrl?.(url);
    if (urls.length >= options.maxUrls) stop('maxUrls');
    return true;
  }

  /** `written`: the link as the page wrote it, when normalising changed it; robots.txt must allow both. */
  function enqueue(url: string, written?: string) {
    if (seen.has(url) || !inScope(url) || !paths.fetchable(url) || (firstLinks?.length ?? limit.pendingCount) >= limits.maxQueuedUrls) return;
    seen.add(url);
    const query = url.indexOf('?');
    if (NON_PAGE_EXTENSION.test(query === -1 ? url : url.slice(0, query)) || !robots.isAllowed(url)) return;
    if (written !== undefined && !robots.isAllowed(written)) return;
    if (firstLinks) firstLinks.push(url);
    else schedule(url);
  }

  async function visit(url: string, prefetched?: FetchResponse) {
    let res = prefetched;
    if (!res) {
      if (fetched >= maxFetches) return stop('fetchBudget');
      fetched++;
      try {
        res = await fetcher.fetch(url, { signal: stopController.signal, wantBody: isHtmlContentType });
      } catch (err) {
        if (stoppedBy !== null) return;
        const error = err instanceof FetchError ? err : new FetchError('CONNECTION', String(err), url);
        if (url === options.startUrl) startError = error;
        if (++errors <= MAX_ERROR_WARNINGS) warnings.push(error.message.includes(url) ? error.message : `${url}: ${error.message}`);
        return;
      }
    }
    if (stoppedBy !== null) return;
    const finalUrl = res.url;
    if (finalUrl !== url) {
      // A redirect: the target stands for this URL, unless it leaves the site or is
      // reached (or about to be) on its own.
      if (!inScope(finalUrl) || !robots.isAllowed(finalUrl) || (seen.has(finalUrl) && url !== options.startUrl)) return;
      seen.add(finalUrl);
    }
    if (res.status < 200 || res.status > 299) {
      if (url === options.startUrl) warnings.push(`Start page ${url} answered ${res.status}`);
      return;
    }
    if (res.bodySkipped || !isHtmlContentType(res.contentType)) return;
    if (res.contentType === null && !/^\s*</.test(res.text())) return;

    const page = await (options.readLinks ?? readLinksOnEventLoop)(res, finalUrl, { maxLinks: limits.maxLinksPerPage, maxUrlLength: limits.maxUrlLength });
    if (page.refresh !== null && page.refresh !== finalUrl && !seen.has(page.refresh) && robots.isAllowed(page.refresh)) {
      // A meta refresh forwards like a redirect. From the start page it also moves the job's scope
      // to the target's folder: a home page forwarding to /en/ keeps the job in one language.
      if (url !== options.startUrl) return enqueue(page.refresh);
      if (!inScope(page.refresh)) return;
      inScope = scopeMatcher(scopeOf(page.refresh));
      seen.add(page.refresh);
      return visit(page.refresh);
    }
    const fromHeader = headerRobotsDirectives(res.headers['x-robots-tag']);
    const noindex = page.noindex || fromHeader.noindex;
    const nofollow = page.nofollow || fromHeader.nofollow;

    let reportAs = finalUrl;
    const canonical = page.canonical;
    if (canonical !== null && canonical !== finalUrl && inScope(canonical) && robots.isAllowed(canonical)) {
      // A duplicate of its canonical page: reported as that URL, which then needs no fetch.
      reportAs = canonical;
      seen.add(canonical);
    }
    if (!nofollow) for (const link of page.links) enqueue(link, page.writtenAs.get(link));
    if (!noindex && report(reportAs) && options.onPage) {
      await options.onPage({ url: reportAs, finalUrl, status: res.status, contentType: res.contentType, body: res.body, text: res.text, title: page.title });
    }
  }

  try {
    await visit(options.startUrl, options.startResponse);
    const links = firstLinks;
    firstLinks = null;
    if (stoppedBy === null) for (const url of links) schedule(url);
    if (outstanding > 0) await finished;
    if (failure !== null) throw failure;
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
    stopController.abort();
  }
  if (errors > MAX_ERROR_WARNINGS) warnings.push(`${errors} pages could not be fetched (first ${MAX_ERROR_WARNINGS} shown)`);
  return { urls, fetched, stoppedBy: stoppedBy ?? 'done', startError, warnings };
}
