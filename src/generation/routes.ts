import { Type } from 'typebox';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { errors, messages, priceMessages } from '../errors.ts';
import { callerOf } from '../http/authenticate.ts';
import { cachedAnswer } from '../http/cached-answer.ts';
import { IdempotencyHeaders } from '../http/idempotency.ts';
import { BODY_LIMITS } from '../http/json-bodies.ts';
import { errorAnswers } from '../http/schemas.ts';
import { Id, IsoDate, Nullable } from '../shapes.ts';
import type { App, RoutePlugin } from '../http/types.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { GuardOptions } from '../crawl/index.ts';
import { cancelGeneration, estimateGeneration, getGenerationJob, type GenerationJob } from './generation.ts';
import { JobStageFields } from './job-progress.ts';
import { FileSizesView, GenerationOptionsView } from './options.ts';
import { pagesPerCredit, renderingCost } from './pricing.ts';
import { hasAiProvider } from './ai-provider.ts';
import { jobView, readStartBody, StartBody, startGenerationFor } from './start-request.ts';

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
  pagesRendered: Nullable(Type.Integer({ description: 'Listed pages that were rendered in a browser, once completed with render auto or always (charged a credit per 10)' })),
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

type GenerationRouteDeps = { db: Database; clock: Clock; config: Config; queue: JobQueue; crawl: GuardOptions; jobReads: ReadCache<GenerationJob> };

/** What the routes share: the dependencies, and whether an AI provider is configured. */
type GenerationContext = GenerationRouteDeps & { aiConfigured: boolean };

export const generationRoutes: RoutePlugin<GenerationRouteDeps> = async (app, deps) => {
  const generation = { ...deps, aiConfigured: hasAiProvider(deps.config.llm) };
  startRoutes(app, generation);
  jobRoutes(app, generation);
};

/** A generation started, and its price asked first. */
function startRoutes(app: App, generation: GenerationContext): void {
  const { config } = generation;
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
}

/** A job read and canceled. */
function jobRoutes(app: App, generation: GenerationContext): void {
  const { db, config, jobReads } = generation;
  const sendJob = cachedAnswer((job: GenerationJob) => jobView(config.publicUrl, job));

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
}
