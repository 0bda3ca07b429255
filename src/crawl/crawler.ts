// Breadth-first link crawler over one site. Normalized URLs (each seen once per job) are
// visited by the job's one pool with a cap (page-visits.ts), in the order found, sharing one
// keep-alive fetcher. Pages are fetched and read concurrently but taken in that order, whatever
// order their responses come in: taking a page reports it (unless noindex or a canonical
// duplicate) and queues its in-scope links, so a crawl cut by its caps takes the same pages every run.
import { setMaxListeners } from 'node:events';
import { FetchError } from './fetch-error.ts';
import type { Fetcher, FetchResponse, ResponseBody } from './fetcher.ts';
import { extractLinks, headerRobotsDirectives, type ExtractOptions as LinkOptions, type PageLinks } from './links.ts';
import { DEFAULT_CRAWL_LIMITS, type CrawlLimits } from './limits.ts';
import { scopeMatcher, scopeOf, type Scope } from './normalize-url.ts';
import { isHtmlContentType, PageVisits } from './page-visits.ts';
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
  /** The job's pool of visits, shared with the fetches of the pages only a sitemap listed; the crawl's own by default. */
  visits?: PageVisits;
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

/** A visit's fetch: the response and its links (null when it is not an HTML page to read), or the budget spent. */
type Fetched = { res: FetchResponse; page: PageLinks | null } | 'overBudget' | undefined;

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

export async function crawlSite(options: CrawlSiteOptions): Promise<CrawlResult> {
  return new SiteCrawl(options).run();
}

/** One crawl's state: what was seen, reported and fetched, and how it stopped. */
class SiteCrawl {
  private readonly options: CrawlSiteOptions;
  private readonly limits: CrawlLimits;
  private inScope: (url: string) => boolean;
  private readonly paths: PathMatcher;
  private readonly known: ReadonlySet<string>;
  private readonly maxFetches: number;
  /** One pool with a cap: visits run in the order their URLs were found (breadth first). */
  private readonly visits: PageVisits;
  /** Links the start page gives wait for it: its redirect and links decide what is fetched next. */
  private firstLinks: string[] | null = [];
  private outstanding = 0;
  /** Visits scheduled and taken: the ones between wait for their turn (the frontier). */
  private scheduled = 0;
  private taken = 0;
  /** Settles when the last visit scheduled has been taken (or gone by). */
  private lastTurn: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private finish!: () => void;
  private readonly finished = new Promise<void>((resolve) => (this.finish = resolve));
  private readonly seen: Set<string>;
  private readonly reported = new Set<string>();
  private readonly urls: string[] = [];
  private readonly warnings: string[] = [];
  private errors = 0;
  private fetched = 0;
  private stoppedBy: CrawlStop | null = null;
  private startError: FetchError | null = null;
  /** Aborts requests in flight when the crawl stops early (maxUrls, caller's signal). */
  private readonly stopController = new AbortController();

  constructor(options: CrawlSiteOptions) {
    this.options = options;
    this.limits = { ...DEFAULT_CRAWL_LIMITS, ...options.limits };
    this.inScope = scopeMatcher(options.scope);
    this.paths = options.paths ?? pathMatcher(NO_PATH_FILTERS);
    this.known = options.known ?? new Set<string>();
    this.maxFetches = Math.max(options.maxUrls * this.limits.fetchesPerUrl, options.maxUrls + 10);
    this.visits = options.visits ?? new PageVisits(options.fetcher, this.limits.concurrencyPerHost);
    this.seen = new Set<string>([options.startUrl]);
    setMaxListeners(0, this.stopController.signal); // one listener per request in flight
    options.fetcher.pace(Math.max(this.limits.delayMs, options.robots.crawlDelayMs));
  }

