/**
 * The job queue: pg-boss on the service's own database (PostgreSQL with pg-boss's own pool, or
 * PGlite through pg-boss's PGlite adapter). A job is sent inside the request's transaction, so it
 * exists exactly when the rows (and the credit reservation) that describe it do. The send's NOTIFY
 * commits with it and wakes the workers at once; polling is only the fallback.
 *
 * Accounts share the workers fairly: each has at most `jobsPerAccount` unfinished jobs of a kind
 * (`admit`), a job is sent behind the account's own earlier ones (a lower priority per job it
 * already has), and a worker runs at most `concurrency - 1` jobs of one account at once, so a
 * queue of slow jobs never holds every worker while another account's job waits.
 */
import { PgBoss, fromPglite, type Db } from 'pg-boss';
import { and, count, eq, inArray, sql, type SQL } from '../db/orm.ts';
import { lockAccount } from '../db/account-lock.ts';
import { rowsOf, type DatabaseHandle, type Queryable } from '../db/database.ts';
import { discoveryJobs, generationJobs } from '../db/schema.ts';
import { errors } from '../errors.ts';

export const QUEUES = ['discovery', 'generation'] as const;
export type QueueName = (typeof QUEUES)[number];

const JOB_ROWS = { discovery: discoveryJobs, generation: generationJobs } as const;

/**
 * pg-boss's schema. pg-boss 12 cannot migrate the schema pg-boss 10 left in `pgboss`, so it
 * installs afresh here, and the old one is handed over once (see `retirePgBoss10`).
 */
export const QUEUE_SCHEMA = 'job_queue';
const PG_BOSS_10_SCHEMA = 'pgboss';

export interface QueuedJob {
  jobId: string;
}

/** Whose job it is, and how many unfinished jobs of the same kind that account already had when it was sent. */
export interface JobOwner {
  accountId: string;
  ahead: number;
}

export interface QueueOptions {
  /** how often a worker looks for jobs when no notification woke it; at least 0.5 */
  pollingIntervalSeconds: number;
  /** pg-boss gives a fetched job this long before it may hand it out again; longer than any job runs. */
  expireInSeconds: number;
  /** pending plus running jobs one account may have of each kind */
  jobsPerAccount: number;
}

// The pg driver turns objects into JSON by itself; drizzle's parameters need it done here.
const asParameter = (value: unknown) => value === undefined ? null :
  value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value;


/** pg-boss speaks `text + $n values`; this runs such a statement on a drizzle database or transaction. */
function executorFor(db: Queryable): Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const parts = text.split(/\$(\d+)/);
      const chunks: SQL[] = [];
      for (let i = 0; i < parts.length; i++) {
        chunks.push(i % 2 === 0 ? sql.raw(parts[i]) : sql`${asParameter(values[Number(parts[i]) - 1])}`);
      }
      return { rows: rowsOf(await db.execute(sql.join(chunks))) };
    },
  };
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly database: DatabaseHandle;
  private readonly options: QueueOptions;

  constructor(database: DatabaseHandle, options: QueueOptions, onError: (error: Error) => void, onWarning: (warning: { message: string; data: object }) => void = () => {}) {
    this.database = database;
    this.options = options;
    // No cron schedules here; the maintenance (expiry, retention) runs in every process.
    const shared = { schema: QUEUE_SCHEMA, supervise: true, schedule: false, useListenNotify: true };
    if (database.pglite) {
      this.boss = new PgBoss({ ...shared, backend: 'pglite', db: fromPglite(database.pglite) });
    } else if (database.connectionString) {
      this.boss = new PgBoss({ ...shared, connectionString: database.connectionString, max: 4 });
    } else {
      throw new Error('the job queue needs PGlite or a PostgreSQL connection string');
    }
    this.boss.on('error', onError);
    this.boss.on('warning', onWarning);
  }

  async start(): Promise<void> {
    // pg-boss creates its schema and our queues on first start: one process at a time.
    await this.database.exclusively(async () => {
      await this.boss.start();
      for (const name of QUEUES) {
        // Retries are the job runner's business (it knows about leases and refunds), not pg-boss's.
        await this.boss.createQueue(name, { retryLimit: 0, expireInSeconds: this.options.expireInSeconds, notify: true });
      }
      await this.retirePgBoss10();
    });
  }

  /**
   * Makes room for one more job of the account, first thing in the start's transaction: the
   * account's row stays locked until it commits, so concurrent starts of one account count in
   * turn and never pass the cap. Refuses with 429 at the cap, changing nothing.
   */
  async admit(tx: Queryable, queue: QueueName, accountId: string): Promise<JobOwner> {
    const rows = JOB_ROWS[queue];
    await lockAccount(tx, accountId);
    const [{ unfinished }] = await tx
      .select({ unfinished: count() })
      .from(rows)
      .where(and(eq(rows.accountId, accountId), inArray(rows.status, ['pending', 'processing'])));
    if (unfinished >= this.options.jobsPerAccount) throw errors.tooManyJobs(this.options.jobsPerAccount);
    return { accountId, ahead: unfinished };
  }

  /**
   * Sends a job inside the caller's transaction: it commits or rolls back with it. Jobs are taken
   * by priority, then age: a job goes behind the ones its account already had, not behind every
   * job of an account that queued many.
   */
  async enqueue(db: Queryable, queue: QueueName, job: QueuedJob, owner: JobOwner): Promise<void> {
    await this.boss.send(queue, job, { db: executorFor(db), group: { id: owner.accountId }, priority: -owner.ahead });
  }

  async work(queue: QueueName, concurrency: number, handler: (job: QueuedJob) => Promise<void>): Promise<void> {
    const polling = this.options.pollingIntervalSeconds;
    await this.boss.work<QueuedJob>(
      queue,
      // A new job's notification wakes an idle worker at once. Polling stays at the same interval
      // while notifications work: a worker that just finished a job waits it out before taking the
      // next one of a backlog (pg-boss's burst mode needs batches larger than 1).
      // Counted in this process's memory: a dead worker's job never holds its account's place.
      {
        batchSize: 1,
        localConcurrency: concurrency,
        localGroupConcurrency: Math.max(1, concurrency - 1),
        pollingIntervalSeconds: polling,
        notifyPollingIntervalSeconds: polling,
      },
      async ([job]) => {
        await handler(job.data);
      },
    );
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }

  /**
   * A database that ran pg-boss 10 still has its schema, which pg-boss 12 cannot migrate. The jobs
   * waiting there are the job rows still `pending` (running ones come back through their leases):
   * they are sent again on the new queue and the old schema dropped, in one transaction, once.
   */
  private async retirePgBoss10(): Promise<void> {
    const exists = async (db: Queryable) =>
      rowsOf(await db.execute(sql`SELECT to_regclass(${`${PG_BOSS_10_SCHEMA}.version`}) IS NOT NULL AS found`))[0]?.found === true;
    if (!(await exists(this.database.db))) return;
    await this.database.db.transaction(async (tx) => {
      // Several processes may start at once: one hands over, the others find the schema gone.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('llmstxt: retire pg-boss 10'))`);
      if (!(await exists(tx))) return;
      for (const queue of QUEUES) {
        const rows = JOB_ROWS[queue];
        for (const row of await tx.select({ id: rows.id, accountId: rows.accountId }).from(rows).where(eq(rows.status, 'pending'))) {
          await this.enqueue(tx, queue, { jobId: row.id }, { accountId: row.accountId, ahead: 0 });
        }
      }
      await tx.execute(sql.raw(`DROP SCHEMA ${PG_BOSS_10_SCHEMA} CASCADE`));
    });
  }
}
