/**
 * What a site keeps from its generation before the latest: the previous llms.txt and llms-full.txt
 * (site_files kinds `previous-llms`, `previous-full`), and a short account of how the list changed.
 */
import { and, eq, inArray, sql } from '../db/orm.ts';
import type { Transaction } from '../db/database.ts';
import { mappedUrls, siteFiles } from '../db/schema.ts';

export interface ListChange {
  at: string;
  added: string[];
  removed: string[];
  retitled: Array<{ url: string; from: string; to: string }>;
}

/** The listed pages added, removed and retitled since the last generation; null for the first one. */
export async function listChange(tx: Transaction, siteId: string, pages: ReadonlyArray<{ url: string; title: string }>, at: Date): Promise<ListChange | null> {
  const before = await tx
    .select({ url: mappedUrls.url, title: mappedUrls.title })
    .from(mappedUrls)
    .where(and(eq(mappedUrls.siteId, siteId), eq(mappedUrls.status, 'scraped')));
  if (before.length === 0) return null;
  const oldTitles = new Map(before.map((page) => [page.url, page.title]));
  const now = new Set(pages.map((page) => page.url));
  return {
    at: at.toISOString(),
    added: pages.filter((page) => !oldTitles.has(page.url)).map((page) => page.url),
    removed: before.filter((page) => !now.has(page.url)).map((page) => page.url),
    retitled: pages
      .filter((page) => oldTitles.has(page.url) && oldTitles.get(page.url) !== page.title)
      .map((page) => ({ url: page.url, from: oldTitles.get(page.url)!, to: page.title })),
  };
}

/** The current files become the previous ones, before the new ones replace them. */
/** Renamed in place: the files (megabytes for llms-full.txt) never leave the database. */
export async function keepPreviousFiles(tx: Transaction, siteId: string): Promise<void> {
  await tx.delete(siteFiles).where(and(eq(siteFiles.siteId, siteId), inArray(siteFiles.kind, ['previous-llms', 'previous-full'])));
  await tx
    .update(siteFiles)
    .set({ kind: sql`'previous-' || ${siteFiles.kind}` })
    .where(and(eq(siteFiles.siteId, siteId), inArray(siteFiles.kind, ['llms', 'full'])));
}
