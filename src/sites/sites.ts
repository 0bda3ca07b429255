/** Sites: one per (account, normalized URL), with their mapped URLs, hosted files and markdown export. */
import { and, asc, desc, eq, inArray } from '../db/orm.ts';
import pLimit from 'p-limit';
import { createFetcher, type CrawlOptions, type RobotsCache } from '../crawl/index.ts';
import type { Database } from '../db/database.ts';
import { readPage, type PageRequest } from '../db/paging.ts';
import { accounts, generationJobs, mappedUrls, siteFiles, sites } from '../db/schema.ts';
import type { FileSizes } from '../generation/options.ts';
import { errors } from '../errors.ts';
import { readPageLive } from './live-page.ts';

export type Site = typeof sites.$inferSelect;
export const SITE_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export const MAPPED_URL_STATUSES = ['pending', 'scraped', 'failed'] as const;

/** The caller's site: 404 when there is none, 403 when it is another account's. */
export async function getOwnedSite(db: Database, accountId: string, siteId: string): Promise<Site> {
  const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
  if (!site) throw errors.siteNotFound();
  if (site.accountId !== accountId) throw errors.siteAccessDenied();
  return site;
}

export async function listSites(db: Database, accountId: string, query: PageRequest & { status?: string }) {
  const where = and(eq(sites.accountId, accountId), query.status ? eq(sites.status, query.status) : undefined);
  const ordered = db.select().from(sites).where(where).orderBy(desc(sites.updatedAt), desc(sites.id)).$dynamic();
  const { rows, ...page } = await readPage(db, { table: sites, where }, query, ordered);
  return { sites: rows, ...page };
}

export async function deleteSite(db: Database, accountId: string, siteId: string): Promise<void> {
  await getOwnedSite(db, accountId, siteId);
  await db.delete(sites).where(and(eq(sites.id, siteId), eq(sites.accountId, accountId)));
}

export interface SiteFilesSummary {
  /** The kinds of file the site has ('llms', 'full'). */
  kinds: Set<string>;
  /** Their sizes; null for a file stored before sizes were kept. */
  sizes: FileSizes;
}

/** Which files each site has (for fullTextUrl), and their sizes. */
export async function filesBySite(db: Database, siteIds: string[]): Promise<Map<string, SiteFilesSummary>> {
  const files = new Map<string, SiteFilesSummary>(siteIds.map((id) => [id, { kinds: new Set(), sizes: { llmsTxt: null, llmsFullTxt: null } }]));
  if (siteIds.length === 0) return files;
  const rows = await db
    .select({ siteId: siteFiles.siteId, kind: siteFiles.kind, bytes: siteFiles.bytes, tokens: siteFiles.tokens })
    .from(siteFiles)
    .where(and(inArray(siteFiles.siteId, siteIds), inArray(siteFiles.kind, ['llms', 'full'])));
  for (const { siteId, kind, bytes, tokens } of rows) {
    const site = files.get(siteId)!;
    site.kinds.add(kind);
    const size = bytes === null || tokens === null ? null : { bytes, tokens };
    if (kind === 'full') site.sizes.llmsFullTxt = size;
    if (kind === 'llms') site.sizes.llmsTxt = size;
  }
  return files;
}

export interface LastFailure {
  jobId: string;
  message: string;
  at: Date;
}

/** Why each failed site failed: the error of its latest job (a site's status is its latest job's, see site-status.ts). */
export async function lastFailures(db: Database, candidates: readonly Site[]): Promise<Map<string, LastFailure>> {
  const ids = candidates.filter((site) => site.status === 'failed').map((site) => site.id);
  if (ids.length === 0) return new Map();
  const latest = await db
    .selectDistinctOn([generationJobs.siteId], { siteId: generationJobs.siteId, jobId: generationJobs.id, status: generationJobs.status, error: generationJobs.error, at: generationJobs.completedAt })
    .from(generationJobs)
    .where(inArray(generationJobs.siteId, ids))
    .orderBy(generationJobs.siteId, desc(generationJobs.createdAt), desc(generationJobs.id));
  return new Map(
    latest
      .filter((job) => job.status === 'failed')
      .map((job) => [job.siteId, { jobId: job.jobId, message: job.error ?? '', at: job.at ?? new Date(0) }]),
  );
}

