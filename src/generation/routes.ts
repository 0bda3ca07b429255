import { Type, type Static } from 'typebox';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { errors, jobMessages, messages, priceMessages } from '../errors.ts';
import { callerOf } from '../http/authenticate.ts';
import { cachedAnswer } from '../http/cached-answer.ts';
import { IdempotencyHeaders } from '../http/idempotency.ts';
import { BODY_LIMITS } from '../http/json-bodies.ts';
import { fileUrls } from '../http/paths.ts';
import { errorAnswers, Id, IsoDate, Nullable } from '../http/schemas.ts';
import { parsePathFilters } from '../http/path-patterns.ts';
import { parseTargetUrl, TargetUrl } from '../http/target-url.ts';
import type { RoutePlugin } from '../http/types.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { assertCanRender, type GuardOptions } from '../crawl/index.ts';
import { cancelGeneration, estimateGeneration, getGenerationJob, startGeneration, type GenerationJob } from './generation.ts';
import { JobStageFields, stageView } from './job-progress.ts';
import { ContractOptionFields, ExtensionOptionFields, FileSizesView, fileSizesView, GenerationOptionsView, readGenerationOptions, type FileSizes, type GenerationOptions } from './options.ts';
import { pagesPerCredit, renderingCost, unusedCredits } from './pricing.ts';
import { hasAiProvider } from './describer.ts';

const OptionsSchema = Type.Object(
  {
    ...ContractOptionFields,
    cacheAge: Type.Integer({ minimum: 0, maximum: 30 * 24 * 3600 * 1000, default: 3_600_000, description: 'milliseconds' }),
    ...ExtensionOptionFields,
  },
  { additionalProperties: false, default: {} },
);

export const StartBody = Type.Object({ url: TargetUrl, options: OptionsSchema }, { additionalProperties: false });
export type StartRequest = Static<typeof StartBody>;

/** The start's body as the start and the estimate both read it: the target, the options, the cache age. */
function readStartBody(body: StartRequest, config: Pick<Config, 'render'>): { url: string; options: GenerationOptions; cacheAge: number } {
  const { cacheAge, ...options } = body.options;
  const url = parseTargetUrl(body.url);
  if (options.maxTokens !== null && !options.showFullText) throw errors.validation('maxTokens limits llms-full.txt: it needs showFullText true');
  assertCanRender(options.render, config.render);
  return { url, options: { ...options, ...parsePathFilters(options) }, cacheAge };
}

const EstimateView = Type.Object({
  credits: Type.Integer({ description: 'What the start would reserve now (0 when a recent identical generation would answer it)' }),
  generationMethod: Type.String({ description: 'The method that would run, `simple` or `enhanced`: `simple` when `enhanced` is asked for without an AI provider' }),
  maxUrls: Type.Integer({ description: 'The most pages the job lists' }),
  pagesPerCredit: Type.Integer({ description: 'Pages a credit pays for with that method' }),
  refundRule: Type.String({ description: 'What comes back when the job lists fewer pages' }),
  renderingCredits: Type.Integer({ description: "The part of `credits` reserved for rendering (`render` auto or always): a credit per 10 pages, the part for pages not rendered comes back" }),
  fromCache: Type.Boolean({ description: 'A recent identical generation (younger than cacheAge) would answer the start' }),
  message: Nullable(Type.String({ description: 'Why the method that would run differs from the one asked for' })),
});

const JobView = Type.Object({
  id: Type.String(),
  siteId: Type.String(),
  status: Type.String(),
  progress: Type.Integer(),
  url: Type.String(),
  options: GenerationOptionsView,
  files: FileSizesView,
  fileUrl: Nullable(Type.String()),
  fullTextUrl: Nullable(Type.String()),
  error: Nullable(Type.String()),
  message: Nullable(Type.String()),
  ...JobStageFields,
  pagesGenerated: Nullable(Type.Integer({ description: 'Pages llms.txt lists, once completed' })),
  pagesLeftOut: Nullable(Type.Integer({ description: 'Pages llms-full.txt left out to stay within maxTokens, once completed with a budget' })),
  creditsUsed: Type.Integer({ description: 'Credits this job costs so far: its reservation while unfinished, less what came back once finished' }),
  createdAt: IsoDate,
  completedAt: Nullable(IsoDate),
});

const StartView = Type.Object({
  jobId: Type.String(),
  status: Type.String(),
  progress: Type.Integer(),
  message: Type.String(),
  fileUrl: Nullable(Type.String()),
  fullTextUrl: Nullable(Type.String()),
  siteId: Type.String(),
  creditsUsed: Type.Integer(),
});

/** The reservation while the job runs; all of it back once failed; what the pages listed cost once completed. */
function creditsUsed(job: GenerationJob, options: GenerationOptions): number {
  if (job.status === 'failed') return 0;
  if (job.status !== 'completed' || job.pagesGenerated === null) return job.creditsReserved;
  return job.creditsReserved - unusedCredits(job.creditsReserved, { pagesListed: job.pagesGenerated, pagesRendered: job.pagesRendered ?? 0, method: options.generationMethod });
}

