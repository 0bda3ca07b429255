/**
 * Runs the jobs of every kind: takes each delivered job under a lease, renews the lease while the
 * work goes on, turns any error into the job's failure, and sweeps up jobs whose worker died.
 */
import type { Clock } from '../clock.ts';
import { jobMessages } from '../errors.ts';
import type { JobSettings } from '../config.ts';
import type { Database } from '../db/database.ts';
import { DrizzleQueryError } from '../db/orm.ts';
import { claimJob, releaseExpiredLeases, renewLease, touchStalePendingJobs, type JobTable } from './leases.ts';
import type { JobQueue, QueueName } from './queue.ts';

export interface JobKind {
  queue: QueueName;
  table: JobTable;
  /**
   * Does the work and marks the job completed; `signal` aborts when the job is canceled, deleted
   * or taken over. Every write is conditional on the claim that got `attempt` still owning the job.
   */
  run(jobId: string, signal: AbortSignal, attempt: number): Promise<void>;
  /** Marks the job failed with a message (and undoes what it holds), if the claim that got `attempt` still owns it. */
  fail(jobId: string, message: string, attempt: number): Promise<void>;
}

export interface WorkerDeps {
  db: Database;
  clock: Clock;
  queue: JobQueue;
  settings: JobSettings;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}


/**
 * What a failed job's `error` says. A database error stays in the log: its message is the
 * statement and its values (a page's text, once), nothing the caller can act on.
 */
export function failureMessage(error: unknown): string {
  if (error instanceof Error && error.message && !(error instanceof DrizzleQueryError)) return error.message.slice(0, 500);
  return jobMessages.unexpected;
}

export async function runJob(deps: Omit<WorkerDeps, 'queue'>, kind: JobKind, jobId: string): Promise<void> {
  const leaseMs = deps.settings.leaseSeconds * 1000;
  const attempt = await claimJob(deps.db, deps.clock, kind.table, jobId, leaseMs);
  if (attempt === null) return;
  if (attempt > deps.settings.maxAttempts) return kind.fail(jobId, jobMessages.abandoned, attempt);

  const stop = new AbortController();
  const heartbeat = setInterval(async () => {
    try {
      if (!(await renewLease(deps.db, deps.clock, kind.table, jobId, attempt, leaseMs))) stop.abort();
    } catch (error) {
      deps.log.warn({ err: error, jobId }, 'lease renewal failed');
    }
  }, Math.max(200, leaseMs / 3));
  try {
    await kind.run(jobId, stop.signal, attempt);
  } catch (error) {
    if (!stop.signal.aborted) deps.log.warn({ err: error, jobId }, `${kind.queue} job failed`);
    // A no-op when this worker no longer owns the job: it stops quietly.
    await kind.fail(jobId, failureMessage(error), attempt);
  } finally {
    clearInterval(heartbeat);
  }
}

/** Starts this process's workers; answers a function that stops the sweeper. */
export async function startWorkers(deps: WorkerDeps, kinds: JobKind[]): Promise<() => void> {
  const leaseMs = deps.settings.leaseSeconds * 1000;
  for (const kind of kinds) {
    await deps.queue.work(kind.queue, deps.settings.concurrency, (job) =>
      runJob(deps, kind, job.jobId).catch((error) => deps.log.error({ err: error, jobId: job.jobId }, 'job runner error')),
    );
  }
  const sweep = async () => {
    for (const kind of kinds) {
      try {
        // Released and sent again in one transaction, so a crash between the two loses no job.
        await deps.db.transaction(async (tx) => {
          const stranded = [
            ...(await releaseExpiredLeases(tx, deps.clock, kind.table)),
            ...(await touchStalePendingJobs(tx, deps.clock, kind.table, leaseMs)),
          ];
          for (const { jobId, accountId } of stranded) await deps.queue.enqueue(tx, kind.queue, { jobId }, { accountId, ahead: 0 });
        });
      } catch (error) {
        deps.log.warn({ err: error }, 'lease sweep failed');
      }
    }
  };
  await sweep();
  const timer = setInterval(sweep, Math.max(500, leaseMs / 2));
  timer.unref();
  return () => clearInterval(timer);
}
