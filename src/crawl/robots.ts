// robots.txt for our user agent. Matching is robots-parser's (Google's longest-match
// algorithm); before handing it the file we rewrite it the way Google's reference parser
// reads it, so sites get the behavior they tested against Googlebot:
// - a UTF-8 byte order mark, even a truncated one, is skipped at the start of the file;
// - `key value` without a colon is read as `key: value` (exactly two words only);
// - common misspellings of directives are accepted (`useragent`, `disalow`, `site-map`, ...);
// - a user-agent line names the product token only: `Foo Bar/1.0` is `Foo`;
// - sitemap and unknown lines do not end a run of user-agent lines (robots-parser's
//   Crawl-delay still does: Google ignores Crawl-delay, so no case covers it);
// - `Allow: /dir/index.html` (or .htm) also allows `/dir/` itself.
import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { Fetcher } from './fetcher.ts';
import { DEFAULT_CRAWL_LIMITS, ROBOTS_USER_AGENT } from './limits.ts';

// robots-parser is CommonJS (module.exports = function) but its typings declare an ES
// default export, which TypeScript under NodeNext types as the module object; loading it
// with require and typing the part we use keeps both sides honest.
interface ParsedRobotsTxt {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
  getCrawlDelay(userAgent?: string): number | undefined;
}
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, contents: string) => ParsedRobotsTxt;

export interface Robots {
  isAllowed(url: string): boolean;
  /** Crawl-delay for our agent in ms, already capped; 0 when none. */
  crawlDelayMs: number;
  /** Absolute URLs from `Sitemap:` lines. */
  sitemaps: string[];
}

export interface RobotsOptions {
  userAgent?: string;
  maxCrawlDelayMs?: number;
}

// Rules are matched on path and query only: a Robots object always belongs to one origin,
// so the origin given to robots-parser is a fixed placeholder.
const PLACEHOLDER_ORIGIN = 'http://robots.invalid';

const DIRECTIVES: Record<string, string> = {
  'user-agent': 'user-agent',
  useragent: 'user-agent',
  'user agent': 'user-agent',
  allow: 'allow',
  disallow: 'disallow',
  dissallow: 'disallow',
  dissalow: 'disallow',
  disalow: 'disallow',
  diasllow: 'disallow',
  disallaw: 'disallow',
  'crawl-delay': 'crawl-delay',
  sitemap: 'sitemap',
  'site-map': 'sitemap',
};

export function parseRobotsTxt(content: string | Uint8Array, options: RobotsOptions = {}): Robots {
  const userAgent = options.userAgent ?? ROBOTS_USER_AGENT;
  const maxDelay = options.maxCrawlDelayMs ?? DEFAULT_CRAWL_LIMITS.maxCrawlDelayMs;
  const text = typeof content === 'string' ? content.replace(/^\ufeff/, '') : decodeRobotsBytes(content);
  const { canonical, sitemaps } = canonicalize(text);
  const parsed = robotsParser(`${PLACEHOLDER_ORIGIN}/robots.txt`, canonical);
  const delaySeconds = parsed.getCrawlDelay(userAgent);
  const crawlDelayMs =
    typeof delaySeconds === 'number' && Number.isFinite(delaySeconds) && delaySeconds > 0 ? Math.min(delaySeconds * 1000, maxDelay) : 0;
  return {
    isAllowed: (url) => parsed.isAllowed(PLACEHOLDER_ORIGIN + pathAndQuery(url), userAgent) !== false,
    crawlDelayMs,
    sitemaps,
  };
}

export const ALLOW_ALL: Robots = Object.freeze({ isAllowed: () => true, crawlDelayMs: 0, sitemaps: [] });
export const DISALLOW_ALL: Robots = Object.freeze({ isAllowed: () => false, crawlDelayMs: 0, sitemaps: [] });

function decodeRobotsBytes(bytes: Uint8Array): string {
  // Skip a BOM or any leading part of one (EF, EF BB, EF BB BF), as Google's parser does.
  let start = 0;
  const bom = [0xef, 0xbb, 0xbf];
  while (start < 3 && bytes[start] === bom[start]) start++;
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, bytes.length - start).toString('utf8');
}

