/**
 * Where a page's markdown copy is hosted: under its site's file URL, at `pages/` and the page's
 * path with `.md` (`/docs/intro` → `pages/docs/intro.md`, `/docs/` → `pages/docs/index.md`). The
 * path is kept percent-encoded as the page's URL has it, so the route compares what it was sent.
 */
import type { Database } from '../db/database.ts';
import { and, asc, eq } from '../db/orm.ts';
import { mappedUrls } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { fileUrls } from '../http/paths.ts';
import { answerText, type ServedFiles, type SiteFileAnswer } from './served-files.ts';
import { contentEtag } from './site-files.ts';

export const HOSTED_PAGES = 'pages/';

/** `{file URL}/pages/` of a site. */
export function hostedMarkdownBase(publicUrl: string, siteId: string): string {
  return `${fileUrls(publicUrl, siteId).fileUrl}/${HOSTED_PAGES}`;
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

/** A page's hosted markdown (public, like the site's files), from its last completed generation. */
export async function answerPageMarkdown(
  db: Database,
  files: ServedFiles,
  siteId: string,
  path: string,
  request: { acceptEncoding?: string; ifNoneMatch?: string },
): Promise<SiteFileAnswer> {
  const [page] = await db
    .select({ markdown: mappedUrls.markdown, updatedAt: mappedUrls.updatedAt })
    .from(mappedUrls)
    .where(and(eq(mappedUrls.siteId, siteId), eq(mappedUrls.markdownPath, path), eq(mappedUrls.status, 'scraped')))
    .orderBy(asc(mappedUrls.position))
    .limit(1);
  if (!page?.markdown) throw errors.fileNotFound();
  const markdown = page.markdown;
  const answer = await answerText(files, { etag: contentEtag(markdown), updatedAt: page.updatedAt }, async () => Buffer.from(markdown), request);
  return answer!;
}