export async function listMappedUrls(db: Database, accountId: string, siteId: string, query: PageRequest & { status?: string }) {
  await getOwnedSite(db, accountId, siteId);
  const where = and(eq(mappedUrls.siteId, siteId), query.status ? eq(mappedUrls.status, query.status) : undefined);
  const { rows, ...page } = await readPage(
    db,
    { table: mappedUrls, where },
    query,
    db
      .select({
        id: mappedUrls.id,
        siteId: mappedUrls.siteId,
        url: mappedUrls.url,
        title: mappedUrls.title,
        description: mappedUrls.description,
        status: mappedUrls.status,
        lastModified: mappedUrls.lastModified,
      })
      .from(mappedUrls)
      .where(where)
      .orderBy(asc(mappedUrls.position))
      .$dynamic(),
  );
  return { urls: rows, ...page };
}

export interface ExportedPage {
  url: string;
  title: string;
  markdown: string;
}

const FRESH_FETCH_CONCURRENCY = 6;

/**
 * The markdown of a site's scraped pages, from the last generation, or fetched again (`fresh`).
 * Pages the generation did not read (`simple` without llms-full.txt) are fetched now. Paid plans
 * only; fetched markdown replaces the stored copy. Pages robots.txt disallows (or all, while it
 * cannot be read) are not fetched: they keep their stored markdown.
 */
export async function exportMarkdown(
  deps: { db: Database; crawl: CrawlOptions; robots: RobotsCache },
  accountId: string,
  siteId: string,
  fresh: boolean,
): Promise<ExportedPage[]> {
  const { db } = deps;
  await getOwnedSite(db, accountId, siteId);
  const [account] = await db.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId));
  if (!account || account.plan === 'free') throw errors.markdownExportRequiresPaidPlan();
  const pages = await db
    .select({ id: mappedUrls.id, url: mappedUrls.url, title: mappedUrls.title, markdown: mappedUrls.markdown })
    .from(mappedUrls)
    .where(and(eq(mappedUrls.siteId, siteId), eq(mappedUrls.status, 'scraped')))
    .orderBy(asc(mappedUrls.position));
  await refetchMarkdown(deps, fresh ? pages : pages.filter((page) => page.markdown === null));
  return pages.map((p) => ({ url: p.url, title: p.title, markdown: p.markdown ?? '' }));
}

async function refetchMarkdown(
  { db, crawl, robots: robotsCache }: { db: Database; crawl: CrawlOptions; robots: RobotsCache },
  pages: Array<{ id: string; url: string; markdown: string | null }>,
) {
  if (pages.length === 0) return;
  const fetcher = createFetcher({ ...crawl });
  const refresh = async (page: (typeof pages)[number]) => {
    const read = await readPageLive({ crawl, robots: robotsCache }, fetcher, page.url);
    // A page that cannot be fetched now (or robots.txt disallows) keeps its stored markdown.
    if (!('markdown' in read)) return;
    page.markdown = read.markdown;
    await db.update(mappedUrls).set({ markdown: page.markdown, updatedAt: new Date() }).where(eq(mappedUrls.id, page.id));
  };
  try {
    await pLimit(FRESH_FETCH_CONCURRENCY).map(pages, refresh);
  } finally {
    await fetcher.close();
  }
}

/** One markdown document of the whole site, for download. */
export function combineMarkdown(siteUrl: string, pages: ExportedPage[]): string {
  const parts = pages.map((p) => `# ${p.title || p.url}\n\nSource: ${p.url}\n\n${p.markdown.trim()}\n`);
  return `<!-- Markdown export of ${siteUrl} -->\n\n${parts.join('\n---\n\n')}`;
}
