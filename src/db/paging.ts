import { count, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
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
 * One page of a listing and the number of rows it has in all, read together. `readRows` gets
 * the window to apply (`.limit(limit).offset(offset)`) to its own ordered query.
 */
export async function readPage<T>(
  db: Database,
  listing: { table: PgTable; where: SQL | undefined },
  request: PageRequest,
  readRows: (window: { limit: number; offset: number }) => Promise<T[]>,
): Promise<Page<T>> {
  const [rows, [{ total }]] = await Promise.all([
    readRows({ limit: request.limit, offset: (request.page - 1) * request.limit }),
    db.select({ total: count() }).from(listing.table).where(listing.where),
  ]);
  return { rows, total, page: request.page, totalPages: Math.ceil(total / request.limit) };
}
