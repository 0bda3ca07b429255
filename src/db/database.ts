import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzlePg, drizzlePglite, migratePg, migratePglite } from './orm.ts';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';
import { pgliteNotifications, postgresNotifications, type Notifications } from './notifications.ts';
import { ensurePgliteDataDir } from './pglite-initdb.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
/** Either the database or an open transaction: logic that must join its caller's transaction takes this. */
export type Queryable = Database | Transaction;

/** The rows of a raw `db.execute(sql…)`: node-postgres answers `{ rows }`, PGlite's driver the rows themselves. */
export const rowsOf = (result: unknown): any[] => (result as { rows?: any[] }).rows ?? (result as any[]);

/** A raw-SQL door (`text + $n values`, the shape pg-boss's adapters have), over the same connection(s). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: Database;
  sql: SqlExecutor;
  /** For PostgreSQL: the connection string, so pg-boss can open connections of its own. */
  connectionString: string | null;
  /** For PGlite: the client itself, which pg-boss reaches through its PGlite adapter. */
  pglite: PGlite | null;
  /**
   * Runs `work` while no other process of the service runs its own `exclusively` work: schema
   * migrations and job-queue creation, which processes started at once must not interleave.
   * A PostgreSQL advisory lock; PGlite belongs to one process, so there it just runs.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /** NOTIFY as other processes' commits announce it (see notifications.ts). */
  notifications: Notifications;
  /**
   * Calls `listener` each time a transaction this process opened (`db.transaction`) has
   * committed: a cache in this process forgets what the transaction may have changed before the
   * caller goes on, so a client reads its own writes (other processes learn it from NOTIFY).
   */
  afterCommit(listener: () => void): () => void;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball. */
  dump?: () => Promise<Blob>;
}

export const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));

export interface OpenDatabaseOptions {
  /** postgres:// URL; without it, PGlite */
  databaseUrl: string | null;
  /** PGlite data directory, or `memory://` */
  dataDir: string;
  poolSize?: number;
  /** A PGlite data directory dump to start from (tests start from a migrated template). */
  pgliteTemplate?: Blob;
}

/** Opens the database the configuration names and brings its schema up to date. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.databaseUrl ? openPostgres(options.databaseUrl, options.poolSize) : await openPglite(options.dataDir, options.pgliteTemplate);
  try {
    await handle.exclusively(() =>
      handle.kind === 'pglite' ? migratePglite(handle.db as never, { migrationsFolder }) : migratePg(handle.db as never, { migrationsFolder }),
    );
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * One process's database needs far less than PGlite's default shared buffers, which it keeps in a
 * WebAssembly heap that never gives memory back. 16 MB was as fast in the generation benchmark as
 * the larger settings, with a lower peak; less gained nothing more (bench/HISTORY.md).
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB'];

/** Makes `db.transaction` tell `listeners` when it has committed. */
function announcingCommits(db: Database): { db: Database; afterCommit: (listener: () => void) => () => void } {
  const listeners = new Set<() => void>();
  const transaction = db.transaction.bind(db);
  db.transaction = (async (work, config) => {
    const result = await transaction(work, config);
    for (const listener of listeners) listener();
    return result;
  }) as typeof db.transaction;
  return {
    db,
    afterCommit(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

async function openPglite(dataDir: string, template?: Blob): Promise<DatabaseHandle> {
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    if (!template) ensurePgliteDataDir(dataDir);
  }
  const client = await PGlite.create(dataDir, { ...(template ? { loadDataDir: template } : {}), postgresqlconf: PGLITE_SETTINGS });
  const notifications = pgliteNotifications(client);
  return {
    dump: () => client.dumpDataDir('none'),
    kind: 'pglite',
    ...announcingCommits(drizzlePglite(client, { schema }) as unknown as Database),
    notifications,
    sql: {
      // Multi-statement scripts come without parameters: those need exec(), not a prepared query.
      async executeSql(text, values) {
        if (values && values.length > 0) return client.query(text, values as any[]);
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      },
    },
    connectionString: null,
    pglite: client,
    exclusively: (work) => work(),
    async close() {
      await notifications.close();
      await client.close();
    },
  };
}

function openPostgres(connectionString: string, poolSize = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle client's network error must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const notifications = postgresNotifications(connectionString);
  return {
    kind: 'postgres',
    ...announcingCommits(drizzlePg(pool, { schema }) as unknown as Database),
    notifications,
    sql: { executeSql: (text, values) => pool.query(text, values as any[]) },
    connectionString,
    pglite: null,
    async exclusively(work) {
      // Session-level: held by this one connection until it unlocks, whatever `work` runs on.
      const holder = await pool.connect();
      try {
        await holder.query(`SELECT pg_advisory_lock(hashtext('llmstxt:schema'))`);
        return await work();
      } finally {
        await holder.query(`SELECT pg_advisory_unlock(hashtext('llmstxt:schema'))`).catch(() => {});
        holder.release();
      }
    },
    async close() {
      await notifications.close();
      await pool.end();
    },
  };
}
