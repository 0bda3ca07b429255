// Discovery: which pages a site has. Sitemaps first (cheap, and they carry lastmod), then
// the link crawler fills up to maxUrls. One fetcher, one robots.txt and one time budget
// per job; the site's own failures become warnings, except when the site cannot be
// reached at all, which ends the job with a clear error.
import { FetchError } from './fetch-error.ts';
import { createFetcher, type Fetcher, type FetchResponse } from './fetcher.ts';
import { crawlSite, type CrawledPage, type ReadLinks } from './crawler.ts';
import type { GuardOptions } from './address-guard.ts';
import { resolveLimits, type CrawlLimits } from './limits.ts';
import { fetchListedPages, type ListedPageHandlers } from './listed-pages.ts';
import { isInScope, normalizeUrl, scopeOf, type Scope } from './normalize-url.ts';
import { isHtmlContentType, PageVisits } from './page-visits.ts';
import { NO_PATH_FILTERS, pathMatcher, type PathFilters, type PathMatcher } from './path-filter.ts';
import { DISALLOW_ALL, loadRobots, type Robots } from './robots.ts';
import { collectSitemapUrls } from './sitemaps.ts';
import { timeBudget } from './time-budget.ts';

export type DiscoveryMode = 'full' | 'sitemap' | 'crawl';

export interface DiscoveredUrl {
  url: string;
  source: 'sitemap' | 'crawl';
  lastModified: string | null;
}

export interface DiscoverOptions {
  mode: DiscoveryMode;
  maxUrls: number;
  signal?: AbortSignal;
  /** Called with the running total each time a URL is found. */
  onProgress?: (found: number) => void;
  /** Receives the HTML of each listed page the crawler fetched (crawl and full modes). */
  onPage?: (page: CrawledPage) => void | Promise<void>;
  /** How the crawler reads a page's links (see ReadLinks). */
  readLinks?: ReadLinks;
  /** Every listed page handed over: the crawl's to onPage, then the others here (see listed-pages.ts). */
  listed?: ListedPageHandlers;
  /**
   * Which paths are listed and fetched (see path-filter.ts). Without include patterns the job
   * stays in the start URL's folder (after the start page's redirects); with them, the whole host
   * is crawled and only what they include is listed.
   */
  paths?: PathFilters;
  /** Each robots.txt the job reads (the start host's, and the host it redirects to), as it is read. */
  onRobots?: (origin: string, robots: Robots) => void;
}

/** How the crawler may reach the network; the service builds this from its environment. */
export interface CrawlOptions extends GuardOptions {
  userAgent?: string;
  limits?: Partial<CrawlLimits>;
  /** Share a fetcher (and its connections) across calls; by default each call has its own. */
  fetcher?: Fetcher;
}

export interface DiscoveryResult {
  urls: DiscoveredUrl[];
  /** What went wrong without stopping the job (robots.txt errors, broken sitemaps, pages that failed). */
  warnings: string[];
  stats: { sitemapFiles: number; pagesFetched: number; timedOut: boolean };
}

export type DiscoveryErrorCode = 'INVALID_URL' | 'UNREACHABLE' | 'ABORTED';

export class DiscoveryError extends Error {
  readonly code: DiscoveryErrorCode;
  constructor(code: DiscoveryErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = 'DiscoveryError';
  }
}

// Failures that say the host cannot be talked to at all, as opposed to a bad page.
const UNREACHABLE_CODES = new Set(['REFUSED_ADDRESS', 'DNS', 'CONNECTION', 'BAD_URL']);
const MAX_WARNINGS = 50;