function canonicalize(text: string): { canonical: string; sitemaps: string[] } {
  const out: string[] = [];
  const sitemaps: string[] = [];
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const hash = rawLine.indexOf('#');
    const line = trimBlanks(hash === -1 ? rawLine : rawLine.slice(0, hash));
    if (line.length === 0) continue;
    let key: string;
    let value: string;
    const colon = line.indexOf(':');
    if (colon !== -1) {
      key = trimBlanks(line.slice(0, colon));
      value = trimBlanks(line.slice(colon + 1));
    } else {
      const words = /^(\S+)\s+(\S+)$/.exec(line);
      if (!words) continue;
      [, key, value] = words;
    }
    const directive = DIRECTIVES[key.toLowerCase()];
    if (directive === undefined) continue;
    if (directive === 'sitemap') {
      if (value) sitemaps.push(value);
      continue;
    }
    if (directive === 'user-agent') value = productToken(value);
    out.push(`${directive}: ${value}`);
    if (directive === 'allow') {
      const indexPage = /^(.*\/)index\.html?$/i.exec(value);
      if (indexPage) out.push(`allow: ${indexPage[1]}$`);
    }
  }
  return { canonical: out.join('\n'), sitemaps };
}

// Spaces and tabs only: String.trim() would also eat U+FEFF, and a byte order mark in the
// middle of the file makes its line unreadable for Google's parser too.
// Searched by hand: /[ \t]+$/ reads a run of blanks to its end from each of its characters.
function trimBlanks(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isBlank(text[start])) start++;
  while (end > start && isBlank(text[end - 1])) end--;
  return text.slice(start, end);
}

const isBlank = (char: string) => char === ' ' || char === '\t';

function productToken(value: string): string {
  if (value.startsWith('*')) return '*';
  const token = /^[A-Za-z_-]+/.exec(value);
  return token ? token[0] : value;
}

function pathAndQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    // A bare path, or nothing at all (which means the site root).
    return url.startsWith('/') ? url : '/';
  }
}

export interface LoadedRobots {
  robots: Robots;
  /** Set when the file could not be used as written (for the job's warnings). */
  warning: string | null;
  /** How long the answer may be reused (see `reusableForMs`); 0: not at all. */
  reusableForMs: number;
}

const DAY_MS = 24 * 3_600_000;

/**
 * Fetches and parses `<origin>/robots.txt`. A missing file (any 4xx) allows everything.
 * A server error (5xx, and 429) disallows everything, as RFC 9309 requires: a site that
 * cannot serve its robots.txt right now may be the one that most needs us to stay away,
 * and the job ends with a clear warning instead of crawling against the owner's wishes.
 * Network failures are thrown: the host itself is unreachable.
 */
export async function loadRobots(
  origin: string,
  fetcher: Fetcher,
  options: RobotsOptions & { signal?: AbortSignal; maxBytes?: number } = {},
): Promise<LoadedRobots> {
  const url = `${origin}/robots.txt`;
  const res = await fetcher.fetch(url, {
    signal: options.signal,
    accept: 'text/plain,*/*;q=0.5',
    maxBytes: options.maxBytes ?? DEFAULT_CRAWL_LIMITS.maxRobotsBytes,
    truncate: true,
  });
  if (res.status >= 200 && res.status < 300) return { robots: parseRobotsTxt(res.body, options), warning: null, reusableForMs: reusableForMs(res.headers) };
  if (res.status === 429 || res.status >= 500) {
    return {
      robots: DISALLOW_ALL,
      warning: `${url} answered ${res.status}: crawling nothing, as RFC 9309 asks while robots.txt is unreachable`,
      reusableForMs: 0,
    };
  }
  return { robots: ALLOW_ALL, warning: null, reusableForMs: reusableForMs(res.headers) };
}

/**
 * RFC 9309 lets a crawler reuse robots.txt for at most 24 hours, and standard caching directives
 * apply: `no-store` (and `no-cache`, which asks to check again first) means never, `max-age` less.
 * A server error is never reused: the next fetch may find the file again.
 */
function reusableForMs(headers: IncomingHttpHeaders): number {
  const cacheControl = (headers['cache-control'] ?? '').toLowerCase();
  if (/\bno-(?:store|cache)\b/.test(cacheControl)) return 0;
  const maxAge = /\bmax-age\s*=\s*"?(\d+)/.exec(cacheControl);
  return maxAge ? Math.min(Number(maxAge[1]) * 1000, DAY_MS) : DAY_MS;
}
