/**
 * The scheduler loop, in every process that runs jobs: takes due schedules (leased, as webhook
 * deliveries are), checks whether the site's listed pages changed, and only then starts an
 * ordinary generation with the site's last options, charged like any. The check itself writes
 * no ledger row; its outcome is kept on the schedule.
 */
import { and, eq, sql } from '../db/orm.ts';
import type { Clock } from '../clock.ts';
import { createFetcher, type CrawlOptions } from '../crawl/index.ts';
import { rowsOf, type Database } from '../db/database.ts';
import { mappedUrls, siteSchedules, sites } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import { startGeneration } from '../generation/generation.ts';
import { readGenerationOptions } from '../generation/options.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { pageContentHash } from '../llms-txt/index.ts';
import { runEvery } from '../jobs/periodic.ts';
import { nextRunAfter } from './schedules.ts';

export interface SchedulerDeps {
  db: Database;
  clock: Clock;
  queue: JobQueue;
  crawl: CrawlOptions;
  log: { warn(obj: object, msg: string): void };
}

const BATCH = 5;
/** A check taking longer than this is taken for lost, and the schedule is due again. */
const LEASE_MS = 15 * 60_000;
const FETCH_CONCURRENCY = 4;

export function startScheduler(deps: SchedulerDeps, intervalMs: number): () => Promise<void> {
  return runEvery(intervalMs, () => runDueSchedules(deps), (error) => deps.log.warn({ err: error }, 'scheduled refresh round failed'));
}

export async function runDueSchedules(deps: SchedulerDeps): Promise<void> {
  for (;;) {
    const now = deps.clock.now();
    const due = rowsOf(
      await deps.db.execute(sql`
        UPDATE site_schedules SET next_run_at = ${new Date(now.getTime() + LEASE_MS)}
        WHERE site_id IN (
          SELECT site_id FROM site_schedules WHERE status = 'active' AND next_run_at <= ${now}
          ORDER BY next_run_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING site_id, frequency`),
    ) as Array<{ site_id: string; frequency: string }>;
    for (const schedule of due) await refresh(deps, schedule.site_id, schedule.frequency);
    if (due.length < BATCH) return;
  }
}

async function refresh(deps: SchedulerDeps, siteId: string, frequency: string): Promise<void> {
  const [site] = await deps.db.select().from(sites).where(eq(sites.id, siteId));
  if (!site?.lastGenerationOptions) return;
  const checkedAt = deps.clock.now();
  const outcome: Partial<typeof siteSchedules.$inferInsert> = { lastCheckedAt: checkedAt, nextRunAt: nextRunAfter(frequency, checkedAt), updatedAt: checkedAt };
  try {
    if (site.status === 'pending' || site.status === 'processing') {
      // The job under way brings the files up to date; a second one would be charged for nothing.
      outcome.lastOutcome = 'skipped: a generation is under way';
    } else if (!(await pagesChanged(deps, siteId))) {
      outcome.lastOutcome = 'unchanged';
    } else {
      const { job } = await startGeneration(deps, site.accountId, site.url, readGenerationOptions(site.lastGenerationOptions), 0);
      Object.assign(outcome, { lastOutcome: 'regenerated', lastJobId: job.id });
    }
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 402) {
      Object.assign(outcome, { lastOutcome: 'paused', status: 'paused', pausedReason: error.message });
    } else {
      deps.log.warn({ err: error, siteId }, 'scheduled refresh failed');
      outcome.lastOutcome = `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300);
    }
  }
  await deps.db.update(siteSchedules).set(outcome).where(eq(siteSchedules.siteId, siteId));
}

/** True when a listed page answers differently (another body, or no longer 200) than when it was generated. */
async function pagesChanged(deps: SchedulerDeps, siteId: string): Promise<boolean> {
  const pages = await deps.db
    .select({ url: mappedUrls.url, contentHash: mappedUrls.contentHash })
    .from(mappedUrls)
    .where(and(eq(mappedUrls.siteId, siteId), eq(mappedUrls.status, 'scraped')));
  if (pages.length === 0 || pages.some((page) => !page.contentHash)) return true;
  const fetcher = createFetcher(deps.crawl);
  let changed = false;
  let next = 0;
  const lane = async () => {
    while (!changed && next < pages.length) {
      const page = pages[next++];
      try {
        const response = await fetcher.fetch(page.url);
        if (response.status !== 200 || pageContentHash(response.text()) !== page.contentHash) changed = true;
      } catch {
        changed = true;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: FETCH_CONCURRENCY }, lane));
  } finally {
    await fetcher.close();
  }
  return changed;
}
