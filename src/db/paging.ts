import { count, type SQL } from './orm.ts';
import type { PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './database.ts';

/** Which page of a listing a caller asks for (pages count from 1). */
export interface PageRequest {
  page: number;
  limit: number;
}

export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  totalPages: number;
}

/**
 * One page of a listing and the number of rows it has in all, read together. `rows` is the
 * listing's ordered query (`.$dynamic()`), to which the page's window is applied here.
 */
export async function readPage<Q extends PgSelect>(
  db: Database,
  listing: { table: PgTable; where: SQL | undefined },
  request: PageRequest,
  rows: Q,
): Promise<Page<Awaited<Q>[number]>> {
  const [found, [{ total }]] = await Promise.all([
    rows.limit(request.limit).offset((request.page - 1) * request.limit),
    db.select({ total: count() }).from(listing.table).where(listing.where),
  ]);
  return { rows: found as Awaited<Q>[number][], total, page: request.page, totalPages: Math.ceil(total / request.limit) };
}
