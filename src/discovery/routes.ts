import { Type } from 'typebox';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { callerOf } from '../http/authenticate.ts';
import { IdempotencyHeaders } from '../http/idempotency.ts';
import { BODY_LIMITS } from '../http/json-bodies.ts';
import { errorAnswers } from '../http/schemas.ts';
import { Id, IsoDate, MaxUrls, Nullable, OneOf, PageFields, PageQuery } from '../shapes.ts';
import { parsePathFilters, PathPatternFields } from '../job-input/url-filters.ts';
import { parseTargetUrl, TargetUrl } from '../job-input/target-url.ts';
import type { App, RoutePlugin } from '../http/types.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { assertCanRender, RENDER_MODES, type GuardOptions } from '../crawl/index.ts';
import { DISCOVERY_TYPES, getDiscovery, JOB_STATUSES, listDiscoveredUrls, listDiscoveries, startDiscovery, type DiscoveryJob } from './discovery.ts';

const StartBody = Type.Object(
  {
    url: TargetUrl,
    maxUrls: MaxUrls,
    discoveryType: OneOf(DISCOVERY_TYPES, { default: 'full' }),
    ...PathPatternFields,
    render: OneOf(RENDER_MODES, {
      default: 'never',
      description: 'Render pages in a browser to find the links their scripts write: `auto` pages that look like an application shell, `always` every page',
    }),
  },
  { additionalProperties: false },
);

const Started = Type.Object({
  id: Type.String(),
  url: Type.String(),
  status: Type.Literal('started'),
  discoveryType: Type.String(),
  maxUrls: Type.Integer(),
  progress: Type.String(),
  totalUrlsFound: Type.Integer(),
  createdAt: IsoDate,
  estimatedCompletion: IsoDate,
});

const JobSummary = Type.Object({
  id: Type.String(),
  url: Type.String(),
  type: Type.String(),
  status: Type.String(),
  urlsFound: Type.Integer(),
  createdAt: IsoDate,
});

const JobView = Type.Intersect([
  JobSummary,
  Type.Object({
    includePaths: Type.Array(Type.String()),
    excludePaths: Type.Array(Type.String()),
    render: Type.String(),
    completedAt: Nullable(IsoDate),
    error: Nullable(Type.String()),
  }),
]);

const summary = (job: DiscoveryJob) => ({
  id: job.id,
  url: job.url,
  type: job.type,
  status: job.status,
  urlsFound: job.urlsFound,
  createdAt: job.createdAt.toISOString(),
});

type Deps = { db: Database; clock: Clock; config: Config; queue: JobQueue; crawl: GuardOptions };

export const discoveryRoutes: RoutePlugin<Deps> = async (app, deps) => {
  startRoute(app, deps);
  jobRoutes(app, deps.db);
};

function startRoute(app: App, deps: Deps) {
  app.post(
    '/discovery',
    {
      bodyLimit: BODY_LIMITS.jobOptions,
      config: { auth: 'any', idempotent: true, rateLimit: { max: deps.config.rateLimits.jobStarts } },
      schema: {
        tags: ['Discovery'],
        summary: "Start finding a website's URLs (sitemaps, crawling, or both)",
        body: StartBody,
        headers: IdempotencyHeaders,
        response: {
          201: Started,
          ...errorAnswers(409, 422),
        },
      },
    },
    async (request, reply) => {
      const { body } = request;
      assertCanRender(body.render, deps.config.render);
      const { job, estimatedCompletion } = await startDiscovery(deps, callerOf(request).accountId, {
        url: parseTargetUrl(body.url),
        maxUrls: body.maxUrls,
        type: body.discoveryType,
        render: body.render,
        ...parsePathFilters(body),
      });
      return reply.code(201).send({
        id: job.id,
        url: job.url,
        status: 'started' as const,
        discoveryType: job.type,
        maxUrls: job.maxUrls,
        progress: '0',
        totalUrlsFound: 0,
        createdAt: job.createdAt.toISOString(),
        estimatedCompletion: estimatedCompletion.toISOString(),
      });
    },
  );

}

/** The account's discovery jobs and what each found. */
function jobRoutes(app: App, db: Database) {
  app.get(
    '/discovery',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Discovery'],
        summary: 'List discovery jobs, newest first',
        querystring: Type.Object(
          { status: Type.Optional(OneOf(JOB_STATUSES)), limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ jobs: Type.Array(JobSummary), total: Type.Integer() }) },
      },
    },
    async (request) => {
      const { jobs, total } = await listDiscoveries(db, callerOf(request).accountId, request.query);
      return { jobs: jobs.map(summary), total };
    },
  );

  app.get(
    '/discovery/:discoveryId',
    {
      config: { auth: 'any' },
      schema: { tags: ['Discovery'], summary: 'A discovery job', params: Type.Object({ discoveryId: Id }), response: { 200: JobView, ...errorAnswers(404) } },
    },
    async (request) => {
      const job = await getDiscovery(db, callerOf(request).accountId, request.params.discoveryId);
      return { ...summary(job), includePaths: job.includePaths, excludePaths: job.excludePaths, render: job.render, completedAt: job.completedAt?.toISOString() ?? null, error: job.error };
    },
  );

  app.get(
    '/discovery/:discoveryId/urls',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Discovery'],
        summary: 'The URLs a discovery job found, in the order found',
        params: Type.Object({ discoveryId: Id }),
        querystring: Type.Object(
          PageQuery(50),
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            urls: Type.Array(Type.Object({ url: Type.String(), source: Type.String(), lastModified: Nullable(Type.String()) })),
            ...PageFields,
          }),
          ...errorAnswers(404),
        },
      },
    },
    async (request) =>
      listDiscoveredUrls(db, callerOf(request).accountId, request.params.discoveryId, request.query),
  );
}
