/**
 * Leases on job rows. pg-boss delivers a job; the lease says whether its worker is still alive.
 * A running job pushes `lease_expires_at` forward; a job whose lease ran out (its worker died)
 * is put back to `pending` and sent again, and after too many tries it is failed by its kind.
 */
import { sql } from '../db/orm.ts';
import type { Clock } from '../clock.ts';
import { rowsOf, type Database, type Queryable } from '../db/database.ts';

export type JobTable = 'discovery_jobs' | 'generation_jobs';

/** A job to send again, with the account it is sent for. */
export interface StrandedJob {
  jobId: string;
  accountId: string;
}

const strandedJobs = (result: unknown): StrandedJob[] =>
  rowsOf(result).map((r) => ({ jobId: String(r.id), accountId: String(r.account_id) }));


/** Takes the job if it is waiting, or if its last worker's lease ran out. Answers the attempt number, or null. */
export async function claimJob(db: Database, clock: Clock, table: JobTable, jobId: string, leaseMs: number): Promise<number | null> {
  const now = clock.now();
  const result = await db.execute(sql`
    UPDATE ${sql.identifier(table)}
    SET status = 'processing', attempts = attempts + 1, lease_expires_at = ${new Date(now.getTime() + leaseMs)},
        started_at = coalesce(started_at, ${now}), updated_at = ${now}
    WHERE id = ${jobId} AND (status = 'pending' OR (status = 'processing' AND lease_expires_at < ${now}))
    RETURNING attempts`);
  const [row] = rowsOf(result);
  return row ? Number(row.attempts) : null;
}

/**
 * Renews the lease of the claim that got `attempt`; false when the job is no longer that claim's
 * to run (canceled, deleted, or taken over by another worker after this one stalled).
 */
export async function renewLease(db: Database, clock: Clock, table: JobTable, jobId: string, attempt: number, leaseMs: number): Promise<boolean> {
  const result = await db.execute(sql`
    UPDATE ${sql.identifier(table)} SET lease_expires_at = ${new Date(clock.now().getTime() + leaseMs)}
    WHERE id = ${jobId} AND status = 'processing' AND attempts = ${attempt}
    RETURNING id`);
  return rowsOf(result).length > 0;
}

/**
 * Jobs waiting longer than `staleMs` since their last change: their message may be lost (a
 * worker that took it died before claiming the job), so they are sent again. Touching them
 * spaces the resends; a job sent twice is still claimed once.
 */
export async function touchStalePendingJobs(db: Queryable, clock: Clock, table: JobTable, staleMs: number): Promise<StrandedJob[]> {
  const now = clock.now();
  const result = await db.execute(sql`
    UPDATE ${sql.identifier(table)} SET updated_at = ${now}
    WHERE status = 'pending' AND updated_at < ${new Date(now.getTime() - staleMs)}
    RETURNING id, account_id`);
  return strandedJobs(result);
}

/** Jobs whose worker stopped renewing: back to pending, so they can be sent again. */
export async function releaseExpiredLeases(db: Queryable, clock: Clock, table: JobTable): Promise<StrandedJob[]> {
  const result = await db.execute(sql`
    UPDATE ${sql.identifier(table)} SET status = 'pending', lease_expires_at = null, updated_at = ${clock.now()}
    WHERE status = 'processing' AND lease_expires_at < ${clock.now()}
    RETURNING id, account_id`);
  return strandedJobs(result);
}
