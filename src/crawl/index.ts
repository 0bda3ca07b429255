// The crawl engine's public surface: discovery for jobs, the fetcher for generation, and
// the limits the service may tune. Everything else in this folder is an implementation part.
export { discover, DiscoveryError } from './discover.ts';
export type { CrawlOptions, DiscoverOptions, DiscoveredUrl, DiscoveryErrorCode, DiscoveryMode, DiscoveryResult } from './discover.ts';

export { crawlSite } from './crawler.ts';
export type { CrawledPage, CrawlResult, CrawlSiteOptions, ReadLinks } from './crawler.ts';
export type { ListedPage, ListedPageHandlers, ListedUrl } from './listed-pages.ts';

export { createFetcher } from './fetcher.ts';
export type { Fetcher, FetcherOptions, FetchOptions, FetchResponse, ResponseBody } from './fetcher.ts';
export { FetchError } from './fetch-error.ts';
export type { FetchErrorCode } from './fetch-error.ts';

export { DEFAULT_CRAWL_LIMITS, ROBOTS_USER_AGENT, USER_AGENT, resolveLimits } from './limits.ts';
export type { CrawlLimits } from './limits.ts';

export { AddressRefusedError, assertAddressAllowed, assertHostAllowed, assertHostResolvesAllowed, classifyAddress, createGuardedAgent, systemResolver } from './address-guard.ts';
export type { GuardOptions, Resolver } from './address-guard.ts';

export { isInScope, normalizeUrl, scopeOf } from './normalize-url.ts';
export { hasPathFilters, invalidPathPattern, MAX_PATH_PATTERN_CHARS, MAX_PATH_PATTERNS, NO_PATH_FILTERS, pathMatcher } from './path-filter.ts';
export type { PathFilters, PathMatcher } from './path-filter.ts';
export type { Scope } from './normalize-url.ts';

export { loadRobots, parseRobotsTxt } from './robots.ts';
export { RobotsCache } from './robots-cache.ts';
export type { Robots } from './robots.ts';
export { collectSitemapUrls, parseSitemap } from './sitemaps.ts';
export type { SitemapEntry } from './sitemaps.ts';
export { extractLinks, scanLinks } from './links.ts';
export type { ExtractOptions as LinkOptions, LinkScan, PageLinks } from './links.ts';
export { decodeBody } from './charset.ts';

export { assertCanRender, BrowserPool, chromiumAvailable } from './render/browser-pool.ts';
export { createJobFetchers } from './render/job-fetcher.ts';
export type { JobFetchers } from './render/job-fetcher.ts';
export type { RenderingFetcher } from './render/rendering-fetcher.ts';
export { RENDER_MODES } from './render/modes.ts';
export type { RenderMode } from './render/modes.ts';
export { KnownRobots } from './known-robots.ts';
export { MarkdownCopies, markdownCandidates, stripFrontMatter } from './markdown-copies.ts';
export type { SiteMarkdown } from './markdown-copies.ts';
