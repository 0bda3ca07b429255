// Sitemaps: where to look (robots.txt, /sitemap.xml, /sitemap_index.xml), how to read
// them (XML urlset and index, gzip, plain text) and when to stop (caps per file, per job
// and on nesting; enough URLs found).
import { XMLParser } from 'fast-xml-parser';
import { decodeBody } from './charset.ts';
import { gunzipCapped, isGzip } from './decompress.ts';
import { FetchError } from './fetch-error.ts';
import type { Fetcher } from './fetcher.ts';
import { DEFAULT_CRAWL_LIMITS, type CrawlLimits } from './limits.ts';
import { isInScope, normalizeUrl, type Scope } from './normalize-url.ts';

export interface SitemapEntry {
  url: string;
  /** <lastmod> as an ISO 8601 timestamp, or null when absent or unreadable. */
  lastModified: string | null;
}

export interface ParsedSitemap {
  kind: 'urlset' | 'sitemapindex' | 'text' | 'unknown';
  /** Page URLs (urlset, text), normalized, not yet filtered by scope. */
  urls: SitemapEntry[];
  /** Child sitemap URLs (sitemapindex). */
  sitemaps: string[];
}

// Entity processing off: a DOCTYPE that defines entities (the "billion laughs" attack) is
// read as plain text and never expanded. The five XML entities and numeric references in
// <loc> are decoded by hand below; nothing else is.
const xmlParser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

export function parseSitemap(content: string, options: { maxUrls?: number; maxUrlLength?: number } = {}): ParsedSitemap {
  const maxUrls = options.maxUrls ?? DEFAULT_CRAWL_LIMITS.maxUrlsPerSitemap;
  const maxUrlLength = options.maxUrlLength ?? DEFAULT_CRAWL_LIMITS.maxUrlLength;
  const text = content.replace(/^\ufeff/, '').trimStart();
  if (!text.startsWith('<')) return parseTextSitemap(text, maxUrls, maxUrlLength);

  let doc: Record<string, unknown>;
  try {
    doc = xmlParser.parse(text) as Record<string, unknown>;
  } catch {
    return { kind: 'unknown', urls: [], sitemaps: [] };
  }
  const urlset = asRecord(doc.urlset);
  if (urlset) {
    const urls: SitemapEntry[] = [];
    for (const item of asArray(urlset.url)) {
      if (urls.length >= maxUrls) break;
      const entry = asRecord(item);
      const url = entry && normalizeUrl(xmlText(entry.loc), undefined, maxUrlLength);
      if (url) urls.push({ url, lastModified: toIsoDate(xmlText(entry.lastmod)) });
    }
    return { kind: 'urlset', urls, sitemaps: [] };
  }
  const index = asRecord(doc.sitemapindex);
  if (index) {
    const sitemaps: string[] = [];
    for (const item of asArray(index.sitemap)) {
      if (sitemaps.length >= maxUrls) break;
      const entry = asRecord(item);
      const url = entry && normalizeUrl(xmlText(entry.loc), undefined, maxUrlLength);
      if (url) sitemaps.push(url);
    }
    return { kind: 'sitemapindex', urls: [], sitemaps };
  }
  return { kind: 'unknown', urls: [], sitemaps: [] };
}

