// One spelling per page, so that a job fetches each page once however it is linked.

export const DEFAULT_MAX_URL_LENGTH = 2048;

/**
 * Resolves `input` against `base` and returns the normalized http(s) URL, or null when it
 * is not one we would fetch (other scheme, unparsable, too long).
 * The WHATWG parser already lowercases scheme and host, drops default ports and resolves
 * dot segments; this adds: no fragment, no credentials, query parameters sorted by name.
 */
export function normalizeUrl(
  input: string,
  base?: string | URL,
  maxLength = DEFAULT_MAX_URL_LENGTH,
): string | null {
  return resolveUrl(input, base, maxLength)?.normalized ?? null;
}

/**
 * normalizeUrl's answer beside the URL as written (resolved, without its fragment), from one
 * parse: the crawler resolves every link of every page, and robots.txt must allow both spellings.
 */
export function resolveUrl(input: string, base?: string | URL, maxLength = DEFAULT_MAX_URL_LENGTH): { normalized: string; written: string } | null {
  if (input.length > maxLength) return null;
  const resolved = typeof base === 'string' ? resolvedAgainst(base, input) : parseLink(input, base);
  return resolved !== null && resolved.normalized.length <= maxLength ? resolved : null;
}

type Resolved = { normalized: string; written: string } | null;

/**
 * Links resolved lately, by the part of the base their resolution depends on and their text: a
 * site's pages link the same pages from the same folders (its menu, its neighbours), and a page's
 * link scan and the generator's reading of it resolve the same links. Per thread; emptied when full.
 */
const resolvedLinks = new Map<string, Resolved>();
const MAX_RESOLVED_LINKS = 8192;

function resolvedAgainst(base: string, input: string): Resolved {
  const baseKey = resolutionBase(base, input);
  // The key is a new string, which does not keep the page the link was sliced from alive; a base
  // holding a newline (none that a URL serializes) could make two keys one.
  if (baseKey.includes('\n')) return parseLink(input, base);
  const key = `${baseKey}\n${input}`;
  let resolved = resolvedLinks.get(key);
  if (resolved === undefined) {
    if (resolvedLinks.size >= MAX_RESOLVED_LINKS) resolvedLinks.clear();
    resolvedLinks.set(key, (resolved = parseLink(input, base)));
  }
  return resolved;
}

/** A base written as a plain http(s) URL: no query, fragment, credentials, backslash or white space. */
const PLAIN_BASE = /^https?:\/\/[^/?#\\\s@]*\/[^?#\\\s]*$/i;
/** A path segment that moves up or stays: the base's folder is not what it reads as. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * What of the base a link's resolution depends on: its folder, for a link that names a path, a
 * host or a scheme (most links) against a plain base; the whole base for a link that is empty,
 * starts with '?' or '#' (or anything the parser strips first), or against any other base.
 */
function resolutionBase(base: string, input: string): string {
  const first = input.charCodeAt(0);
  if (!(first > 0x20) || first === 0x3f /* ? */ || first === 0x23 /* # */ || !PLAIN_BASE.test(base)) return base;
  const folderEnd = base.lastIndexOf('/') + 1;
  return DOT_SEGMENT.test(base.slice(folderEnd)) ? base : base.slice(0, folderEnd);
}

function parseLink(input: string, base: string | URL | undefined): Resolved {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const written = withoutFragment(url.href);
  let href = written;
  if (url.username || url.password) {
    url.username = '';
    url.password = '';
    href = withoutFragment(url.href);
  }
  // Edited as a string: URL's setters re-parse the whole URL, and this runs for every
  // link of every page. In a serialized href the first '?' starts the query (it is
  // percent-encoded anywhere before).
  const query = href.indexOf('?');
  if (query !== -1) href = href.slice(0, query) + sortQuery(href.slice(query));
  return { normalized: href, written };
}

/** A serialized URL without its fragment: the first '#' starts it (it is percent-encoded anywhere before). */
function withoutFragment(href: string): string {
  const hash = href.indexOf('#');
  return hash === -1 ? href : href.slice(0, hash);
}

// URLSearchParams.sort() would re-encode values (%20 becomes +), which some servers read
// differently; sorting the raw pairs keeps every byte the site chose.
function sortQuery(search: string): string {
  const pairs = search.slice(1).split('&').filter((pair) => pair.length > 0);
  if (pairs.length === 0) return '';
  if (pairs.length > 1) {
    const key = (pair: string) => {
      const eq = pair.indexOf('=');
      return eq === -1 ? pair : pair.slice(0, eq);
    };
    // Array.prototype.sort is stable, so repeated keys keep their order.
    pairs.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  }
  return '?' + pairs.join('&');
}

/** The part of a site a job covers: one host (any scheme) and, optionally, a path below it. */
export interface Scope {
  host: string;
  /** Always ends with '/'; '/' means the whole host. */
  pathPrefix: string;
  /** The start path itself when it names a folder without the trailing slash (`/docs`). */
  exactPath: string | null;
}

/**
 * A start URL's folder bounds the job: `/docs/intro.html` and `/docs/` cover `/docs/`,
 * and `/docs` (no extension, so read as a folder) covers `/docs` and `/docs/`.
 */
export function scopeOf(startUrl: string): Scope {
  const url = new URL(startUrl);
  const path = url.pathname;
  if (path.endsWith('/')) return { host: url.host, pathPrefix: path, exactPath: null };
  const lastSlash = path.lastIndexOf('/');
  const lastSegment = path.slice(lastSlash + 1);
  if (lastSegment.includes('.')) {
    return { host: url.host, pathPrefix: path.slice(0, lastSlash + 1), exactPath: null };
  }
  return { host: url.host, pathPrefix: path + '/', exactPath: path };
}

export function isInScope(url: string | URL, scope: Scope): boolean {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.host !== scope.host) return false;
  const path = parsed.pathname;
  return path.startsWith(scope.pathPrefix) || path === scope.exactPath;
}

/**
 * A faster isInScope for URLs that came out of normalizeUrl (the crawler tests every link
 * on every page): their href is canonical, so plain string prefixes decide.
 */
export function scopeMatcher(scope: Scope): (normalizedUrl: string) => boolean {
  const prefixes = ['http://', 'https://'].map((scheme) => scheme + scope.host + scope.pathPrefix);
  const exact = scope.exactPath === null ? [] : ['http://', 'https://'].map((scheme) => scheme + scope.host + scope.exactPath);
  return (url) => {
    for (const prefix of prefixes) if (url.startsWith(prefix)) return true;
    for (const base of exact) {
      if (url.startsWith(base) && (url.length === base.length || url[base.length] === '?')) return true;
    }
    return false;
  };
}
