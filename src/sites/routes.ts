import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../config.ts';
import type { CrawlOptions, RobotsCache } from '../crawl/index.ts';
import type { Database } from '../db/database.ts';
import { messages } from '../errors.ts';
import { callerOf } from '../http/authenticate.ts';
import { FILE_ROUTE, fileUrls, HOSTED_PAGE_ROUTE } from '../http/paths.ts';
import { errorAnswers, SuccessMessage } from '../http/schemas.ts';
import { Id, IsoDate, Nullable, OneOf, PageFields, PageQuery } from '../shapes.ts';
import type { App, RoutePlugin } from '../http/types.ts';
import { FileSizesView, fileSizesView, GenerationOptionsView, readGenerationOptions } from '../generation/options.ts';
import type { ListChange } from '../generation/site-history.ts';
import { ScheduleView, scheduleView, schedulesOf, type SiteSchedule } from '../schedules/schedules.ts';
import {
  combineMarkdown,
  deleteSite,
  exportMarkdown,
  filesBySite,
  lastFailures,
  type LastFailure,
  type SiteFilesSummary,
  getOwnedSite,
  listMappedUrls,
  listSites,
  MAPPED_URL_STATUSES,
  SITE_STATUSES,
  type Site,
} from './sites.ts';
import { answerSiteFile, ServedFiles, type SiteFileAnswer } from './served-files.ts';
import { answerPageMarkdown } from './hosted-markdown.ts';
import { hostedPagesPrefix } from './markdown-paths.ts';

const SiteView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  userId: Type.String(),
  status: Type.String(),
  fileUrl: Type.String(),
  fullTextUrl: Nullable(Type.String()),
  lastGenerationOptions: Nullable(GenerationOptionsView),
  files: FileSizesView,
  schedule: ScheduleView,
  lastChange: Nullable(
    Type.Object(
      {
        at: IsoDate,
        added: Type.Array(Type.String()),
        removed: Type.Array(Type.String()),
        retitled: Type.Array(Type.Object({ url: Type.String(), from: Type.String(), to: Type.String() })),
      },
      { description: "What the last generation changed in the list (null after the first); the previous files: the file URLs with ?previous=true" },
    ),
  ),
  lastFailure: Nullable(
    Type.Object(
      { jobId: Type.String(), message: Type.String(), at: IsoDate },
      { description: "Why the site's latest generation failed, and when; null unless the site's status is failed" },
    ),
  ),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});

const MappedUrlView = Type.Object({
  id: Type.String(),
  siteId: Type.String(),
  url: Type.String(),
  title: Type.String(),
  description: Type.String(),
  status: Type.String(),
  lastModified: Nullable(Type.String()),
});

const SiteParams = Type.Object({ siteId: Id });
const Paging = (defaultLimit: number, statuses: readonly string[]) =>
  Type.Object(
    {
      ...PageQuery(defaultLimit),
      status: Type.Optional(OneOf(statuses)),
    },
    { additionalProperties: false },
  );

/** A hosted file's answer: 304 when the caller has it, else its bytes in the negotiated encoding. */
function sendFile(reply: FastifyReply, file: SiteFileAnswer, contentType: string) {
  reply.header('etag', file.etag).header('last-modified', file.updatedAt.toUTCString()).header('cache-control', 'public, max-age=300').header('vary', 'Accept-Encoding');
  if (file.body === null) return reply.code(304).send(null);
  if (file.encoding !== 'identity') reply.header('content-encoding', file.encoding);
  return reply.type(contentType).send(file.body);
}

type SiteRoutesDeps = { db: Database; config: Config; crawl: CrawlOptions; robots: RobotsCache };

export const siteRoutes: RoutePlugin<SiteRoutesDeps> = async (app, deps) => {
  siteListingRoutes(app, deps);
  markdownExportRoute(app, deps);
  hostedFileRoutes(app, deps, new ServedFiles(deps.config.hostedFileCacheBytes));
};

/** A site as the API shows it, with its files, schedule and last failure. */
function siteView(publicUrl: string, site: Site, { kinds, sizes }: SiteFilesSummary, schedule: SiteSchedule | undefined, failure: LastFailure | undefined) {
  const urls = fileUrls(publicUrl, site.id);
  return {
    id: site.id,
    url: site.url,
    userId: site.accountId,
    status: site.status,
    fileUrl: urls.fileUrl,
    fullTextUrl: kinds.has('full') ? urls.fullTextUrl : null,
    files: kinds.size > 0 ? fileSizesView(sizes) : null,
    schedule: scheduleView(schedule),
    lastChange: (site.lastChange as ListChange | null) ?? null,
    lastGenerationOptions: site.lastGenerationOptions ? readGenerationOptions(site.lastGenerationOptions) : null,
    lastFailure: failure ? { jobId: failure.jobId, message: failure.message, at: failure.at.toISOString() } : null,
    createdAt: site.createdAt.toISOString(),
    updatedAt: site.updatedAt.toISOString(),
  };
}

