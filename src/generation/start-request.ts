/**
 * A generation's start request and job view, as `POST /generate` and `GET /generate/{jobId}` answer
 * them and the MCP tools answer the same: one schema, one reading, one view.
 */
import { Type, type Static } from 'typebox';
import type { Config } from '../config.ts';
import { errors, jobMessages, priceMessages } from '../errors.ts';
import { fileUrls } from '../http/paths.ts';
import { parsePathFilters } from '../job-input/url-filters.ts';
import { parseTargetUrl, TargetUrl } from '../job-input/target-url.ts';
import { assertCanRender } from '../crawl/index.ts';
import { startGeneration, type GenerationJob } from './generation.ts';
import { stageView } from './job-progress.ts';
import { ContractOptionFields, ExtensionOptionFields, fileSizesView, readGenerationOptions, type FileSizes, type GenerationOptions } from './options.ts';
import { unusedCredits } from './pricing.ts';

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
export function readStartBody(body: StartRequest, config: Pick<Config, 'render'>): { url: string; options: GenerationOptions; cacheAge: number } {
  const { cacheAge, ...options } = body.options;
  const url = parseTargetUrl(body.url);
  if (options.maxTokens !== null && !options.showFullText) throw errors.validation('maxTokens limits llms-full.txt: it needs showFullText true');
  assertCanRender(options.render, config.render);
  return { url, options: { ...options, ...parsePathFilters(options) }, cacheAge };
}

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
    pagesRendered: completed ? job.pagesRendered : null,
    creditsUsed: creditsUsed(job, options),
    createdAt: job.createdAt.toISOString(),
    completedAt: job.completedAt?.toISOString() ?? null,
  };
}

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
