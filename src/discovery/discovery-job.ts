/** The discovery job as the workers run it: crawl, write progress as it goes, store the URLs found. */
import { countFinishedJob, metrics } from '../metrics/metrics.ts';
import { randomUUID } from 'node:crypto';
import { eq } from '../db/orm.ts';
import type { Clock } from '../clock.ts';
import { createJobFetchers, discover, type BrowserPool, type CrawlOptions, type DiscoveryMode, type RenderMode } from '../crawl/index.ts';
import type { Database } from '../db/database.ts';
import { discoveredUrls, discoveryJobs } from '../db/schema.ts';
import type { JobKind } from '../jobs/workers.ts';
import { defineJobKind, whileOwned } from '../jobs/job-kind.ts';
import { recordEvent } from '../webhooks/events.ts';

interface Deps {
  db: Database;
  clock: Clock;
  crawl: CrawlOptions;
  /** the process's browser, for jobs that render their pages */
  renderer?: BrowserPool;
}

const INSERT_CHUNK = 500;

/** What a discovery webhook says about its job. */
function discoveryEventData(job: typeof discoveryJobs.$inferSelect) {
  return { id: job.id, url: job.url, type: job.type, status: job.status, urlsFound: job.urlsFound, error: job.error, completedAt: job.completedAt?.toISOString() ?? null };
}

export function discoveryJobKind(deps: Deps): JobKind {
  const { db, clock } = deps;
  return defineJobKind({
    queue: 'discovery',
    ...deps,
    rows: discoveryJobs,
    progressFields: ({ found, maxUrls }: { found: number; maxUrls: number }) => ({
      urlsFound: found,
      progress: Math.min(99, Math.floor((found * 100) / maxUrls)),
    }),

    async run(job, { signal, attempt, progress }) {
      // A retried job starts over: what an earlier, interrupted try stored goes.
      await db.delete(discoveredUrls).where(eq(discoveredUrls.discoveryId, job.id));
      const onProgress = (found: number) => progress({ found, maxUrls: job.maxUrls });
      const paths = { includePaths: job.includePaths, excludePaths: job.excludePaths };
      const { pages: fetcher, robots } = createJobFetchers(deps.crawl, { mode: job.render as RenderMode, pool: deps.renderer });
      const onRobots = robots.set.bind(robots);
      const result = await discover(job.url, { mode: job.type as DiscoveryMode, maxUrls: job.maxUrls, paths, signal, onProgress, onRobots }, { ...deps.crawl, fetcher }).finally(
        () => fetcher.close(),
      );
      await progress.flush();
      if (signal.aborted) return;
      const stored = await db.transaction(async (tx) => {
        // The job first: a worker that lost it stores nothing.
        const [completed] = await tx
          .update(discoveryJobs)
          .set({ status: 'completed', progress: 100, urlsFound: result.urls.length, completedAt: clock.now(), updatedAt: clock.now(), leaseExpiresAt: null })
          .where(whileOwned(discoveryJobs, job.id, attempt))
          .returning();
        if (!completed) return null;
        await recordEvent(tx, completed.accountId, 'discovery.completed', discoveryEventData(completed), clock.now());
        for (let i = 0; i < result.urls.length; i += INSERT_CHUNK) {
          const chunk = result.urls.slice(i, i + INSERT_CHUNK).map((u, j) => ({ id: randomUUID(), discoveryId: job.id, ...u, position: i + j }));
          await tx.insert(discoveredUrls).values(chunk).onConflictDoNothing();
        }
        return completed;
      });
      metrics.pagesFetched.inc({ kind: 'discovery' }, result.stats.pagesFetched);
      if (stored) countFinishedJob('discovery', stored.type, 'completed', stored.startedAt, stored.completedAt ?? clock.now());
    },

    async fail(jobId, message, attempt) {
      const failed = await db.transaction(async (tx) => {
        const [failed] = await tx
          .update(discoveryJobs)
          .set({ status: 'failed', error: message, completedAt: clock.now(), updatedAt: clock.now(), leaseExpiresAt: null })
          .where(whileOwned(discoveryJobs, jobId, attempt))
          .returning();
        if (failed) await recordEvent(tx, failed.accountId, 'discovery.failed', discoveryEventData(failed), clock.now());
        return failed;
      });
      if (failed) countFinishedJob('discovery', failed.type, 'failed', failed.startedAt, failed.completedAt ?? clock.now());
    },
  });
}
