/** Generation jobs as the API sees them: start (reserve credits + enqueue), look up, cancel, cache. */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, sql } from '../db/orm.ts';
import type { Clock } from '../clock.ts';
import type { Database, Transaction } from '../db/database.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { generationJobs, sites } from '../db/schema.ts';
import { addCredits, spendCredits } from '../credits/ledger.ts';
import type { GuardOptions } from '../crawl/index.ts';
import { refuseUnreachableTarget } from '../job-input/target-url.ts';
import { errors, jobMessages } from '../errors.ts';
import { whileOwned } from '../jobs/job-kind.ts';
import { recordEvent } from '../webhooks/events.ts';
import { countFinishedJob, metrics } from '../metrics/metrics.ts';
import { readGenerationOptions, sameOptions, type GenerationOptions } from './options.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { planGeneration, type GenerationPlan } from './pricing.ts';
import { followLatestJob } from './site-status.ts';

export type GenerationJob = typeof generationJobs.$inferSelect;

interface Deps {
  db: Database;
  queue: JobQueue;
  clock: Clock;
  crawl: GuardOptions;
  /** An AI provider is configured (LLM_PROVIDER): without one, `enhanced` runs as `simple`. */
  aiConfigured: boolean;
}

export interface StartedGeneration {
  job: GenerationJob;
  creditsUsed: number;
  fromCache: boolean;
  /** `enhanced` was asked for and runs as `simple` (no AI provider). */
  withoutAi: boolean;
}

export interface GenerationEstimate extends GenerationPlan {
  /** A recent identical generation would answer the start, for 0 credits. */
  fromCache: boolean;
}

async function findCachedJob(deps: Deps, accountId: string, url: string, options: GenerationOptions, cacheAgeMs: number) {
  if (cacheAgeMs <= 0) return null;
  const since = new Date(deps.clock.now().getTime() - cacheAgeMs);
  const recent = await deps.db
    .select()
    .from(generationJobs)
    .where(and(eq(generationJobs.accountId, accountId), eq(generationJobs.url, url), eq(generationJobs.status, 'completed'), gt(generationJobs.completedAt, since)))
    .orderBy(desc(generationJobs.completedAt))
    .limit(20);
  return recent.find((job) => sameOptions(readGenerationOptions(job.options), options)) ?? null;
}

/** What a start with these options would reserve and run, checked as the start checks them; it changes nothing. */
export async function estimateGeneration(deps: Deps, accountId: string, url: string, asked: GenerationOptions, cacheAgeMs: number): Promise<GenerationEstimate> {
  await refuseUnreachableTarget(url, deps.crawl);
  const plan = planGeneration(asked, deps.aiConfigured);
  const cached = await findCachedJob(deps, accountId, url, plan.options, cacheAgeMs);
  return { ...plan, credits: cached ? 0 : plan.credits, fromCache: cached !== null };
}

/**
 * Starts a generation: the site row, the credit reservation and the queued job are written in one
 * transaction, so there is never a job without its debit nor a debit without its job.
 */