export async function discover(startUrl: string, options: DiscoverOptions, deps: CrawlOptions = {}): Promise<DiscoveryResult> {
  const limits = resolveLimits(deps.limits);
  const start = normalizeUrl(startUrl.trim(), undefined, limits.maxUrlLength);
  if (!start) throw new DiscoveryError('INVALID_URL', `Not an http(s) URL: ${startUrl.slice(0, 200)}`);
  const fetcher = deps.fetcher ?? createFetcher({ ...deps, limits });
  const budget = timeBudget(limits.jobTimeoutMs, options.signal);
  const run = newRun(start, options, fetcher, limits, budget.signal);
  try {
    const site = await openSite(start, fetcher, limits, run.signal, run.warn, run.wholeHost, options.onRobots);
    fetcher.pace(Math.max(limits.delayMs, site.robots.crawlDelayMs));
    if (options.mode !== 'crawl' && run.urls.length < run.maxUrls && !run.signal.aborted) await readSitemaps(run, site);
    let failure: FetchError | null = site.failure;
    // Without a start page (disallowed, or it failed above) the link crawler has nowhere to begin.
    if (options.mode !== 'sitemap' && run.urls.length < run.maxUrls && !run.signal.aborted && site.startResponse) {
      failure ??= await crawlLinks(run, site, site.startResponse);
    }
    const result = outcome(run, failure);
    const { robots, scope } = site;
    if (options.listed) await fetchListedPages(result.urls, run.handedOver, { visits: run.visits, robots, scope, signal: options.signal, handlers: options.listed });
    return result;
  } catch (err) {
    if (options.signal?.aborted) throw new DiscoveryError('ABORTED', 'Discovery was canceled', { cause: err });
    throw err;
  } finally {
    budget.release();
    if (!deps.fetcher) await fetcher.close();
  }
}

/** One discovery job's inputs and what it found so far. */
interface DiscoveryRun {
  start: string;
  options: DiscoverOptions;
  fetcher: Fetcher;
  /** The job's one pool of page visits: the crawl's and the listed pages' (see listed-pages.ts). */
  visits: PageVisits;
  limits: CrawlLimits;
  maxUrls: number;
  /** Aborted by the caller or at the end of the time budget. */
  signal: AbortSignal;
  paths: PathMatcher;
  /** With include patterns the whole host is crawled (see DiscoverOptions.paths). */
  wholeHost: boolean;
  urls: DiscoveredUrl[];
  /** The listed pages the crawl handed over (to onPage). */
  handedOver: Set<string>;
  warnings: string[];
  warn: (message: string | null) => void;
  found: (entry: DiscoveredUrl) => void;
  stats: DiscoveryResult['stats'];
}

function newRun(start: string, options: DiscoverOptions, fetcher: Fetcher, limits: CrawlLimits, signal: AbortSignal): DiscoveryRun {
  const urls: DiscoveredUrl[] = [];
  const warnings: string[] = [];
  return {
    start,
    options,
    fetcher,
    visits: new PageVisits(fetcher, limits.concurrencyPerHost),
    limits,
    maxUrls: Math.max(0, Math.floor(options.maxUrls)),
    signal,
    paths: pathMatcher(options.paths ?? NO_PATH_FILTERS),
    wholeHost: (options.paths?.includePaths.length ?? 0) > 0,
    urls,
    handedOver: new Set<string>(),
    warnings,
    warn: (message) => {
      if (message && warnings.length < MAX_WARNINGS) warnings.push(message);
    },
    found: (entry) => {
      urls.push(entry);
      options.onProgress?.(urls.length);
    },
    stats: { sitemapFiles: 0, pagesFetched: 0, timedOut: false },
  };
}

async function readSitemaps(run: DiscoveryRun, site: OpenedSite): Promise<void> {
  const { robots } = site;
  const sitemaps = await collectSitemapUrls({
    fetcher: run.fetcher,
    origin: site.origin,
    scope: site.scope,
    robotsSitemaps: robots.sitemaps,
    maxUrls: run.maxUrls,
    isAllowed: (url) => robots.isAllowed(url) && run.paths.listed(url),
    limits: run.limits,
    signal: run.signal,
    onUrl: (entry) => run.found({ url: entry.url, source: 'sitemap', lastModified: entry.lastModified }),
  });
  run.stats.sitemapFiles = sitemaps.files;
  sitemaps.warnings.forEach(run.warn);
}

/** Crawls from the start page for the URLs the sitemaps did not give; returns the start page's failure. */
async function crawlLinks(run: DiscoveryRun, site: OpenedSite, startResponse: FetchResponse): Promise<FetchError | null> {
  const { options, urls } = run;
  const onPage = options.onPage;
  const crawl = await crawlSite({
    fetcher: run.fetcher,
    visits: run.visits,
    startUrl: run.start,
    startResponse,
    scope: site.scope,
    robots: site.robots,
    maxUrls: run.maxUrls - urls.length,
    known: new Set(urls.map((u) => u.url)),
    limits: run.limits,
    signal: run.signal,
    onUrl: (url) => run.found({ url, source: 'crawl', lastModified: null }),
    onPage: onPage && ((page) => {
      run.handedOver.add(page.url);
      return onPage(page);
    }),
    readLinks: options.readLinks,
    paths: run.paths,
  });
  run.stats.pagesFetched = crawl.fetched + 1;
  crawl.warnings.forEach(run.warn);
  return crawl.startError;
}

