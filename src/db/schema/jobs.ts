// Generation and discovery jobs, and the URLs each found.
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from '../orm.ts';
import { timestamps } from './columns.ts';
import { accounts } from './accounts.ts';
import { sites } from './sites.ts';

export const generationJobs = pgTable(
  'generation_jobs',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    siteId: text('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    options: jsonb('options').notNull(),
    status: text('status').notNull().default('pending'),
    progress: integer('progress').notNull().default(0),
    message: text('message'),
    error: text('error'),
    creditsReserved: integer('credits_reserved').notNull(),
    pagesGenerated: integer('pages_generated'),
    /** The completed job's files' sizes: `{ llmsTxt: { bytes, tokens }, llmsFullTxt: … | null }`. */
    fileSizes: jsonb('file_sizes'),
    /** A running job's phase and page counts: `{ phase, done, total }` (see generation/job-progress.ts). */
    stage: jsonb('stage'),
    /** Pages llms-full.txt left out to keep within maxTokens (null: no budget, or no full text). */
    pagesLeftOut: integer('pages_left_out'),
    /** Pages rendered in a browser and listed (render auto or always), charged a credit per 10; null otherwise. */
    pagesRendered: integer('pages_rendered'),
    /** The method asked for when it differs from the one that ran (`enhanced` without an AI provider). */
    methodAsked: text('method_asked'),
    attempts: integer('attempts').notNull().default(0),
    /** A running worker pushes this forward; past it, the job's worker is taken for dead. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('generation_jobs_account_idx').on(t.accountId, t.createdAt),
    index('generation_jobs_site_idx').on(t.siteId),
  ],
);

export const mappedUrls = pgTable(
  'mapped_urls',
  {
    id: text('id').primaryKey(),
    siteId: text('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    status: text('status').notNull().default('pending'),
    lastModified: text('last_modified'),
    markdown: text('markdown'),
    /** SHA-1 of the page's HTML when it was generated: a scheduled refresh compares it (schedules/scheduler.ts). */
    contentHash: text('content_hash'),
    /** Where the page's markdown is hosted below its site's file URL (sites/hosted-markdown.ts); null without markdown. */
    markdownPath: text('markdown_path'),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('mapped_urls_site_url_idx').on(t.siteId, t.url),
    index('mapped_urls_site_position_idx').on(t.siteId, t.position),
    index('mapped_urls_site_markdown_path_idx').on(t.siteId, t.markdownPath),
  ],
);

export const discoveryJobs = pgTable(
  'discovery_jobs',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    type: text('type').notNull(),
    maxUrls: integer('max_urls').notNull(),
    includePaths: jsonb('include_paths').$type<string[]>().notNull().default([]),
    excludePaths: jsonb('exclude_paths').$type<string[]>().notNull().default([]),
    /** never | auto | always (crawl/render/modes.ts) */
    render: text('render').notNull().default('never'),
    status: text('status').notNull().default('pending'),
    progress: integer('progress').notNull().default(0),
    urlsFound: integer('urls_found').notNull().default(0),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** A running worker pushes this forward; past it, the job's worker is taken for dead. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('discovery_jobs_account_idx').on(t.accountId, t.createdAt)],
);

export const discoveredUrls = pgTable(
  'discovered_urls',
  {
    id: text('id').primaryKey(),
    discoveryId: text('discovery_id').notNull().references(() => discoveryJobs.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    source: text('source').notNull(),
    lastModified: text('last_modified'),
    position: integer('position').notNull(),
  },
  (t) => [
    uniqueIndex('discovered_urls_job_url_idx').on(t.discoveryId, t.url),
    index('discovered_urls_job_position_idx').on(t.discoveryId, t.position),
  ],
);
