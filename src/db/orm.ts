/**
 * drizzle-orm, from its CommonJS build: every value the code uses comes through here. The same
 * library, version and types as its ES-module build, which costs a Node 24 process memory for
 * good at start: Node reads drizzle-orm's large `exports` map again for each of the hundreds of
 * modules it loads (docs/decisions/process-memory.md). Type-only imports may name drizzle-orm
 * itself; `orm.test.ts` checks that no value import does.
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export type { SQL } from 'drizzle-orm';
export const { and, asc, count, desc, DrizzleQueryError, eq, getTableColumns, getTableName, gt, gte, inArray, is, isNull, like, lt, ne, or, sql } =
  load('drizzle-orm') as typeof import('drizzle-orm');

export type PgTable = import('drizzle-orm/pg-core').PgTable;
export const { PgTable, boolean, check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } =
  load('drizzle-orm/pg-core') as typeof import('drizzle-orm/pg-core');

export const { drizzle: drizzlePglite } = load('drizzle-orm/pglite') as typeof import('drizzle-orm/pglite');
export const { migrate: migratePglite } = load('drizzle-orm/pglite/migrator') as typeof import('drizzle-orm/pglite/migrator');
export const { drizzle: drizzlePg } = load('drizzle-orm/node-postgres') as typeof import('drizzle-orm/node-postgres');
export const { migrate: migratePg } = load('drizzle-orm/node-postgres/migrator') as typeof import('drizzle-orm/node-postgres/migrator');
