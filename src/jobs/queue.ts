/**
 * The job queue: pg-boss on the service's own database (PostgreSQL, or PGlite through pg-boss's
 * `db` adapter). A job is sent inside the request's transaction, so it exists exactly when the
 * rows (and the credit reservation) that describe it do.
 */
import PgBoss from 'pg-boss';
import { sql, type SQL } from 'drizzle-orm';
import type { DatabaseHandle, Queryable } from '../db/database.ts';

export const QUEUES = ['discovery', 'generation'] as const;
export type QueueName = (typeof QUEUES)[number];

export interface QueuedJob {
  jobId: string;
}

export interface QueueOptions {
  pollingIntervalSeconds: number;
  /** pg-boss gives a fetched job this long before it may hand it out again; longer than any job runs. */
  expireInSeconds: number;
}

// The pg driver turns objects into JSON by itself; drizzle's parameters need it done here.
const asParameter = (value: unknown) => value === undefined ? null :
  value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value;

/** pg-boss speaks `text + $n values`; this runs such a statement on a drizzle database or transaction. */
function executorFor(db: Queryable): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const parts = text.split(/\$(\d+)/);
      const chunks: SQL[] = [];
      for (let i = 0; i < parts.length; i++) {
        chunks.push(i % 2 === 0 ? sql.raw(parts[i]) : sql`${asParameter(values[Number(parts[i]) - 1])}`);
      }
      const result: any = await db.execute(sql.join(chunks));
      return { rows: result.rows ?? result };
    },
  };
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly options: QueueOptions;

  constructor(database: DatabaseHandle, options: QueueOptions, onError: (error: Error) => void) {
    this.options = options;
    const shared = { schema: 'pgboss', supervise: true, schedule: false, pollingIntervalSeconds: options.pollingIntervalSeconds };
    this.boss = database.connectionString
      ? new PgBoss({ ...shared, connectionString: database.connectionString, max: 4 })
      : new PgBoss({ ...shared, db: database.sql as PgBoss.Db });
    this.boss.on('error', onError);
  }

  async start(): Promise<void> {
    await this.boss.start();
    for (const name of QUEUES) {
      // Retries are the job runner's business (it knows about leases and refunds), not pg-boss's.
      await this.boss.createQueue(name, { name, retryLimit: 0, expireInSeconds: this.options.expireInSeconds });
    }
  }

  /** Sends a job inside the caller's transaction: it commits or rolls back with it. */
  async enqueue(db: Queryable, queue: QueueName, job: QueuedJob): Promise<void> {
    await this.boss.send(queue, job, { db: executorFor(db) });
  }

  async work(queue: QueueName, concurrency: number, handler: (job: QueuedJob) => Promise<void>): Promise<void> {
    for (let i = 0; i < concurrency; i++) {
      await this.boss.work<QueuedJob>(queue, { batchSize: 1, pollingIntervalSeconds: this.options.pollingIntervalSeconds }, async ([job]) => {
        await handler(job.data);
      });
    }
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
