// Sites, their hosted files and their scheduled refreshes.
import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from '../orm.ts';
import { timestamps } from './columns.ts';
import { accounts } from './accounts.ts';

export const sites = pgTable(
  'sites',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    status: text('status').notNull().default('pending'),
    lastGenerationOptions: jsonb('last_generation_options'),
    /** What the last generation changed in the list: pages added, removed and retitled. */
    lastChange: jsonb('last_change'),
    ...timestamps,
  },
  (t) => [uniqueIndex('sites_account_url_idx').on(t.accountId, t.url)],
);

/**
 * The hosted llms.txt (kind `llms`) and llms-full.txt (kind `full`) of a site's last good generation;
 * their text is in site_file_parts.
 */
export const siteFiles = pgTable(
  'site_files',
  {
    siteId: text('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    etag: text('etag').notNull(),
    /** Size in UTF-8 bytes and in tokens (llms-txt/tokens.ts); null for files stored before sizes were kept. */
    bytes: integer('bytes'),
    tokens: integer('tokens'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('site_files_site_kind_idx').on(t.siteId, t.kind)],
);

/**
 * A file's text in parts of at most FILE_PART_CHARS characters, in order: the embedded database
 * keeps the memory its largest statement needed for good (docs/decisions/hosted-files.md). The
 * parts follow their file when it is renamed (`previous-…`) or deleted.
 */
export const siteFileParts = pgTable(
  'site_file_parts',
  {
    siteId: text('site_id').notNull(),
    kind: text('kind').notNull(),
    part: integer('part').notNull(),
    content: text('content').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.kind, t.part] }),
    foreignKey({ columns: [t.siteId, t.kind], foreignColumns: [siteFiles.siteId, siteFiles.kind], name: 'site_file_parts_file_fk' })
      .onUpdate('cascade')
      .onDelete('cascade'),
  ],
);

/** A site's scheduled refresh (schedules/): a generation with the site's last options, when its pages changed. */
export const siteSchedules = pgTable(
  'site_schedules',
  {
    siteId: text('site_id').primaryKey().references(() => sites.id, { onDelete: 'cascade' }),
    /** `daily`, `weekly`, or a cron expression (UTC) at most hourly. */
    frequency: text('frequency').notNull(),
    status: text('status').notNull().default('active'),
    pausedReason: text('paused_reason'),
    /** When the next check is due; while one is under way, when it is taken for lost. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true, mode: 'date' }),
    /** unchanged, regenerated, paused, or failed: what the last check did. */
    lastOutcome: text('last_outcome'),
    lastJobId: text('last_job_id'),
    ...timestamps,
  },
  (t) => [index('site_schedules_due_idx').on(t.status, t.nextRunAt)],
);
