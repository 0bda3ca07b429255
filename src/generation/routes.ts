import { Type } from 'typebox';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { errors, jobMessages, messages } from '../errors.ts';
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
import type { GuardOptions } from '../crawl/index.ts';
import { cancelGeneration, getGenerationJob, startGeneration, type GenerationJob } from './generation.ts';
import { ContractOptionFields, ExtensionOptionFields, FileSizesView, fileSizesView, GenerationOptionsView, readGenerationOptions, type FileSizes } from './options.ts';

const OptionsSchema = Type.Object(
  {
    ...ContractOptionFields,
    cacheAge: Type.Integer({ minimum: 0, maximum: 30 * 24 * 3600 * 1000, default: 3_600_000, description: 'milliseconds' }),
    ...ExtensionOptionFields,
  },
  { additionalProperties: false, default: {} },
);

const StartBody = Type.Object({ url: TargetUrl, options: OptionsSchema }, { additionalProperties: false });

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

/** A job's file URLs exist only once it has completed (the contract's state rules). */
function jobView(publicUrl: string, job: GenerationJob) {
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
    createdAt: job.createdAt.toISOString(),
    completedAt: job.completedAt?.toISOString() ?? null,
  };
}

export const generationRoutes: RoutePlugin<{ db: Database; clock: Clock; config: Config; queue: JobQueue; crawl: GuardOptions; jobReads: ReadCache<GenerationJob> }> = async (
  app,
  deps,
) => {
  const { db, config, jobReads } = deps;
  const sendJob = cachedAnswer((job: GenerationJob) => jobView(config.publicUrl, job));

  app.post(
    '/generate',
    {
      bodyLimit: BODY_LIMITS.jobOptions,
      config: { auth: 'any', idempotent: true, rateLimit: { max: config.rateLimits.jobStarts } },
      schema: {
        tags: ['Generation'],
        summary: 'Generate llms.txt (and llms-full.txt) for a website; costs credits',
        description: 'Costs ceil(maxUrls / 10) credits for `simple`, twice that for `enhanced`; unused credits come back when the job lists fewer pages. A recent identical generation (younger than cacheAge) is answered at once for 0 credits.',
        body: StartBody,
        headers: IdempotencyHeaders,
        response: { 200: StartView, ...errorAnswers(402, 409, 422) },
      },
    },
    async (request) => {
      const { body } = request;
      const { cacheAge, ...options } = body.options;
      const url = parseTargetUrl(body.url);
      if (options.maxTokens !== null && !options.showFullText) throw errors.validation('maxTokens limits llms-full.txt: it needs showFullText true');
      const { job, creditsUsed, fromCache } = await startGeneration(deps, callerOf(request).accountId, url, { ...options, ...parsePathFilters(options) }, cacheAge);
      const view = jobView(config.publicUrl, job);
      return {
        jobId: job.id,
        status: fromCache ? 'completed' : 'queued',
        progress: view.progress,
        message: fromCache ? jobMessages.fromCache : jobMessages.queued,
        fileUrl: view.fileUrl,
        fullTextUrl: view.fullTextUrl,
        siteId: job.siteId,
        creditsUsed,
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
      const job = await cancelGeneration(deps, callerOf(request).accountId, request.params.jobId);
      return { success: true, message: messages.generationCanceled, job: jobView(config.publicUrl, job) };
    },
  );
};
