/**
 * A job's URL filters: `includePaths` and `excludePaths`, glob patterns on the URL's path, read
 * the way .gitignore reads them (picomatch does the matching):
 * - `*` stays within a segment, `**` crosses segments, `?` is one character, `{a,b}` either;
 * - a pattern starting with `/` is anchored at the site's root; any other matches at any depth
 *   (`404.html` is `**` + `/404.html`);
 * - a pattern also covers everything below what it names (`/docs` covers `/docs/intro`).
 * A URL is listed when it matches an include pattern (or there are none) and no exclude pattern:
 * exclusions win. Excluded URLs are not fetched at all.
 */
import picomatch from 'picomatch';

export interface PathFilters {
  includePaths: string[];
  excludePaths: string[];
}

export const NO_PATH_FILTERS: PathFilters = { includePaths: [], excludePaths: [] };

export const MAX_PATH_PATTERNS = 50;
export const MAX_PATH_PATTERN_CHARS = 200;

export interface PathMatcher {
  /** The URL may be fetched (no exclude pattern matches it). */
  fetchable(url: string): boolean;
  /** The URL may be listed: fetchable, and included when there are include patterns. */
  listed(url: string): boolean;
}

/** Why a list of patterns cannot be used (e.g. `excludePaths[1]: "/docs/[a" is not a valid glob pattern`), or null. */
export function invalidPathPattern(field: keyof PathFilters, patterns: readonly string[]): string | null {
  for (const [index, pattern] of patterns.entries()) {
    const name = `${field}[${index}]`;
    if (!pattern.trim()) return `${name} is empty`;
    if (/[\s#]/.test(pattern)) return `${name} "${pattern}" must be a path pattern, without spaces or a fragment`;
    try {
      picomatch.makeRe(anchored(pattern), { strictBrackets: true, dot: true });
    } catch {
      return `${name} "${pattern}" is not a valid glob pattern`;
    }
  }
  return null;
}

export function pathMatcher(filters: PathFilters): PathMatcher {
  const matches = (patterns: readonly string[]) => {
    if (patterns.length === 0) return null;
    const test = picomatch(patterns.flatMap(expand), { dot: true });
    return (url: string) => {
      const path = pathOf(url);
      return path !== null && test(path);
    };
  };
  const included = matches(filters.includePaths);
  const excluded = matches(filters.excludePaths);
  const fetchable = (url: string) => !excluded?.(url);
  return { fetchable, listed: (url) => fetchable(url) && (included?.(url) ?? true) };
}

export function hasPathFilters(filters: PathFilters): boolean {
  return filters.includePaths.length > 0 || filters.excludePaths.length > 0;
}

function anchored(pattern: string): string {
  return pattern.startsWith('/') ? pattern : `**/${pattern}`;
}

/** The pattern itself and everything below it. */
function expand(pattern: string): string[] {
  const base = withoutTrailingSlashes(anchored(pattern));
  return base.endsWith('/**') ? [base] : [base || '/', `${base}/**`];
}

// Cut by hand: /\/+$/ reads a run of slashes to its end from each of them.
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

function pathOf(url: string): string | null {
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return null;
  }
}