  async run(): Promise<CrawlResult> {
    const { signal, startUrl, startResponse } = this.options;
    const onOuterAbort = () => this.stop('aborted');
    if (signal?.aborted) this.stop('aborted');
    signal?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      await this.visit(startUrl, startResponse);
      const links = this.firstLinks ?? [];
      this.firstLinks = null;
      if (this.stoppedBy === null) for (const url of links) this.schedule(url);
      if (this.outstanding > 0) await this.finished;
      if (this.failure !== null) throw this.failure;
    } finally {
      signal?.removeEventListener('abort', onOuterAbort);
      this.stopController.abort();
    }
    const { urls, fetched, startError, warnings, errors } = this;
    if (errors > MAX_ERROR_WARNINGS) warnings.push(`${errors} pages could not be fetched (first ${MAX_ERROR_WARNINGS} shown)`);
    return { urls, fetched, stoppedBy: this.stoppedBy ?? 'done', startError, warnings };
  }

  private stop(reason: CrawlStop) {
    this.stoppedBy ??= reason;
    this.stopController.abort();
  }

  /**
   * A visit in the pool: fetched and read when the pool has room, taken after the visit scheduled
   * before it (holding its place in the pool, so at most the pool's cap of pages wait read). A
   * stopped crawl lets the visits waiting their turn go by unvisited.
   */
  private schedule(url: string) {
    this.outstanding++;
    this.scheduled++;
    const previous = this.lastTurn;
    let taken!: () => void;
    this.lastTurn = new Promise<void>((resolve) => (taken = resolve));
    this.visits
      .visit(async () => {
        if (this.stoppedBy !== null) return;
        const fetched = await this.read(url);
        await previous;
        this.taken++;
        await this.take(url, fetched);
      })
      .catch((error: unknown) => {
        this.failure ??= error;
        this.stop('aborted');
      })
      .finally(() => {
        taken();
        if (--this.outstanding === 0) this.finish();
      });
  }

  /** True when the page is one the job lists (new, or known from a sitemap) for the first time. */
  private report(url: string): boolean {
    if (this.reported.has(url) || this.stoppedBy !== null || !this.paths.listed(url)) return false;
    this.reported.add(url);
    if (this.known.has(url)) return true;
    this.urls.push(url);
    this.options.onUrl?.(url);
    if (this.urls.length >= this.options.maxUrls) this.stop('maxUrls');
    return true;
  }

  /** `written`: the link as the page wrote it, when normalising changed it; robots.txt must allow both. */
  private enqueue(url: string, written?: string) {
    const { robots } = this.options;
    if (this.seen.has(url) || !this.inScope(url) || !this.paths.fetchable(url)) return;
    if ((this.firstLinks?.length ?? this.scheduled - this.taken) >= this.limits.maxQueuedUrls) return;
    this.seen.add(url);
    const query = url.indexOf('?');
    if (NON_PAGE_EXTENSION.test(query === -1 ? url : url.slice(0, query)) || !robots.isAllowed(url)) return;
    if (written !== undefined && !robots.isAllowed(written)) return;
    if (this.firstLinks) this.firstLinks.push(url);
    else this.schedule(url);
  }

  /** The URL's response, or undefined when the fetch failed (a warning then). */
  private async fetch(url: string): Promise<FetchResponse | undefined> {
    this.fetched++;
    try {
      return await this.visits.fetch(url, this.stopController.signal);
    } catch (err) {
      if (this.stoppedBy !== null) return;
      const error = err instanceof FetchError ? err : new FetchError('CONNECTION', String(err), url);
      if (url === this.options.startUrl) this.startError = error;
      if (++this.errors <= MAX_ERROR_WARNINGS) this.warnings.push(error.message.includes(url) ? error.message : `${url}: ${error.message}`);
    }
  }

  /** True when the response is an HTML page this crawl reads. */
  private isPageToRead(url: string, res: FetchResponse): boolean {
    if (res.status < 200 || res.status > 299) {
      if (url === this.options.startUrl) this.warnings.push(`Start page ${url} answered ${res.status}`);
      return false;
    }
    if (res.bodySkipped || !isHtmlContentType(res.contentType)) return false;
    return res.contentType !== null || /^\s*</.test(res.text());
  }

  private async visit(url: string, prefetched?: FetchResponse): Promise<void> {
    return this.take(url, await this.read(url, prefetched));
  }

  /** The URL fetched and its links read: the part of a visit that runs concurrently, in any order. */
  private async read(url: string, prefetched?: FetchResponse): Promise<Fetched> {
    if (!prefetched && this.fetched >= this.maxFetches) return 'overBudget';
    const res = prefetched ?? (await this.fetch(url));
    if (!res || this.stoppedBy !== null || this.leavesSite(url, res.url)) return;
    if (!this.isPageToRead(url, res)) return { res, page: null };
    const { limits, options } = this;
    return { res, page: await (options.readLinks ?? readLinksOnEventLoop)(res, res.url, { maxLinks: limits.maxLinksPerPage, maxUrlLength: limits.maxUrlLength }) };
  }

  /** A redirect to a target outside the site or disallowed by robots.txt: not read. */
  private leavesSite(url: string, finalUrl: string): boolean {
    return finalUrl !== url && (!this.inScope(finalUrl) || !this.options.robots.isAllowed(finalUrl));
  }

  /** A visit taken in its turn: what it changes (seen, reported, queued) depends on the order of turns only. */
  private async take(url: string, fetched: Fetched): Promise<void> {
    if (fetched === 'overBudget') return this.stop('fetchBudget');
    if (!fetched || this.stoppedBy !== null) return;
    const { res, page } = fetched;
    const finalUrl = res.url;
    if (finalUrl !== url) {
      // A redirect: the target stands for this URL, unless it is reached (or about to be) on its own.
      if (this.seen.has(finalUrl) && url !== this.options.startUrl) return;
      this.seen.add(finalUrl);
    }
    if (page === null) return;
    const { options } = this;
    if (page.refresh !== null && page.refresh !== finalUrl && !this.seen.has(page.refresh) && options.robots.isAllowed(page.refresh)) {
      return this.followRefresh(url, page.refresh);
    }
    const fromHeader = headerRobotsDirectives(res.headers['x-robots-tag']);
    let reportAs = finalUrl;
    const canonical = page.canonical;
    if (canonical !== null && canonical !== finalUrl && this.inScope(canonical) && options.robots.isAllowed(canonical)) {
      // A duplicate of its canonical page: reported as that URL, which then needs no fetch.
      reportAs = canonical;
      this.seen.add(canonical);
    }
    if (!(page.nofollow || fromHeader.nofollow)) for (const link of page.links) this.enqueue(link, page.writtenAs.get(link));
    if (!(page.noindex || fromHeader.noindex) && this.report(reportAs) && options.onPage) {
      await options.onPage({ url: reportAs, finalUrl, status: res.status, contentType: res.contentType, body: res.body, text: res.text, bytesAreUtf8Text: res.bytesAreUtf8Text, title: page.title });
    }
  }

  /**
   * A meta refresh forwards like a redirect. From the start page it also moves the job's scope
   * to the target's folder: a home page forwarding to /en/ keeps the job in one language.
   */
  private followRefresh(url: string, target: string): Promise<void> | void {
    if (url !== this.options.startUrl) return this.enqueue(target);
    if (!this.inScope(target)) return;
    this.inScope = scopeMatcher(scopeOf(target));
    this.seen.add(target);
    return this.visit(target);
  }
}
