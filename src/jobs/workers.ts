/**
 * Runs the jobs of every kind: takes each delivered job under a lease, renews the lease while the
 * work goes on, turns any error into the job's failure, and sweeps up jobs whose worker died.
 */
import type { Clock } from '../clock.ts';
import { jobMessages } from '../errors.ts';
import type { JobSettings } from '../config.ts';
import type { Database } from '../db/database.ts';
import { claimJob, releaseExpiredLeases, renewLease, type JobTable } from './leases.ts';
import type { JobQueue, QueueName } from './queue.ts';

export interface JobKind {
  queue: QueueName;
  table: JobTable;
  /** Does the work and marks the job completed; `signal` aborts when the job is canceled or deleted. */
  run(jobId: string, signal: AbortSignal): Promise<void>;
  /** Marks the job failed with a message (and undoes what it holds, such as reserved credits). */
  fail(jobId: string, message: string): Promise<void>;
}

export interface WorkerDeps {
  db: Database;
  clock: Clock;
  queue: JobQueue;
  settings: JobSettings;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}


export function failureMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message.slice(0, 500);
  return 'The job failed unexpectedly';
}

export async function runJob(deps: WorkerDeps, kind: JobKind, jobId: string): Promise<void> {
  const leaseMs = deps.settings.leaseSeconds * 1000;
  const attempt = await claimJob(deps.db, deps.clock, kind.table, jobId, leaseMs);
  if (attempt === null) return;
  if (attempt > deps.settings.maxAttempts) return kind.fail(jobId, jobMessages.abandoned);

  const stop = new AbortController();
  const heartbeat = setInterval(async () => {
    try {
      if (!(await renewLease(deps.db, deps.clock, kind.table, jobId, leaseMs))) stop.abort();
    } catch (error) {
      deps.log.warn({ err: error, jobId }, 'lease renewal failed');
    }
  }, Math.max(200, leaseMs / 3));
  try {
    await kind.run(jobId, stop.signal);
  } catch (error) {
    if (!stop.signal.aborted) deps.log.warn({ err: error, jobId }, `${kind.queue} job failed`);
    await kind.fail(jobId, failureMessage(error));
  } finally {
    clearInterval(heartbeat);
  }
}

/** Starts this process's workers; answers a function that stops the sweeper. */
export async function startWorkers(deps: WorkerDeps, kinds: JobKind[]): Promise<() => void> {
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
          for (const jobId of await releaseExpiredLeases(tx, deps.clock, kind.table)) {
            await deps.queue.enqueue(tx, kind.queue, { jobId });
          }
        });
      } catch (error) {
        deps.log.warn({ err: error }, 'lease sweep failed');
      }
    }
  };
  await sweep();
  const timer = setInterval(sweep, Math.max(500, (deps.settings.leaseSeconds * 1000) / 2));
  timer.unref();
  return () => clearInterval(timer);
}