function parseTextSitemap(text: string, maxUrls: number, maxUrlLength: number): ParsedSitemap {
  const urls: SitemapEntry[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (urls.length >= maxUrls) break;
    const trimmed = line.trim();
    if (!/^https?:\/\//i.test(trimmed)) continue;
    const url = normalizeUrl(trimmed, undefined, maxUrlLength);
    if (url) urls.push({ url, lastModified: null });
  }
  return { kind: urls.length > 0 ? 'text' : 'unknown', urls, sitemaps: [] };
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function xmlText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
    if (name[0] !== '#') return XML_ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function toIsoDate(value: string): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

export interface CollectSitemapsOptions {
  fetcher: Fetcher;
  /** Origin of the site (`https://example.com`), for the well-known locations. */
  origin: string;
  /** Only URLs in scope count. */
  scope: Scope;
  /** Sitemap URLs from robots.txt, read first. */
  robotsSitemaps: string[];
  /** Stop once this many in-scope URLs are found. */
  maxUrls: number;
  /** robots.txt rules for the site: disallowed pages are not reported. */
  isAllowed?: (url: string) => boolean;
  limits?: Partial<CrawlLimits>;
  signal?: AbortSignal;
  onUrl?: (entry: SitemapEntry) => void;
}

export interface CollectedSitemaps {
  urls: SitemapEntry[];
  /** Sitemap files fetched (indexes included). */
  files: number;
  warnings: string[];
}

export async function collectSitemapUrls(options: CollectSitemapsOptions): Promise<CollectedSitemaps> {
  const limits = { ...DEFAULT_CRAWL_LIMITS, ...options.limits };
  const urls: SitemapEntry[] = [];
  const found = new Set<string>();
  const warnings: string[] = [];
  const visited = new Set<string>();
  // Robots-listed files are expected to exist; the two well-known names are only guesses.
  // Children are read right after their index (depth first), so when enough URLs turn up
  // the well-known guesses at the end are never fetched.
  const queue: Array<{ url: string; depth: number; guessed: boolean }> = [];
  const toQueue = (raw: string, depth: number, guessed: boolean) => {
    const url = normalizeUrl(raw, options.origin, limits.maxUrlLength);
    if (!url || visited.has(url)) return [];
    visited.add(url);
    return [{ url, depth, guessed }];
  };
  for (const url of options.robotsSitemaps) queue.push(...toQueue(url, 0, false));
  queue.push(...toQueue('/sitemap.xml', 0, true), ...toQueue('/sitemap_index.xml', 0, true));

  let files = 0;
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (urls.length >= options.maxUrls || options.signal?.aborted) break;
    if (files >= limits.maxSitemapFiles) {
      warnings.push(`Stopped reading sitemaps after ${limits.maxSitemapFiles} files`);
      break;
    }
    files++;
    let parsed: ParsedSitemap;
    try {
      const content = await fetchSitemapText(options.fetcher, next.url, limits.maxSitemapBytes, options.signal);
      if (content === null) {
        if (!next.guessed) warnings.push(`Sitemap ${next.url} could not be read (not found or not a sitemap)`);
        continue;
      }
      parsed = parseSitemap(content, { maxUrls: limits.maxUrlsPerSitemap, maxUrlLength: limits.maxUrlLength });
    } catch (err) {
      if (err instanceof FetchError && err.code === 'ABORTED') break;
      warnings.push(`Sitemap ${next.url}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    if (parsed.kind === 'unknown' && !next.guessed) warnings.push(`Sitemap ${next.url} is not a sitemap`);
    if (parsed.sitemaps.length > 0 && next.depth + 1 > limits.maxSitemapDepth) {
      warnings.push(`Sitemap index nesting deeper than ${limits.maxSitemapDepth} levels ignored at ${next.url}`);
    } else {
      queue.unshift(...parsed.sitemaps.flatMap((child) => toQueue(child, next.depth + 1, false)));
    }
    for (const entry of parsed.urls) {
      if (urls.length >= options.maxUrls) break;
      if (found.has(entry.url) || !isInScope(entry.url, options.scope)) continue;
      if (options.isAllowed && !options.isAllowed(entry.url)) continue;
      found.add(entry.url);
      urls.push(entry);
      options.onUrl?.(entry);
    }
  }
  return { urls, files, warnings };
}

/** The sitemap as text, or null for a non-2xx answer. Gzip is undone with the same cap. */
async function fetchSitemapText(fetcher: Fetcher, url: string, maxBytes: number, signal?: AbortSignal): Promise<string | null> {
  const res = await fetcher.fetch(url, {
    signal,
    maxBytes,
    accept: 'application/xml,text/xml,text/plain;q=0.9,*/*;q=0.5',
  });
  if (res.status < 200 || res.status > 299) return null;
  // sitemap.xml.gz is usually served as application/gzip, without Content-Encoding.
  const body = isGzip(res.body) ? await gunzipCapped(res.body, maxBytes) : res.body;
  return decodeBody(body, res.contentType);
}
