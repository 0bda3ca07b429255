/** The discovery job as the workers run it: crawl, write progress as it goes, store the URLs found. */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Clock } from '../clock.ts';
import { discover, type CrawlOptions, type DiscoveryMode } from '../crawl/index.ts';
import type { Database } from '../db/database.ts';
import { discoveredUrls, discoveryJobs } from '../db/schema.ts';
import type { JobKind } from '../jobs/workers.ts';
import { throttle } from '../jobs/throttle.ts';

interface Deps {
  db: Database;
  clock: Clock;
  crawl: CrawlOptions;
}

const INSERT_CHUNK = 500;
const PROGRESS_EVERY_MS = 500;

export function discoveryJobKind(deps: Deps): JobKind {
  const { db, clock } = deps;
  return {
    queue: 'discovery',
    table: 'discovery_jobs',

    async run(jobId, signal) {
      const [job] = await db.select().from(discoveryJobs).where(eq(discoveryJobs.id, jobId));
      if (!job) return;
      // A retried job starts over: what an earlier, interrupted try stored goes.
      await db.delete(discoveredUrls).where(eq(discoveredUrls.discoveryId, jobId));
      const reportProgress = throttle(PROGRESS_EVERY_MS, async (found: number) => {
        await db
          .update(discoveryJobs)
          .set({ urlsFound: found, progress: Math.min(99, Math.floor((found * 100) / job.maxUrls)), updatedAt: clock.now() })
          .where(and(eq(discoveryJobs.id, jobId), eq(discoveryJobs.status, 'processing')));
      });
      const result = await discover(job.url, { mode: job.type as DiscoveryMode, maxUrls: job.maxUrls, signal, onProgress: reportProgress }, deps.crawl);
      await reportProgress.flush();
      if (signal.aborted) return;
      await db.transaction(async (tx) => {
        for (let i = 0; i < result.urls.length; i += INSERT_CHUNK) {
          const chunk = result.urls.slice(i, i + INSERT_CHUNK).map((u, j) => ({ id: randomUUID(), discoveryId: jobId, ...u, position: i + j }));
          await tx.insert(discoveredUrls).values(chunk).onConflictDoNothing();
        }
        await tx
          .update(discoveryJobs)
          .set({ status: 'completed', progress: 100, urlsFound: result.urls.length, completedAt: clock.now(), updatedAt: clock.now(), leaseExpiresAt: null })
          .where(and(eq(discoveryJobs.id, jobId), eq(discoveryJobs.status, 'processing')));
      });
    },

    async fail(jobId, message) {
      await db
        .update(discoveryJobs)
        .set({ status: 'failed', error: message, completedAt: clock.now(), updatedAt: clock.now(), leaseExpiresAt: null })
        .where(and(eq(discoveryJobs.id, jobId), inArray(discoveryJobs.status, ['pending', 'processing'])));
    },
  };
}
