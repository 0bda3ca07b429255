/**
 * Where a page's markdown copy is hosted: under its site's file URL, at `pages/` and the page's
 * path with `.md` (`/docs/intro` → `pages/docs/intro.md`, `/docs/` → `pages/docs/index.md`). The
 * path is kept percent-encoded as the page's URL has it, so the route compares what it was sent.
 * Apart from the route's answer (hosted-markdown.ts): a generation thread computes these links.
 */
import { API_PREFIX, HOSTED_PAGE_ROUTE } from '../http/paths.ts';

/** What comes before a page's path in its copy's URL path: `/file/{siteId}/pages/`. */
export function hostedPagesPrefix(siteId: string): string {
  return HOSTED_PAGE_ROUTE.replace(':siteId', encodeURIComponent(siteId)).slice(0, -1);
}

/** `{file URL}/pages/` of a site. */
export function hostedMarkdownBase(publicUrl: string, siteId: string): string {
  return publicUrl + API_PREFIX + hostedPagesPrefix(siteId);
}

/** A page's copy's path below `pages/`: a query becomes part of the name (`?` and `=` encoded). */
export function hostedMarkdownPath(pageUrl: string): string {
  const url = new URL(pageUrl);
  let path = url.pathname.slice(1);
  if (path === '' || path.endsWith('/')) path += 'index';
  if (url.search !== '') path += encodeURIComponent(url.search);
  return `${path}.md`;
}

export function hostedMarkdownUrl(base: string, pageUrl: string): string {
  return base + hostedMarkdownPath(pageUrl);
}
