/** A page's hosted markdown copy, as the file route answers it (paths: markdown-paths.ts). */
import type { Database } from '../db/database.ts';
import { and, asc, eq } from '../db/orm.ts';
import { mappedUrls } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { answerText, type ServedFiles, type SiteFileAnswer } from './served-files.ts';
import { contentEtag } from './site-files.ts';

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
