/**
 * What every job kind does around its own work: load its row, write progress at most twice a
 * second, and make every write of a running job conditional on its claim still owning the job:
 * `processing` with the attempt number the claim got (a cancel, a deletion, or the sweeper and
 * another worker after this one stalled, may have moved it meanwhile).
 */
import { and, eq, getTableName } from '../db/orm.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { discoveryJobs, generationJobs } from '../db/schema.ts';
import { throttle } from './throttle.ts';
import type { JobTable } from './leases.ts';
import type { JobKind } from './workers.ts';

const PROGRESS_EVERY_MS = 500;

type JobRows = typeof discoveryJobs | typeof generationJobs;

/** The condition of every write a running job makes: the claim that got `attempt` still owns it. */
export const whileOwned = (rows: JobRows, jobId: string, attempt: number) =>
  and(eq(rows.id, jobId), eq(rows.status, 'processing'), eq(rows.attempts, attempt));

export interface JobKindSpec<Rows extends JobRows, Progress> extends Pick<JobKind, 'queue' | 'fail'> {
  db: Database;
  /** The kind's table of jobs. */
  rows: Rows;
  clock: Clock;
  /** The columns a progress report writes (with `updatedAt`, under `whileOwned`). */
  progressFields(value: Progress): Partial<Rows['$inferInsert']>;
  /** The work; `progress` may be called as often as wanted, `progress.flush()` writes the last value now. */
  run(job: Rows['$inferSelect'], context: { signal: AbortSignal; attempt: number; progress: ReturnType<typeof throttle<Progress>> }): Promise<void>;
}

export function defineJobKind<Rows extends JobRows, Progress>(spec: JobKindSpec<Rows, Progress>): JobKind {
  const rows: JobRows = spec.rows;
  return {
    queue: spec.queue,
    table: getTableName(rows) as JobTable,
    fail: spec.fail,
    async run(jobId, signal, attempt) {
      const [job] = await spec.db.select().from(rows).where(eq(rows.id, jobId));
      // deleted with its site or account before it ran
      if (!job) return;
      const progress = throttle(PROGRESS_EVERY_MS, async (value: Progress) => {
        await spec.db
          .update(rows)
          .set({ ...spec.progressFields(value), updatedAt: spec.clock.now() })
          .where(whileOwned(rows, jobId, attempt));
      });
      try {
        await spec.run(job as Rows['$inferSelect'], { signal, attempt, progress });
      } finally {
        await progress.flush();
      }
    },
  };
}
