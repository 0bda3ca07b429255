/**
 * What the MCP tools read: the caller's sites and their hosted files, a listed page's markdown
 * (stored, or read now), and full-text search over the pages a generation stored. Every read is
 * checked against the caller's account, as the API's are.
 */
import { and, desc, eq, sql } from '../db/orm.ts';
import { createFetcher, normalizeUrl, type CrawlOptions, type RobotsCache } from '../crawl/index.ts';
import { rowsOf, type Database } from '../db/database.ts';
import { mappedUrls, sites } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { parseTargetUrl } from '../job-input/target-url.ts';
import { readPageLive } from '../sites/live-page.ts';
import { readSiteFileBytes, siteFileVersion } from '../sites/site-files.ts';
import { getOwnedSite, type Site } from '../sites/sites.ts';

/** A live `get_page` read: the whole exchange, and the page's size (a generation allows more, on a worker). */
const LIVE_PAGE_TIMEOUT_MS = 20_000;
const LIVE_PAGE_MAX_BYTES = 2 * 1024 * 1024;

/** The text search configuration: English stemming ("configure" finds "configuration"). */
const SEARCH_CONFIG = 'english';

/** The caller's site named by its id or by its URL (as given to `POST /generate`). */
export async function findSite(db: Database, accountId: string, idOrUrl: string): Promise<Site> {
  if (!/^https?:\/\//i.test(idOrUrl.trim())) return getOwnedSite(db, accountId, idOrUrl);
  const [site] = await db
    .select()
    .from(sites)
    .where(and(eq(sites.accountId, accountId), eq(sites.url, parseTargetUrl(idOrUrl))));
  if (!site) throw errors.siteNotFound();
  return site;
}

/** A site's hosted llms.txt (or llms-full.txt) as text; 404 `File not found` before its first success. */
export async function readHostedFile(db: Database, siteId: string, kind: 'llms' | 'full'): Promise<string> {
  const { etag } = await siteFileVersion(db, siteId, kind);
  const bytes = await readSiteFileBytes(db, siteId, kind, etag);
  if (!bytes) throw errors.fileNotFound();
  return bytes.toString('utf8');
}

export interface PageDeps {
  db: Database;
  crawl: CrawlOptions;
  robots: RobotsCache;
}

/**
 * The markdown of a page one of the caller's sites lists (in `siteId` when given): as the last
 * generation stored it, else read now through the crawler.
 */
export async function readListedPage(deps: PageDeps, accountId: string, url: string, siteId?: string) {
  const normalized = normalizeUrl(url.trim());
  if (!normalized) throw errors.validation('url must be a valid http or https URL');
  const [page] = await deps.db
    .select({ url: mappedUrls.url, title: mappedUrls.title, markdown: mappedUrls.markdown, siteId: mappedUrls.siteId })
    .from(mappedUrls)
    .innerJoin(sites, eq(sites.id, mappedUrls.siteId))
    .where(and(eq(sites.accountId, accountId), eq(mappedUrls.url, normalized), eq(mappedUrls.status, 'scraped'), siteId ? eq(sites.id, siteId) : undefined))
    .orderBy(desc(mappedUrls.updatedAt))
    .limit(1);
  if (!page) throw errors.pageNotListed();
  if (page.markdown !== null) return { ...page, markdown: page.markdown, source: 'stored' as const };
  const fetcher = createFetcher({ ...deps.crawl, limits: { ...deps.crawl.limits, maxPageBytes: LIVE_PAGE_MAX_BYTES, requestTimeoutMs: LIVE_PAGE_TIMEOUT_MS } });
  try {
    const read = await readPageLive(deps, fetcher, page.url, AbortSignal.timeout(LIVE_PAGE_TIMEOUT_MS));
    if (!('markdown' in read)) throw errors.pageUnreadable(read.refused);
    return { ...page, markdown: read.markdown, source: 'fetched' as const };
  } finally {
    await fetcher.close();
  }
}

export interface SearchHit {
  url: string;
  title: string;
  rank: number;
  passage: string;
}

/**
 * The site's stored pages that match `query` (web-search syntax: words, "a phrase", -not, or),
 * best first, each with its best passages. PostgreSQL's own text search, so it runs alike on the
 * embedded database and the server; vectors are made per query (one site's pages, at most 1,000).
 */
export async function searchSite(db: Database, siteId: string, query: string, limit: number): Promise<SearchHit[]> {
  const [stored] = await db
    .select({ pages: sql<number>`count(*)::int` })
    .from(mappedUrls)
    .where(and(eq(mappedUrls.siteId, siteId), eq(mappedUrls.status, 'scraped'), sql`${mappedUrls.markdown} is not null`));
  if (!stored || stored.pages === 0) throw errors.searchNeedsStoredPages();
  const config = sql.raw(`'${SEARCH_CONFIG}'::regconfig`);
  const rows = await db.execute(sql`
    with q as (select websearch_to_tsquery(${config}, ${query}) as query),
    best as (
      select p.url, p.title, p.markdown, ts_rank(to_tsvector(${config}, p.title || ' ' || p.markdown), q.query) as rank, p.position
      from ${mappedUrls} p, q
      where p.site_id = ${siteId} and p.status = 'scraped' and p.markdown is not null
        and to_tsvector(${config}, p.title || ' ' || p.markdown) @@ q.query
      order by rank desc, p.position
      limit ${limit}
    )
    select best.url, best.title, best.rank::float8 as rank,
      ts_headline(${config}, best.markdown, q.query, 'MaxFragments=2, MinWords=12, MaxWords=40, StartSel=**, StopSel=**, FragmentDelimiter=" … "') as passage
    from best, q
    order by best.rank desc, best.position`);
  return rowsOf(rows).map((row) => ({ url: String(row.url), title: String(row.title), rank: Number(row.rank), passage: String(row.passage) }));
}