export async function startGeneration(
  deps: Deps,
  accountId: string,
  url: string,
  asked: GenerationOptions,
  cacheAgeMs: number,
): Promise<StartedGeneration> {
  await refuseUnreachableTarget(url, deps.crawl);
  const { options, credits: cost, withoutAi } = planGeneration(asked, deps.aiConfigured);
  const cached = await findCachedJob(deps, accountId, url, options, cacheAgeMs);
  if (cached) return { job: cached, creditsUsed: 0, fromCache: true, withoutAi };

  const job = await deps.db.transaction(async (tx) => {
    const owner = await deps.queue.admit(tx, 'generation', accountId);
    const [site] = await tx
      .insert(sites)
      .values({ id: randomUUID(), accountId, url })
      .onConflictDoUpdate({ target: [sites.accountId, sites.url], set: { updatedAt: sql`now()` } })
      .returning({ id: sites.id });
    await spendCredits(tx, {
      accountId,
      amount: cost,
      siteId: site.id,
      description: `Generation of ${url} (${options.generationMethod}${options.render === 'never' ? '' : `, render ${options.render}`}, up to ${options.maxUrls} pages)`,
    });
    const [row] = await tx
      .insert(generationJobs)
      .values({ id: randomUUID(), accountId, siteId: site.id, url, options, creditsReserved: cost, methodAsked: withoutAi ? asked.generationMethod : null, createdAt: deps.clock.now() })
      .returning();
    await followLatestJob(tx, site.id, deps.clock.now());
    await deps.queue.enqueue(tx, 'generation', { jobId: row.id }, owner);
    return row;
  });
  metrics.jobsStarted.inc({ kind: 'generation', method: options.generationMethod });
  metrics.creditsReserved.inc(cost);
  return { job, creditsUsed: cost, fromCache: false, withoutAi };
}

/** The caller's job: 404 when there is none, 403 when it is another account's. `cache` for reads only, never before a write. */
export async function getGenerationJob(db: Database, accountId: string, jobId: string, cache?: ReadCache<GenerationJob>): Promise<GenerationJob> {
  const load = async () => (await db.select().from(generationJobs).where(eq(generationJobs.id, jobId)))[0];
  const job = cache ? await cache.read(jobId, load) : await load();
  if (!job) throw errors.jobNotFound();
  if (job.accountId !== accountId) throw errors.jobAccessDenied();
  return job;
}

/**
 * Ends an unfinished job as failed and gives its whole reservation back, once: the status change
 * is conditional, and the refund's reference is unique per job. A worker passes its claim's
 * `attempt`: then only a job that claim still owns is failed. A cancel passes none.
 */
export async function failGenerationJob(db: Database, clock: Clock, jobId: string, message: string, attempt?: number): Promise<GenerationJob | null> {
  const failed = await db.transaction(async (tx) => {
    const [job] = await tx
      .update(generationJobs)
      .set({ status: 'failed', error: message, completedAt: clock.now(), updatedAt: clock.now(), leaseExpiresAt: null })
      .where(
        attempt === undefined
          ? and(eq(generationJobs.id, jobId), inArray(generationJobs.status, ['pending', 'processing']))
          : whileOwned(generationJobs, jobId, attempt),
      )
      .returning();
    if (!job) return null;
    await refund(tx, job, job.creditsReserved, `Refund: generation of ${job.url} ${message === jobMessages.canceled ? 'canceled' : 'failed'}`);
    await followLatestJob(tx, job.siteId, clock.now());
    const data = { id: job.id, siteId: job.siteId, url: job.url, status: job.status, error: job.error, completedAt: job.completedAt?.toISOString() ?? null };
    await recordEvent(tx, job.accountId, 'generation.failed', data, clock.now());
    return job;
  });
  if (failed) {
    countFinishedJob('generation', readGenerationOptions(failed.options).generationMethod, 'failed', failed.startedAt, failed.completedAt ?? clock.now());
    metrics.creditsRefunded.inc(failed.creditsReserved);
  }
  return failed;
}

export async function refund(tx: Transaction, job: GenerationJob, amount: number, description: string): Promise<void> {
  if (amount <= 0) return;
  await addCredits(tx, 'refund', { accountId: job.accountId, amount, siteId: job.siteId, description, reference: `refund:${job.id}` });
}

export async function cancelGeneration(deps: Deps, accountId: string, jobId: string): Promise<GenerationJob> {
  const job = await getGenerationJob(deps.db, accountId, jobId);
  if (job.status === 'completed' || job.status === 'failed') throw errors.jobAlreadyFinished();
  const canceled = await failGenerationJob(deps.db, deps.clock, jobId, jobMessages.canceled);
  if (!canceled) throw errors.jobAlreadyFinished();
  return canceled;
}