/** A job's file URLs exist only once it has completed (the contract's state rules). */
export function jobView(publicUrl: string, job: GenerationJob) {
  const options = readGenerationOptions(job.options);
  const completed = job.status === 'completed';
  const urls = fileUrls(publicUrl, job.siteId);
  return {
    id: job.id,
    siteId: job.siteId,
    status: job.status,
    progress: completed ? 100 : job.progress,
    url: job.url,
    options,
    files: completed ? fileSizesView(job.fileSizes as FileSizes | null) : null,
    fileUrl: completed ? urls.fileUrl : null,
    fullTextUrl: completed && options.showFullText ? urls.fullTextUrl : null,
    error: job.status === 'failed' ? job.error : null,
    message: job.message,
    ...stageView(job.status, job.stage),
    pagesGenerated: completed ? job.pagesGenerated : null,
    pagesLeftOut: completed ? job.pagesLeftOut : null,
    creditsUsed: creditsUsed(job, options),
    createdAt: job.createdAt.toISOString(),
    completedAt: job.completedAt?.toISOString() ?? null,
  };
}

export const generationRoutes: RoutePlugin<{ db: Database; clock: Clock; config: Config; queue: JobQueue; crawl: GuardOptions; jobReads: ReadCache<GenerationJob> }> = async (
  app,
  deps,
) => {
  const { db, config, jobReads } = deps;
  const generation = { ...deps, aiConfigured: hasAiProvider(config.llm) };
  const sendJob = cachedAnswer((job: GenerationJob) => jobView(config.publicUrl, job));

  app.post(
    '/generate',
    {
      bodyLimit: BODY_LIMITS.jobOptions,
      config: { auth: 'any', idempotent: true, rateLimit: { max: config.rateLimits.jobStarts } },
      schema: {
        tags: ['Generation'],
        summary: 'Generate llms.txt (and llms-full.txt) for a website; costs credits',
        description:
          'Costs ceil(maxUrls / 10) credits for `simple`, twice that for `enhanced` (`enhanced` runs as `simple`, at its price, when no AI provider is configured); unused credits come back when the job lists fewer pages. `render` auto or always reserves a credit more per 10 pages, as if each were rendered; the part for pages not rendered comes back. A recent identical generation (younger than cacheAge) is answered at once for 0 credits. POST /generate/estimate answers the price first.',
        body: StartBody,
        headers: IdempotencyHeaders,
        response: { 200: StartView, ...errorAnswers(402, 409, 422) },
      },
    },
    async (request) => startGenerationFor(generation, callerOf(request).accountId, request.body),
  );

  app.post(
    '/generate/estimate',
    {
      bodyLimit: BODY_LIMITS.jobOptions,
      config: { auth: 'any' },
      schema: {
        tags: ['Generation'],
        summary: 'What POST /generate with this body would cost and run; charges nothing, creates nothing',
        description: 'Takes the body of POST /generate and answers with its errors; `credits` is what that start would reserve now.',
        body: StartBody,
        response: { 200: EstimateView, ...errorAnswers(422) },
      },
    },
    async (request) => {
      const { url, options, cacheAge } = readStartBody(request.body, config);
      const estimate = await estimateGeneration(generation, callerOf(request).accountId, url, options, cacheAge);
      const method = estimate.options.generationMethod;
      return {
        credits: estimate.credits,
        generationMethod: method,
        maxUrls: estimate.options.maxUrls,
        pagesPerCredit: pagesPerCredit(method),
        refundRule: priceMessages.refundRule(pagesPerCredit(method)),
        renderingCredits: estimate.fromCache || estimate.options.render === 'never' ? 0 : renderingCost(estimate.options.maxUrls),
        fromCache: estimate.fromCache,
        message: estimate.withoutAi ? priceMessages.estimateWithoutAi : null,
      };
    },
  );

  app.get(
    '/generate/:jobId',
    {
      config: { auth: 'any' },
      schema: { tags: ['Generation'], summary: 'A generation job', params: Type.Object({ jobId: Id }), response: { 200: JobView, ...errorAnswers(403, 404) } },
    },
    async (request, reply) => {
      const job = await getGenerationJob(db, callerOf(request).accountId, request.params.jobId, jobReads);
      return sendJob(job, reply);
    },
  );

  app.delete(
    '/generate/:jobId',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Generation'],
        summary: 'Cancel an unfinished generation job; its credits come back',
        params: Type.Object({ jobId: Id }),
        response: { 200: Type.Object({ success: Type.Boolean(), message: Type.String(), job: JobView }), ...errorAnswers(403, 404, 409) },
      },
    },
    async (request) => {
      const job = await cancelGeneration(generation, callerOf(request).accountId, request.params.jobId);
      return { success: true, message: messages.generationCanceled, job: jobView(config.publicUrl, job) };
    },
  );
};

type StartDeps = Parameters<typeof startGeneration>[0] & { config: Config };

/** A generation start as `POST /generate` answers it (the MCP `generate` tool answers the same). */
export async function startGenerationFor(deps: StartDeps, accountId: string, body: StartRequest) {
  const { url, options, cacheAge } = readStartBody(body, deps.config);
  const { job, creditsUsed, fromCache, withoutAi } = await startGeneration(deps, accountId, url, options, cacheAge);
  const view = jobView(deps.config.publicUrl, job);
  return {
    jobId: job.id,
    status: fromCache ? 'completed' : 'queued',
    progress: view.progress,
    message: fromCache ? jobMessages.fromCache : withoutAi ? priceMessages.queuedWithoutAi : jobMessages.queued,
    fileUrl: view.fileUrl,
    fullTextUrl: view.fullTextUrl,
    siteId: job.siteId,
    creditsUsed,
  };
}
