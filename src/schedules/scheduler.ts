/**
 * The scheduler loop, in every process that runs jobs: takes due schedules (leased, as webhook
 * deliveries are), checks whether the site's listed pages changed, and only then starts an
 * ordinary generation with the site's last options, charged like any. The check itself writes
 * no ledger row; its outcome is kept on the schedule.
 *
 * Checks run side by side, `concurrency` at once, each within `checkBudgetMs`. Due schedules are
 * taken in turns by account, and at most PER_ACCOUNT of one account's checks run at once in a
 * process: an account with many slow sites holds a few slots, never the whole loop.
 */
import { and, eq, sql, type SQL } from '../db/orm.ts';
import pLimit from 'p-limit';
import type { Clock } from '../clock.ts';
import { createFetcher, resolveLimits, type CrawlOptions, type RobotsCache } from '../crawl/index.ts';
import { rowsOf, type Database } from '../db/database.ts';
import { mappedUrls, siteSchedules, sites } from '../db/schema.ts';
import { ApiError, scheduleOutcomes } from '../errors.ts';
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
  robots: RobotsCache;
  log: { warn(obj: object, msg: string): void };
  /** An AI provider is configured (see generation/ai-provider.ts). */
  aiConfigured: boolean;
  /** Checks under way at once in this process. */
  concurrency: number;
  /** A check still reading pages after this long is given up and recorded as timed out. */
  checkBudgetMs: number;
}

/** A check taking longer than this is taken for lost, and the schedule is due again. */
const LEASE_MS = 15 * 60_000;
/** One account's checks under way at once in a process. */
const PER_ACCOUNT = 2;
const FETCH_CONCURRENCY = 4;

interface DueSchedule {
  site_id: string;
  account_id: string;
  frequency: string;
}

/** The checks under way in this process, by site. */
type ChecksUnderWay = Map<string, { accountId: string; done: Promise<void> }>;

export function startScheduler(deps: SchedulerDeps, intervalMs: number): () => Promise<void> {
  const underWay: ChecksUnderWay = new Map();
  const stopping = new AbortController();
  const stopLoop = runEvery(intervalMs, () => startDueChecks(deps, underWay, stopping.signal), (error) => deps.log.warn({ err: error }, 'scheduled refresh round failed'));
  return async () => {
    await stopLoop();
    // Checks cut short leave their schedules leased: they are due again when the lease ends.
    stopping.abort();
    await Promise.all([...underWay.values()].map((check) => check.done));
  };
}

/** Starts due checks in the free slots; each removes itself from `underWay` when it ends. */
export async function startDueChecks(deps: SchedulerDeps, underWay: ChecksUnderWay, stopping: AbortSignal): Promise<void> {
  const free = deps.concurrency - underWay.size;
  if (free <= 0) return;
  for (const schedule of await claimDue(deps, free, underWay)) {
    const done = check(deps, schedule, stopping)
      .catch((error) => deps.log.warn({ err: error, siteId: schedule.site_id }, 'scheduled refresh failed'))
      .finally(() => underWay.delete(schedule.site_id));
    underWay.set(schedule.site_id, { accountId: schedule.account_id, done });
  }
}

/** Leases up to `limit` due schedules: each account's longest due first, account after account. */
async function claimDue(deps: SchedulerDeps, limit: number, underWay: ChecksUnderWay): Promise<DueSchedule[]> {
  const now = deps.clock.now();
  const running = new Map<string, number>();
  for (const { accountId } of underWay.values()) running.set(accountId, (running.get(accountId) ?? 0) + 1);
  const allowance: SQL =
    running.size === 0
      ? sql`${PER_ACCOUNT}::int`
      : sql`CASE account_id ${sql.join([...running].map(([accountId, count]) => sql`WHEN ${accountId} THEN ${PER_ACCOUNT - count}::int`), sql` `)} ELSE ${PER_ACCOUNT}::int END`;
  // The ranking is read without locks; the UPDATE's own condition keeps two processes from taking one schedule.
  return rowsOf(
    await deps.db.execute(sql`
      UPDATE site_schedules SET next_run_at = ${new Date(now.getTime() + LEASE_MS)}
      WHERE status = 'active' AND next_run_at <= ${now} AND site_id IN (
        SELECT site_id FROM (
          SELECT sc.site_id, sc.next_run_at, s.account_id,
            row_number() OVER (PARTITION BY s.account_id ORDER BY sc.next_run_at, sc.site_id) AS turn
          FROM site_schedules sc JOIN sites s ON s.id = sc.site_id
          WHERE sc.status = 'active' AND sc.next_run_at <= ${now}
        ) AS due
        WHERE turn <= ${allowance}
        ORDER BY turn, next_run_at
        LIMIT ${limit})
      RETURNING site_id, frequency, (SELECT account_id FROM sites WHERE sites.id = site_schedules.site_id) AS account_id`),
  ) as DueSchedule[];
}

