/** The generation job as the workers run it: collect pages → extract → describe → render → store. */
import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { and, eq, sql } from '../db/orm.ts';
import type { Clock } from '../clock.ts';
import type { BrowserPool, CrawlOptions, RenderMode } from '../crawl/index.ts';
import type { Database, Transaction } from '../db/database.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { generationJobs, mappedUrls, siteFiles, sites } from '../db/schema.ts';
import { jobMessages } from '../errors.ts';
import type { GenerationLimits } from '../config.ts';
import type { Describer, GenerationResult } from '../llms-txt/index.ts';
import { defineJobKind, whileOwned, type JobKindSpec } from '../jobs/job-kind.ts';
import type { JobKind } from '../jobs/workers.ts';
import { failGenerationJob, getGenerationJob, refund, type GenerationJob } from './generation.ts';
import { fileUrls } from '../http/paths.ts';
import { hostedMarkdownBase, hostedMarkdownPath } from '../sites/markdown-paths.ts';
import { recordEvent } from '../webhooks/events.ts';
import { fileSizesView, readGenerationOptions } from './options.ts';
import { generateInThread, type GeneratedFiles } from './generation-thread.ts';
import type { GenerationThreads } from './generation-threads.ts';
import { keepPreviousFiles, listChange } from './site-history.ts';
import { pageReader, type PagePool } from './page-pool.ts';
import { collectPages } from './page-collection.ts';
import { followLatestJob } from './site-status.ts';
import { FILE_PART_CHARS, writeSiteFile } from '../sites/site-files.ts';
import { unusedCredits } from './pricing.ts';
import type { JobPhase, JobProgress } from './job-progress.ts';
import { countFinishedJob, metrics } from '../metrics/metrics.ts';

export interface GenerationJobDeps {
  db: Database;
  clock: Clock;
  crawl: CrawlOptions;
  /** the configured model; null means the built-in extractive describer writes `enhanced` descriptions */
  describer: Describer | null;
  /** worker threads that read the pages; inline on the job's thread when absent */
  pages?: PagePool;
  /** the job's time budget and its generation thread's heap (see timeBudgetMs, generation-thread.ts) */
  limits: GenerationLimits;
  /** where each job's thread comes from; a new thread per job when absent */
  threads?: GenerationThreads;
  /** for the file URLs a `generation.completed` webhook carries */
  publicUrl: string;
  /** the process's browser, for jobs that render their pages; absent where jobs are not run */
  renderer?: BrowserPool;
  /**
   * The API's job reads in this process. A job puts its row there just before the transaction that
   * stores its pages: on the embedded database (one connection) a poll that missed the cache would
   * otherwise wait for that whole transaction.
   */
  jobReads?: ReadCache<GenerationJob>;
}

/**
 * Mapped-URL rows per INSERT: at most 100, and no more markdown than one part of a file (at least
 * one row). The embedded database's heap, which never shrinks, grows to the largest statement.
 */
const INSERT_ROWS = 100;
const INSERT_MARKDOWN_CHARS = FILE_PART_CHARS;

/**
 * Pages' worth of time a job has beyond its pages: finding the site's sitemaps and robots.txt,
 * starting the thread, storing the files.
 */
const BUDGET_BASE_PAGES = 60;

/** A page rendered in a browser takes about this many times a fetched one's time (docs/decisions/rendering.md). */
const RENDERING_TIME_FACTOR = 3;

/** How long a job may run before it is stopped and refunded: it grows with the pages it may list, and with rendering. */
export function timeBudgetMs(secondsPerPage: number, maxUrls: number, render: RenderMode = 'never'): number {
  return Math.round(secondsPerPage * (BUDGET_BASE_PAGES + maxUrls) * 1000 * (render === 'never' ? 1 : RENDERING_TIME_FACTOR));
}

/** Progress bands: finding pages, fetching them, describing, rendering. */
const band = (from: number, to: number, done: number, total: number) => Math.floor(from + ((to - from) * Math.min(done, total)) / Math.max(total, 1));

const BANDS: Record<JobPhase, [number, number]> = { discovering: [0, 30], fetching: [30, 70], describing: [70, 95], writing: [95, 95] };

/** A report of the phase's counts, with the percentage its band gives; writing has no counts. */
function report(phase: JobPhase, done: number, total: number): JobProgress {
  const [from, to] = BANDS[phase];
  const counts = phase === 'writing' ? { done: null, total: null } : { done, total };
  return { percent: band(from, to, done, total), stage: { phase, ...counts } };
}

export function generationJobKind(deps: GenerationJobDeps): JobKind {
  const { db, clock } = deps;
  return defineJobKind({
    ...deps,
    rows: generationJobs,
    queue: 'generation',
    progressFields: ({ percent, stage }: JobProgress) => ({ progress: Math.min(99, percent), stage }),
    async run(job, context) {
      await db.transaction((tx) => followLatestJob(tx, job.siteId, clock.now()));
      await runGeneration(deps, job, context);
    },
    async fail(jobId, message, attempt) {
      await failGenerationJob(db, clock, jobId, message, attempt);
    },
  });
}

