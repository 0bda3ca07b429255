/**
 * The job runtime of one process: the queue (always: the API sends jobs) and, in processes that
 * work, the workers of every job kind and the lease sweeper. Part of the composition root, beside
 * app.ts: it wires every capability's job kind and loop, which import jobs/ for its machinery.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import { BrowserPool, RobotsCache, type CrawlOptions } from './crawl/index.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { ReadCache } from './db/read-cache.ts';
import { discoveryJobKind } from './discovery/discovery-job.ts';
import { describerFromConfig, hasAiProvider } from './generation/ai-provider.ts';
import type { GenerationJob } from './generation/generation.ts';
import { generationJobKind } from './generation/generation-job.ts';
import { createGenerationThreads, type GenerationThreads } from './generation/generation-threads.ts';
import { createPagePool, type PagePool } from './generation/page-pool.ts';
import { bundlePageWorker, type PageWorkerBundle } from './generation/page-worker-bundle.ts';
import { JobQueue } from './jobs/queue.ts';
import { startScheduler } from './schedules/scheduler.ts';
import { startWebhookDelivery } from './webhooks/delivery.ts';
import { startWorkers, type JobKind } from './jobs/workers.ts';

export interface JobRuntime {
  queue: JobQueue;
  crawl: CrawlOptions;
  /** robots.txt for fetches outside a crawl (scheduled checks, fresh exports), shared by the process. */
  robots: RobotsCache;
  stop(): Promise<void>;
}

export interface JobRuntimeDeps {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  /** The API's job reads in this process (see GenerationJobDeps.jobReads). */
  jobReads?: ReadCache<GenerationJob>;
}

export function crawlOptionsFrom(config: Config): CrawlOptions {
  return { allowPrivate: config.crawlAllowPrivate };
}

export function jobKinds(deps: JobRuntimeDeps & { crawl: CrawlOptions; pages: PagePool; threads: GenerationThreads; renderer: BrowserPool }): JobKind[] {
  const common = { db: deps.database.db, clock: deps.clock, crawl: deps.crawl, renderer: deps.renderer };
  return [
    discoveryJobKind(common),
    generationJobKind({ ...common, describer: describerFromConfig(deps.config.llm), pages: deps.pages, threads: deps.threads, limits: deps.config.generation, publicUrl: deps.config.publicUrl, jobReads: deps.jobReads }),
  ];
}

export async function startJobRuntime(deps: JobRuntimeDeps, log: FastifyBaseLogger, options: { workers: boolean; warmUp?: boolean }): Promise<JobRuntime> {
  const settings = deps.config.jobs;
  // pg-boss must not hand a job out twice while its worker lives; our leases catch dead workers sooner.
  const queue = new JobQueue(
    deps.database,
    { pollingIntervalSeconds: settings.pollSeconds, expireInSeconds: 6 * 3600, jobsPerAccount: settings.perAccount },
    (error) => log.error({ err: error }, 'job queue error'),
    (warning) => log.warn({ data: warning.data }, `job queue: ${warning.message}`),
  );
  await queue.start();
  const crawl = crawlOptionsFrom(deps.config);
  const threads = options.workers ? createGenerationThreads(deps.config.generation.threadMemoryMb, { warm: options.warmUp }) : null;
  // Bundled while the generation thread loads; tests' runtimes (no warm-up) skip the half second.
  const bundle = options.workers && options.warmUp ? await bundleOrNot(log) : null;
  const pages = options.workers ? createPagePool(undefined, { warm: options.warmUp, workerFile: bundle?.file }) : null;
  // Chromium starts with the first page a job renders, not here.
  const renderer = options.workers ? new BrowserPool(deps.config.render) : null;
  // Jobs are taken once the threads are warm: a first job beside their start ran up to a fifth slower (docs/decisions/isolation.md).
  if (options.warmUp && options.workers) {
    log.info('job queue ready; warming up the page and generation threads before taking jobs');
    await Promise.all([pages?.warmedUp, threads?.loaded]);
  }
  const stopSweeper = pages && threads && renderer
    ? await startWorkers({ db: deps.database.db, clock: deps.clock, queue, settings, log }, jobKinds({ ...deps, crawl, pages, threads, renderer }))
    : () => {};
  // Webhooks go out from the processes that run jobs, through the crawler's address guard.
  const delivery = {
    db: deps.database.db,
    clock: deps.clock,
    jwtSecret: deps.config.jwtSecret,
    guard: crawl,
    timeoutMs: deps.config.webhookTimeoutMs,
    concurrency: deps.config.webhookConcurrency,
    perAccount: deps.config.webhookConcurrencyPerAccount,
    log,
  };
  const stopDelivery = options.workers ? startWebhookDelivery(delivery, settings.pollSeconds * 1000) : async () => {};
  const robots = new RobotsCache(deps.clock);
  const scheduler = { db: deps.database.db, clock: deps.clock, queue, crawl, robots, log, aiConfigured: hasAiProvider(deps.config.llm), ...deps.config.schedules };
  const stopScheduler = options.workers ? startScheduler(scheduler, settings.pollSeconds * 1000) : async () => {};
  return {
    queue,
    crawl,
    robots,
    async stop() {
      stopSweeper();
      await stopDelivery();
      await stopScheduler();
      await queue.stop();
      await pages?.close();
      bundle?.remove();
      await threads?.close();
      await renderer?.close();
    },
  };
}

/** The page worker's bundle (see bundlePageWorker), or null: the page threads then load its modules, slower to start. */
async function bundleOrNot(log: FastifyBaseLogger): Promise<PageWorkerBundle | null> {
  try {
    return await bundlePageWorker();
  } catch (error) {
    log.warn({ err: error }, 'the page worker was not bundled: the page threads load its modules one by one (slower to start)');
    return null;
  }
}