/** The result, or the error that ends the job: canceled, or nothing found from a site that failed. */
function outcome(run: DiscoveryRun, failure: FetchError | null): DiscoveryResult {
  const { start, limits, urls, warnings, stats } = run;
  if (run.options.signal?.aborted) throw new DiscoveryError('ABORTED', 'Discovery was canceled');
  if (run.signal.aborted) {
    stats.timedOut = true;
    run.warn(`Stopped after the time budget of ${limits.jobTimeoutMs / 1000} s; the URLs found until then are kept`);
  }
  if (urls.length === 0 && failure) {
    if (failure.code !== 'ABORTED') throw unreachable(start, failure);
    throw new DiscoveryError('UNREACHABLE', `Could not fetch ${start}: no answer within the time budget of ${limits.jobTimeoutMs / 1000} s`);
  }
  return { urls, warnings, stats };
}

interface OpenedSite {
  origin: string;
  scope: Scope;
  robots: Robots;
  startResponse?: FetchResponse;
  /** Why robots.txt or the start page failed; the job fails with it if nothing is found. */
  failure: FetchError | null;
}

/**
 * robots.txt, then the start page: proves the site answers (or fails the job), and when
 * the start URL redirects to another host (example.com → www.example.com) the job
 * continues on that host, with that host's robots.txt.
 */
async function openSite(
  start: string,
  fetcher: Fetcher,
  limits: CrawlLimits,
  signal: AbortSignal,
  warn: (message: string | null) => void,
  wholeHost: boolean,
  onRobots?: (origin: string, robots: Robots) => void,
): Promise<OpenedSite> {
  let origin = new URL(start).origin;
  let scope = wholeHost ? scopeOf(`${origin}/`) : scopeOf(start);
  let { robots, failure } = await fetchRobotsOrFail(origin, start, fetcher, limits, signal, warn);
  onRobots?.(origin, robots);
  if (!robots.isAllowed(start)) {
    if (!failure) warn(`robots.txt does not allow ${start}; the link crawler did not start`);
    return { origin, scope, robots, failure };
  }

  let startResponse: FetchResponse | undefined;
  try {
    startResponse = await fetcher.fetch(start, { signal, wantBody: isHtmlContentType });
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    if (UNREACHABLE_CODES.has(err.code)) throw unreachable(start, err);
    failure = err;
    warn(err.message);
  }
  const finalHost = startResponse && new URL(startResponse.url).host;
  // A start page that forwards within the job's folder narrows it: / → /en/index.html covers /en/.
  if (startResponse && !wholeHost && finalHost === scope.host && isInScope(startResponse.url, scope)) scope = scopeOf(startResponse.url);
  if (startResponse && finalHost !== scope.host) {
    origin = new URL(startResponse.url).origin;
    scope = { ...scope, host: finalHost! };
    ({ robots, failure } = await fetchRobotsOrFail(origin, startResponse.url, fetcher, limits, signal, warn));
    onRobots?.(origin, robots);
  }
  return { origin, scope, robots, startResponse, failure };
}

async function fetchRobotsOrFail(
  origin: string,
  start: string,
  fetcher: Fetcher,
  limits: CrawlLimits,
  signal: AbortSignal,
  warn: (message: string | null) => void,
): Promise<{ robots: Robots; failure: FetchError | null }> {
  try {
    const { robots, warning } = await loadRobots(origin, fetcher, {
      signal,
      maxBytes: limits.maxRobotsBytes,
      maxCrawlDelayMs: limits.maxCrawlDelayMs,
    });
    warn(warning);
    return { robots, failure: null };
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    if (UNREACHABLE_CODES.has(err.code)) throw unreachable(start, err);
    // A robots.txt that times out, loops or is otherwise unreadable: RFC 9309 says treat
    // the site as disallowed, so only its sitemaps can still be read.
    warn(`robots.txt could not be read (${err.message}); crawling nothing`);
    return { robots: DISALLOW_ALL, failure: err };
  }
}

function unreachable(start: string, err: FetchError): DiscoveryError {
  return new DiscoveryError('UNREACHABLE', `Could not fetch ${start}: ${err.message}`, { cause: err });
}