/** The account's sites: listed, one by one, deleted, and each one's mapped URLs. */
function siteListingRoutes(app: App, { db, config }: SiteRoutesDeps): void {
  app.get(
    '/sites',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Sites'],
        summary: "The account's sites, most recently updated first",
        querystring: Paging(20, SITE_STATUSES),
        response: { 200: Type.Object({ sites: Type.Array(SiteView), ...PageFields }) },
      },
    },
    async (request) => {
      const result = await listSites(db, callerOf(request).accountId, request.query);
      const ids = result.sites.map((s) => s.id);
      const [files, schedules, failures] = await Promise.all([filesBySite(db, ids), schedulesOf(db, ids), lastFailures(db, result.sites)]);
      return { ...result, sites: result.sites.map((s) => siteView(config.publicUrl, s, files.get(s.id)!, schedules.get(s.id), failures.get(s.id))) };
    },
  );

  app.get(
    '/sites/:siteId',
    { config: { auth: 'any' }, schema: { tags: ['Sites'], summary: 'A site', params: SiteParams, response: { 200: SiteView, ...errorAnswers(403, 404) } } },
    async (request) => {
      const site = await getOwnedSite(db, callerOf(request).accountId, request.params.siteId);
      const [files, schedules, failures] = await Promise.all([filesBySite(db, [site.id]), schedulesOf(db, [site.id]), lastFailures(db, [site])]);
      return siteView(config.publicUrl, site, files.get(site.id)!, schedules.get(site.id), failures.get(site.id));
    },
  );

  app.delete(
    '/sites/:siteId',
    {
      config: { auth: 'any' },
      schema: { tags: ['Sites'], summary: 'Delete a site, its mapped URLs, jobs and hosted files', params: SiteParams, response: { 200: SuccessMessage, ...errorAnswers(403, 404) } },
    },
    async (request) => {
      await deleteSite(db, callerOf(request).accountId, request.params.siteId);
      return { success: true, message: messages.siteDeleted };
    },
  );

  app.get(
    '/sites/:siteId/urls',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Sites'],
        summary: "The site's mapped URLs",
        params: SiteParams,
        querystring: Paging(50, MAPPED_URL_STATUSES),
        response: {
          200: Type.Object({ urls: Type.Array(MappedUrlView), ...PageFields }),
          ...errorAnswers(403, 404),
        },
      },
    },
    async (request) => listMappedUrls(db, callerOf(request).accountId, request.params.siteId, request.query),
  );
}

/** A site's pages as one markdown download, fetched again with `fresh=true`. */
function markdownExportRoute(app: App, { db, config, crawl, robots }: SiteRoutesDeps): void {
  app.get(
    '/sites/:siteId/markdown/export',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Sites'],
        summary: "The site's pages as markdown (paid plans): JSON per page, or one combined download",
        params: SiteParams,
        querystring: Type.Object(
          { format: OneOf(['individual', 'combined'], { default: 'individual' }), fresh: Type.Boolean({ default: false }) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Union([
            Type.Object({
              success: Type.Boolean(),
              format: Type.String(),
              files: Type.Array(Type.Object({ url: Type.String(), title: Type.String(), markdown: Type.String() })),
            }),
            Type.String({ description: 'combined: text/markdown download' }),
          ]),
          ...errorAnswers(403, 404),
        },
      },
    },
    async (request, reply) => {
      const { format, fresh } = request.query;
      const accountId = callerOf(request).accountId;
      const files = await exportMarkdown({ db, crawl, robots }, accountId, request.params.siteId, fresh);
      if (format === 'individual') return { success: true, format, files };
      const site = await getOwnedSite(db, accountId, request.params.siteId);
      const filename = `${new URL(site.url).hostname.replace(/[^a-z0-9.-]/gi, '_')}.md`;
      return reply
        .type('text/markdown; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(combineMarkdown(site.url, files));
    },
  );
}

/** The hosted files (public): llms.txt, llms-full.txt and each page's markdown, one copy in memory per version. */
function hostedFileRoutes(app: App, { db }: SiteRoutesDeps, servedFiles: ServedFiles): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: FILE_ROUTE,
    schema: {
      tags: ['Files'],
      summary: 'The hosted llms.txt of a site (public); ?full=true for llms-full.txt',
      params: SiteParams,
      querystring: Type.Object(
        { full: Type.Boolean({ default: false }), previous: Type.Boolean({ default: false, description: 'the file of the generation before the latest' }) },
        { additionalProperties: false },
      ),
      response: { 200: Type.String(), 304: Type.Null(), ...errorAnswers(404) },
    },
    handler: async (request, reply) => {
      const { full, previous } = request.query;
      const file = await answerSiteFile(db, servedFiles, request.params.siteId, `${previous ? 'previous-' : ''}${full ? 'full' : 'llms'}`, {
        acceptEncoding: request.headers['accept-encoding'],
        ifNoneMatch: request.headers['if-none-match'],
      });
      return sendFile(reply, file, 'text/plain; charset=utf-8');
    },
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: HOSTED_PAGE_ROUTE,
    schema: {
      tags: ['Files'],
      summary: "A page's markdown (public), from the site's last generation that kept it (showFullText or linkMarkdown)",
      description: 'The path is the page\'s own with `.md`: `/docs/intro` → `pages/docs/intro.md`, `/docs/` → `pages/docs/index.md`.',
      params: Type.Object({ siteId: Id, '*': Type.String() }),
      response: { 200: Type.String(), 304: Type.Null(), ...errorAnswers(404) },
    },
    handler: async (request, reply) => {
      // The path as sent, still percent-encoded, as it was stored.
      const rawPath = request.url.split('?', 1)[0];
      const prefix = hostedPagesPrefix(request.params.siteId);
      const path = rawPath.slice(rawPath.indexOf(prefix) + prefix.length);
      const file = await answerPageMarkdown(db, servedFiles, request.params.siteId, path, {
        acceptEncoding: request.headers['accept-encoding'],
        ifNoneMatch: request.headers['if-none-match'],
      });
      return sendFile(reply, file, 'text/markdown; charset=utf-8');
    },
  });
}
