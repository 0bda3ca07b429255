/** Discovery jobs: start one, look them up, list what they found. Free of charge, bounded by maxUrls. */
import { metrics } from '../metrics/metrics.ts';
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq } from '../db/orm.ts';
import type { Clock } from '../clock.ts';
import type { GuardOptions, PathFilters, RenderMode } from '../crawl/index.ts';
import { refuseUnreachableTarget } from '../job-input/target-url.ts';
import type { Database } from '../db/database.ts';
import { readPage, type PageRequest } from '../db/paging.ts';
import { discoveredUrls, discoveryJobs } from '../db/schema.ts';
import { errors } from '../errors.ts';
import type { JobQueue } from '../jobs/queue.ts';

export const DISCOVERY_TYPES = ['full', 'sitemap', 'crawl'] as const;
export type DiscoveryType = (typeof DISCOVERY_TYPES)[number];
export const JOB_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;

export type DiscoveryJob = typeof discoveryJobs.$inferSelect;

interface Deps {
  db: Database;
  queue: JobQueue;
  clock: Clock;
  crawl: GuardOptions;
}


/** A rough promise to show the caller; local measurements run far faster, remote sites slower. */
const SECONDS_PER_URL = 0.2;

export async function startDiscovery(deps: Deps, accountId: string, input: { url: string; maxUrls: number; type: DiscoveryType; render: RenderMode } & PathFilters) {
  await refuseUnreachableTarget(input.url, deps.crawl);
  const job = await deps.db.transaction(async (tx) => {
    const owner = await deps.queue.admit(tx, 'discovery', accountId);
    const [row] = await tx
      .insert(discoveryJobs)
      .values({ id: randomUUID(), ...input, accountId, createdAt: deps.clock.now() })
      .returning();
    await deps.queue.enqueue(tx, 'discovery', { jobId: row.id }, owner);
    return row;
  });
  metrics.jobsStarted.inc({ kind: 'discovery', method: input.type });
  const estimatedCompletion = new Date(deps.clock.now().getTime() + Math.max(5, input.maxUrls * SECONDS_PER_URL) * 1000);
  return { job, estimatedCompletion };
}

/** The caller's job; another account's job is as good as missing. */
export async function getDiscovery(db: Database, accountId: string, id: string): Promise<DiscoveryJob> {
  const [job] = await db.select().from(discoveryJobs).where(and(eq(discoveryJobs.id, id), eq(discoveryJobs.accountId, accountId)));
  if (!job) throw errors.discoveryNotFound();
  return job;
}

export async function listDiscoveries(db: Database, accountId: string, query: { status?: string; limit: number }) {
  const where = and(eq(discoveryJobs.accountId, accountId), query.status ? eq(discoveryJobs.status, query.status) : undefined);
  const newestFirst = db.select().from(discoveryJobs).where(where).orderBy(desc(discoveryJobs.createdAt), desc(discoveryJobs.id)).$dynamic();
  const { rows, total } = await readPage(db, { table: discoveryJobs, where }, { page: 1, limit: query.limit }, newestFirst);
  return { jobs: rows, total };
}

export async function listDiscoveredUrls(db: Database, accountId: string, id: string, query: PageRequest) {
  await getDiscovery(db, accountId, id);
  const where = eq(discoveredUrls.discoveryId, id);
  const inOrderFound = db
    .select({ url: discoveredUrls.url, source: discoveredUrls.source, lastModified: discoveredUrls.lastModified })
    .from(discoveredUrls)
    .where(where)
    .orderBy(asc(discoveredUrls.position))
    .$dynamic();
  const { rows, ...page } = await readPage(db, { table: discoveredUrls, where }, query, inOrderFound);
  return { urls: rows, ...page };
}