type RunContext = Parameters<JobKindSpec<typeof generationJobs, JobProgress>['run']>[1];

/** Collects the site's pages, generates its files in a generation thread and stores them, within the job's time budget. */
async function runGeneration(deps: GenerationJobDeps, job: GenerationJob, { signal, attempt, progress }: RunContext): Promise<void> {
  const options = readGenerationOptions(job.options);
  const budgetMs = timeBudgetMs(deps.limits.secondsPerPage, options.maxUrls, options.render);
  const overBudget = AbortSignal.timeout(budgetMs);
  // Ends the crawl too when the generation stops first (its thread failed).
  const finished = new AbortController();
  const jobSignal = AbortSignal.any([signal, overBudget, finished.signal]);
  try {
    const collected = collectJobPages(deps, job, options, jobSignal, progress);
    const files = await generateInThread(collected, threadOptions(deps, job, options), {
      threads: deps.threads,
      describer: deps.describer,
      pages: deps.pages,
      memoryMb: deps.limits.threadMemoryMb,
      signal: jobSignal,
      onProgress: (p) => {
        if (p.phase === 'describe' && p.total) progress(report('describing', p.done, p.total));
        if (p.phase === 'render') progress(report('writing', p.done, p.total ?? 1));
      },
    });
    await progress.flush();
    if (collected.rendering.looksScriptRendered) throw new Error(jobMessages.scriptRendered(job.url));
    if (files.result.pages.length === 0) throw new Error(jobMessages.noPages(job.url));
    await store(deps, job, attempt, files, { failures: collected.failures, pagesRendered: collected.rendering.rendered });
  } catch (error) {
    if (overBudget.aborted && !signal.aborted) throw new Error(jobMessages.overTimeBudget(Math.round(budgetMs / 1000), options.maxUrls));
    throw error;
  } finally {
    finished.abort();
  }
}

type JobOptions = ReturnType<typeof readGenerationOptions>;

/** The crawl and fetches of the job's pages, counted in its progress and metrics as they arrive. */
function collectJobPages(deps: GenerationJobDeps, job: GenerationJob, options: JobOptions, signal: AbortSignal, progress: RunContext['progress']) {
  let fetched = 0;
  return collectPages(job.url, {
    maxUrls: options.maxUrls,
    paths: options,
    signal,
    crawl: deps.crawl,
    onDiscovered: (found) => progress(report('discovering', found, options.maxUrls)),
    onFetched: (done, total) => {
      metrics.pagesFetched.inc({ kind: 'generation' }, Math.max(0, done - fetched));
      fetched = Math.max(fetched, done);
      progress(report('fetching', done, total));
    },
    read: pageReader(deps.pages, { extractsContent: options.generationMethod === 'enhanced' || options.showFullText || options.linkMarkdown }),
    render: { mode: options.render, pool: deps.renderer },
    siteMarkdown: options.showFullText || options.linkMarkdown,
  });
}

function threadOptions(deps: GenerationJobDeps, job: GenerationJob, options: JobOptions) {
  return {
    siteUrl: job.url,
    method: options.generationMethod,
    maxPages: options.maxUrls,
    includeModificationDate: options.includeModificationDate,
    fullText: options.showFullText,
    maxFullTextTokens: options.maxTokens,
    describerKind: deps.describer?.kind ?? null,
    extractorConcurrency: deps.pages?.concurrency ?? null,
    hostedMarkdownBase: options.linkMarkdown ? hostedMarkdownBase(deps.publicUrl, job.siteId) : null,
  };
}

