// Every bound the crawler places on what a remote site controls, in one place, so the
// service can tune them (and tests can shrink them) without hunting through modules.

/** The product token robots.txt groups are matched against. */
export const ROBOTS_USER_AGENT = 'llmstxt-bot';

/** Sent on every request; the URL lets site owners find out who we are. */
export const USER_AGENT = 'llmstxt-bot/1.0 (+https://llmstxt.example/bot)';

export interface CrawlLimits {
  /** Total time for one request, headers and body together (a drip-feeding server ends here). Default 15 s. */
  requestTimeoutMs: number;
  /** Time budget for one discovery job; what was found until then is returned. Default 120 s. */
  jobTimeoutMs: number;
  /** Largest HTML page, on the wire and after decompression. Default 10 MB. */
  maxPageBytes: number;
  /** Largest sitemap file after decompression (the sitemaps.org limit). Default 50 MB. */
  maxSitemapBytes: number;
  /** robots.txt beyond this is cut off, not refused (RFC 9309 asks for at least 500 KiB). Default 512 KiB. */
  maxRobotsBytes: number;
  /** Redirect hops followed per request. Default 5. */
  maxRedirects: number;
  /** Longer URLs are ignored. Default 2048. */
  maxUrlLength: number;
  /** Links kept from one page. Default 2,000. */
  maxLinksPerPage: number;
  /** URLs read from one sitemap file (the sitemaps.org limit). Default 50,000. */
  maxUrlsPerSitemap: number;
  /** Sitemap files fetched per job, indexes included. Default 100. */
  maxSitemapFiles: number;
  /** Nesting of sitemap indexes below the first file. Default 5. */
  maxSitemapDepth: number;
  /** robots.txt Crawl-delay is honored up to this. Default 5 s. */
  maxCrawlDelayMs: number;
  /** Simultaneous requests to one host. Default 8. */
  concurrencyPerHost: number;
  /** Minimum time between the starts of two requests to one host. Default 0 (Crawl-delay still applies). */
  delayMs: number;
  /** Pages fetched per job by the link crawler, as a multiple of maxUrls (non-HTML, noindex and error pages also cost). Default 3. */
  fetchesPerUrl: number;
  /** URLs waiting in the crawl frontier; further links are dropped. Default 100,000. */
  maxQueuedUrls: number;
}

export const DEFAULT_CRAWL_LIMITS: Readonly<CrawlLimits> = Object.freeze({
  requestTimeoutMs: 15_000,
  jobTimeoutMs: 120_000,
  maxPageBytes: 10 * 1024 * 1024,
  maxSitemapBytes: 50 * 1024 * 1024,
  maxRobotsBytes: 512 * 1024,
  maxRedirects: 5,
  maxUrlLength: 2048,
  maxLinksPerPage: 2000,
  maxUrlsPerSitemap: 50_000,
  maxSitemapFiles: 100,
  maxSitemapDepth: 5,
  maxCrawlDelayMs: 5000,
  concurrencyPerHost: 8,
  delayMs: 0,
  fetchesPerUrl: 3,
  maxQueuedUrls: 100_000,
});

export function resolveLimits(overrides?: Partial<CrawlLimits>): CrawlLimits {
  return { ...DEFAULT_CRAWL_LIMITS, ...overrides };
}