async function check(deps: SchedulerDeps, schedule: DueSchedule, stopping: AbortSignal): Promise<void> {
  const siteId = schedule.site_id;
  const [site] = await deps.db.select().from(sites).where(eq(sites.id, siteId));
  if (!site?.lastGenerationOptions) return;
  const checkedAt = deps.clock.now();
  const outcome: Partial<typeof siteSchedules.$inferInsert> = {
    lastCheckedAt: checkedAt,
    nextRunAt: nextRunAfter(schedule.frequency, checkedAt),
    updatedAt: checkedAt,
  };
  const overBudget = AbortSignal.timeout(deps.checkBudgetMs);
  try {
    if (site.status === 'pending' || site.status === 'processing') {
      // The job under way brings the files up to date; a second one would be charged for nothing.
      outcome.lastOutcome = scheduleOutcomes.generationUnderWay;
    } else if (!(await pagesChanged(deps, siteId, AbortSignal.any([overBudget, stopping])))) {
      outcome.lastOutcome = scheduleOutcomes.unchanged;
    } else {
      const { job } = await startGeneration(deps, site.accountId, site.url, readGenerationOptions(site.lastGenerationOptions), 0);
      Object.assign(outcome, { lastOutcome: scheduleOutcomes.regenerated, lastJobId: job.id });
    }
  } catch (error) {
    if (stopping.aborted) return;
    if (overBudget.aborted) {
      outcome.lastOutcome = scheduleOutcomes.timedOut(deps.checkBudgetMs / 1000);
    } else if (error instanceof ApiError && error.statusCode === 402) {
      Object.assign(outcome, { lastOutcome: scheduleOutcomes.paused, status: 'paused', pausedReason: error.message });
    } else {
      deps.log.warn({ err: error, siteId }, 'scheduled refresh failed');
      outcome.lastOutcome = scheduleOutcomes.failed(error instanceof Error ? error.message : String(error));
    }
  }
  await deps.db.update(siteSchedules).set(outcome).where(eq(siteSchedules.siteId, siteId));
}

/**
 * True when a listed page answers differently (another body, or no longer 200) than when it was
 * generated, or robots.txt no longer lets us read it (the next generation leaves it out). Pages
 * robots.txt disallows are not fetched; a robots.txt that cannot be read fails the check.
 */
async function pagesChanged(deps: SchedulerDeps, siteId: string, signal: AbortSignal): Promise<boolean> {
  const pages = await deps.db
    .select({ url: mappedUrls.url, contentHash: mappedUrls.contentHash })
    .from(mappedUrls)
    .where(and(eq(mappedUrls.siteId, siteId), eq(mappedUrls.status, 'scraped')));
  if (pages.length === 0 || pages.some((page) => !page.contentHash)) return true;
  const fetcher = createFetcher(deps.crawl);
  // Stops at the first difference (or failure): the pages still waiting their turn are not fetched.
  let changed = false;
  let failed = false;
  const check = async (page: (typeof pages)[number]) => {
    if (changed || failed) return;
    const { robots, warning } = await deps.robots.rulesFor(page.url, fetcher, signal);
    if (warning) {
      failed = true;
      throw new Error(warning);
    }
    fetcher.pace(Math.max(resolveLimits(deps.crawl.limits).delayMs, robots.crawlDelayMs));
    if (!robots.isAllowed(page.url)) {
      changed = true;
      return;
    }
    try {
      const response = await fetcher.fetch(page.url, { signal });
      if (response.status !== 200 || pageContentHash(response.text()) !== page.contentHash) changed = true;
    } catch {
      changed = true;
    }
    signal.throwIfAborted();
  };
  try {
    await pLimit(FETCH_CONCURRENCY).map(pages, check);
  } finally {
    await fetcher.close();
  }
  return changed;
}