/** Writes everything a completed job leaves behind, in one transaction, unless the claim lost the job meanwhile. */
async function store(
  deps: GenerationJobDeps,
  job: GenerationJob,
  attempt: number,
  { result, sizes }: GeneratedFiles,
  { failures, pagesRendered }: { failures: Map<string, string>; pagesRendered: number },
) {
  const { db, clock } = deps;
  const options = readGenerationOptions(job.options);
  const now = clock.now();
  const pagesLeftOut = result.stats.fullTextPagesLeftOut;
  const message = jobMessages.completed(result.pages.length, { withoutAi: job.methodAsked !== null, leftOut: pagesLeftOut });
  // A page rendered but not listed (the job reads more pages than it lists) is not charged.
  const listedRendered = options.render === 'never' ? null : Math.min(pagesRendered, result.pages.length);
  if (deps.jobReads) await getGenerationJob(db, job.accountId, job.id, deps.jobReads);
  const unused = unusedCredits(job.creditsReserved, { pagesListed: result.pages.length, pagesRendered: listedRendered ?? 0, method: options.generationMethod });
  const stored = await db.transaction(async (tx) => {
    const [completed] = await tx
      .update(generationJobs)
      .set({ status: 'completed', progress: 100, stage: null, message, pagesGenerated: result.pages.length, pagesLeftOut, pagesRendered: listedRendered, completedAt: now, updatedAt: now, leaseExpiresAt: null })
      .where(whileOwned(generationJobs, job.id, attempt))
      .returning();
    if (!completed) return null;
    const change = await listChange(tx, job.siteId, result.pages, now);
    await replaceMappedUrls(tx, job.siteId, result, failures);
    await keepPreviousFiles(tx, job.siteId);
    // The files are written while the thread sizes them; each file's size goes in after its text.
    // llms-full.txt first: its parts are written while the count runs, where llms.txt's few would wait for it.
    if (result.llmsFullTxt !== null) await writeSiteFile(tx, job.siteId, 'full', result.llmsFullTxt, sizes.then((sized) => sized.llmsFullTxt!));
    else await tx.delete(siteFiles).where(and(eq(siteFiles.siteId, job.siteId), eq(siteFiles.kind, 'full')));
    await writeSiteFile(tx, job.siteId, 'llms', result.llmsTxt, sizes.then((sized) => sized.llmsTxt));
    const fileSizes = await sizes;
    await tx.update(generationJobs).set({ fileSizes }).where(eq(generationJobs.id, job.id));
    const urls = fileUrls(deps.publicUrl, job.siteId);
    await recordEvent(tx, job.accountId, 'generation.completed', {
      id: job.id,
      siteId: job.siteId,
      url: job.url,
      status: 'completed',
      pagesGenerated: result.pages.length,
      fileUrl: urls.fileUrl,
      fullTextUrl: result.llmsFullTxt === null ? null : urls.fullTextUrl,
      files: fileSizesView(fileSizes),
      completedAt: now.toISOString(),
    }, now);
    await refund(
      tx,
      job,
      unused,
      `Refund: generation of ${job.url} used ${result.pages.length} of ${options.maxUrls} pages` + (listedRendered === null ? '' : `, ${listedRendered} of them rendered`),
    );
    await tx.update(sites).set({ lastGenerationOptions: options, lastChange: change }).where(eq(sites.id, job.siteId));
    await followLatestJob(tx, job.siteId, now);
    return completed;
  });
  if (!stored) return;
  countFinishedJob('generation', options.generationMethod, 'completed', stored.startedAt, now);
  metrics.creditsRefunded.inc(unused);
}

async function replaceMappedUrls(tx: Transaction, siteId: string, result: GenerationResult, failures: Map<string, string>) {
  await tx.delete(mappedUrls).where(eq(mappedUrls.siteId, siteId));
  const rows = [
    ...result.pages.map((page) => ({
      url: page.url,
      title: page.title,
      description: page.description,
      status: 'scraped',
      lastModified: page.lastModified,
      markdown: page.markdown,
      contentHash: page.contentHash ?? null,
      markdownPath: page.markdown ? hostedMarkdownPath(page.url) : null,
    })),
    ...[...failures.keys()].map((url) => ({ url, title: '', description: '', status: 'failed', lastModified: null, markdown: null, contentHash: null, markdownPath: null })),
  ].map((row, position) => ({ id: randomUUID(), position, ...row }));
  for (const batch of insertBatches(rows)) {
    await insertMappedUrls(tx, siteId, batch);
    // The embedded database runs on this thread: between statements, requests answered from memory go on.
    await yieldToEventLoop();
  }
}

type MappedUrlRow = Required<
  Pick<typeof mappedUrls.$inferInsert, 'id' | 'position' | 'url' | 'title' | 'description' | 'status' | 'lastModified' | 'markdown' | 'contentHash' | 'markdownPath'>
>;

/**
 * One statement per batch with one array per column (unnest), not drizzle's multi-row VALUES: the
 * statement has a parameter per column instead of one per value, which is several times faster on both
 * databases (docs/decisions/hosted-files.md).
 */
async function insertMappedUrls(tx: Transaction, siteId: string, rows: MappedUrlRow[]) {
  const column = (key: keyof MappedUrlRow, type: 'text' | 'integer') => sql`${sql.param(rows.map((row) => row[key]))}::${sql.raw(type)}[]`;
  await tx.execute(sql`
    insert into ${mappedUrls} (id, site_id, position, url, title, description, status, last_modified, markdown, content_hash, markdown_path)
    select id, ${siteId}, position, url, title, description, status, last_modified, markdown, content_hash, markdown_path
    from unnest(${column('id', 'text')}, ${column('position', 'integer')}, ${column('url', 'text')}, ${column('title', 'text')},
      ${column('description', 'text')}, ${column('status', 'text')}, ${column('lastModified', 'text')}, ${column('markdown', 'text')},
      ${column('contentHash', 'text')}, ${column('markdownPath', 'text')})
      as page(id, position, url, title, description, status, last_modified, markdown, content_hash, markdown_path)
    on conflict do nothing`);
}

/** Consecutive rows, at most INSERT_ROWS of them and INSERT_MARKDOWN_CHARS of markdown (a larger row goes alone). */
function* insertBatches<Row extends { markdown: string | null }>(rows: Row[]): Generator<Row[]> {
  let batch: Row[] = [];
  let chars = 0;
  for (const row of rows) {
    const size = row.markdown?.length ?? 0;
    if (batch.length > 0 && (batch.length === INSERT_ROWS || chars + size > INSERT_MARKDOWN_CHARS)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(row);
    chars += size;
  }
  if (batch.length > 0) yield batch;
}
