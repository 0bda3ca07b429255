/**
 * The MCP server of one request: the tools an agent uses to read an account's generated docs and
 * to generate more, each acting for the account whose API key called. A tool's failure is an MCP
 * tool error (`isError`) whose text is the message the API answers for the same failure.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { CrawlOptions, RobotsCache } from '../crawl/index.ts';
import type { Database } from '../db/database.ts';
import { ApiError, errors } from '../errors.ts';
import { getGenerationJob } from '../generation/generation.ts';
import { hasAiProvider } from '../generation/ai-provider.ts';
import { jobView, StartBody, startGenerationFor } from '../generation/start-request.ts';
import { fileSizesView } from '../generation/options.ts';
import { fileUrls } from '../http/paths.ts';
import { bodyChecker } from '../http/validation.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { filesBySite, listSites } from '../sites/sites.ts';
import { findSite, readHostedFile, readListedPage, searchSite } from './docs.ts';

export interface McpDeps {
  db: Database;
  clock: Clock;
  config: Config;
  queue: JobQueue;
  crawl: CrawlOptions;
  robots: RobotsCache;
  log: { error(obj: object, msg: string): void };
}

const SERVER_INFO = { name: 'llmstxt', version: '1.0.0' };
const checkStart = bodyChecker(StartBody);

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const json = (value: object): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> });

const siteArg = z.string().min(1).max(2048).describe('A site id (from list_sites) or the site URL it was generated for');

export function createMcpServer(deps: McpDeps, accountId: string): McpServer {
  const server = new McpServer(SERVER_INFO);
  const tools: ToolContext = { server, deps, accountId, answer: answering(deps.log) };
  registerFileTools(tools);
  registerPageTools(tools);
  registerGenerationTools(tools);
  return server;
}

/** Wraps a tool's work: the API's own message for an ApiError; anything else is logged and answered as the API's 500. */
const answering =
  (log: McpDeps['log']) =>
  <Args>(run: (args: Args) => Promise<CallToolResult>) =>
  async (args: Args): Promise<CallToolResult> => {
    try {
      return await run(args);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      log.error({ err: error }, 'MCP tool failed');
      throw errors.internal();
    }
  };

/** What each group of tools registers with, for the account whose key called. */
interface ToolContext {
  server: McpServer;
  deps: McpDeps;
  accountId: string;
  answer: ReturnType<typeof answering>;
}

/** The account's sites and their hosted files. */
function registerFileTools({ server, deps, accountId, answer }: ToolContext) {
  const { db, config } = deps;
  server.registerTool(
    'list_sites',
    {
      description: "The account's sites (most recently updated first), with their llms.txt and llms-full.txt URLs and sizes",
      inputSchema: { page: z.number().int().min(1).default(1).describe('pages of 100 sites') },
      annotations: { readOnlyHint: true },
    },
    answer(async ({ page }) => {
      const result = await listSites(db, accountId, { page, limit: 100 });
      const files = await filesBySite(db, result.sites.map((site) => site.id));
      const list = result.sites.map((site) => {
        const { kinds, sizes } = files.get(site.id)!;
        const urls = fileUrls(config.publicUrl, site.id);
        return {
          id: site.id,
          url: site.url,
          status: site.status,
          fileUrl: kinds.has('llms') ? urls.fileUrl : null,
          fullTextUrl: kinds.has('full') ? urls.fullTextUrl : null,
          files: kinds.size > 0 ? fileSizesView(sizes) : null,
          updatedAt: site.updatedAt.toISOString(),
        };
      });
      return json({ sites: list, total: result.total, page: result.page, totalPages: result.totalPages });
    }),
  );

  server.registerTool(
    'get_llms_txt',
    {
      description: "A site's llms.txt (or its llms-full.txt with full: true)",
      inputSchema: { site: siteArg, full: z.boolean().default(false) },
      annotations: { readOnlyHint: true },
    },
    answer(async ({ site, full }) => {
      const found = await findSite(db, accountId, site);
      return text(await readHostedFile(db, found.id, full ? 'full' : 'llms'));
    }),
  );

}

/** The pages the files list: one page's markdown, and a search through them. */
function registerPageTools({ server, deps, accountId, answer }: ToolContext) {
  const { db } = deps;
  server.registerTool(
    'get_page',
    {
      description: "The markdown of a page listed in one of the account's llms.txt files: as stored by its last generation, or read from the site now",
      inputSchema: { url: z.string().min(1).max(2048).describe('the page URL as listed in the llms.txt'), site: siteArg.optional() },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    answer(async ({ url, site }) => {
      const siteId = site === undefined ? undefined : (await findSite(db, accountId, site)).id;
      const page = await readListedPage(deps, accountId, url, siteId);
      return text(`# ${page.title || page.url}\n\nSource: ${page.url}\n\n${page.markdown.trim()}\n`);
    }),
  );

  server.registerTool(
    'search_docs',
    {
      description:
        "Passages of a site's pages that match a query, best first (PostgreSQL full-text search: words, \"a phrase\", -excluded, or). Searches the pages its last generation stored (showFullText or the enhanced method)",
      inputSchema: { site: siteArg, query: z.string().min(1).max(500), limit: z.number().int().min(1).max(20).default(5) },
      annotations: { readOnlyHint: true },
    },
    answer(async ({ site, query, limit }) => {
      const found = await findSite(db, accountId, site);
      return json({ site: found.url, query, results: await searchSite(db, found.id, query, limit) });
    }),
  );

}

/** Generating, as the API does, and following the job. */
function registerGenerationTools({ server, deps, accountId, answer }: ToolContext) {
  const { db, config } = deps;
  server.registerTool(
    'generate',
    {
      description: 'Start generating llms.txt for a website, exactly as POST /api/v1/generate does (same options, same price in credits); follow it with job_status',
      inputSchema: {
        url: z.string().describe('the website, http or https'),
        options: z.record(z.string(), z.unknown()).default({}).describe('the options of POST /api/v1/generate: maxUrls, showFullText, generationMethod, includePaths, …'),
      },
    },
    answer(async (args) => json(await startGenerationFor({ ...deps, aiConfigured: hasAiProvider(config.llm) }, accountId, checkStart(args)))),
  );

  server.registerTool(
    'job_status',
    {
      description: 'A generation job: status, progress, and the file URLs once completed',
      inputSchema: { jobId: z.string().min(1).max(100) },
      annotations: { readOnlyHint: true },
    },
    answer(async ({ jobId }) => json(jobView(config.publicUrl, await getGenerationJob(db, accountId, jobId)))),
  );
}
