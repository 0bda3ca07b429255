/**
 * The database schema, one PostgreSQL dialect for PGlite and PostgreSQL alike.
 * `npm run db:generate` turns changes here into a new SQL migration under migrations/.
 */
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  sql,
  text,
  timestamp,
  uniqueIndex,
} from './orm.ts';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    company: text('company'),
    plan: text('plan').notNull().default('free'),
    /** Cached sum of the account's credit_transactions, kept in step in the same transaction. */
    creditBalance: integer('credit_balance').notNull().default(0),
    /** Lifetime sums kept by the ledger with each entry: credits bought (and granted), and spent net of refunds. */
    totalPurchased: integer('total_purchased').notNull().default(0),
    totalUsed: integer('total_used').notNull().default(0),
    billingCustomerId: text('billing_customer_id').unique(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('accounts_email_lower_idx').on(sql`lower(${t.email})`),
    check('accounts_credit_balance_non_negative', sql`${t.creditBalance} >= 0`),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('api_keys_account_idx').on(t.accountId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    /** The API key the session was started with: deleting (revoking) the key ends the session. Null for e-mail login. */
    apiKeyId: text('api_key_id').references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** When the family ends however often it is rotated: the user logs in again then. */
    familyExpiresAt: timestamp('family_expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('refresh_tokens_account_idx').on(t.accountId), index('refresh_tokens_family_idx').on(t.familyId)],
);

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

export const creditTransactions = pgTable(
  'credit_transactions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    amount: integer('amount').notNull(),
    description: text('description').notNull(),
    siteId: text('site_id').references(() => sites.id, { onDelete: 'set null' }),
    /** Makes a grant or refund happen at most once (e.g. `checkout:<sessionId>`). */
    reference: text('reference').unique(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_transactions_account_idx').on(t.accountId, t.createdAt),
    check('credit_transactions_type', sql`${t.type} in ('purchase', 'usage', 'refund')`),
  ],
);

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

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    providerSubscriptionId: text('provider_subscription_id').notNull().unique(),
    planId: text('plan_id').notNull(),
    status: text('status').notNull(),
    billingCycle: text('billing_cycle').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true, mode: 'date' }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true, mode: 'date' }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** Provider time of the last applied change: older events are ignored. */
    providerUpdatedAt: timestamp('provider_updated_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [index('subscriptions_account_idx').on(t.accountId)],
);

/** Checkout sessions created by the service: what was sold is read from here, never from the caller. */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    mode: text('mode').notNull(),
    packageId: text('package_id'),
    planId: text('plan_id'),
    billingCycle: text('billing_cycle'),
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('checkout_sessions_account_idx').on(t.accountId)],
);

/** Payment-provider events already applied, so a redelivered event changes nothing. */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The `local` payment provider's own store (src/billing/local/emulator.ts): Stripe-shaped objects
 * (customers, checkout sessions, subscriptions, invoices, portal sessions) kept as JSON, like an
 * emulated provider account. Nothing of the service reads these; it goes through the provider.
 */
export const localPayObjects = pgTable(
  'local_pay_objects',
  {
    id: text('id').primaryKey(),
    /** Stripe's `object` name: `customer`, `checkout.session`, `subscription`, `invoice`, `billing_portal.session` */
    object: text('object').notNull(),
    customerId: text('customer_id'),
    /** Makes a create call happen once, like Stripe's Idempotency-Key. */
    idempotencyKey: text('idempotency_key').unique(),
    data: jsonb('data').notNull(),
    ...timestamps,
  },
  (t) => [index('local_pay_objects_customer_idx').on(t.customerId, t.object)],
);

/** Events the local provider sent (or tried to send) to the service's webhook receiver, as signed. */
export const localPayEvents = pgTable(
  'local_pay_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** The exact JSON body that was signed. */
    payload: text('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('local_pay_events_created_idx').on(t.createdAt)],
);

/** Settings of the local provider shared by every process on the database (its webhook signing secret). */
export const localPaySettings = pgTable('local_pay_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** One-time login codes sent by e-mail; stored only as hashes. */
export const loginCodes = pgTable(
  'login_codes',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('login_codes_account_idx').on(t.accountId)],
);

/**
 * Idempotency-Key records: the first answer to a keyed request, replayed to its retries for 24
 * hours. `response_status` is null while the first request is still being answered.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);

/** Where an account wants to hear about its jobs (webhooks/). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    /** The signing secret, sealed with a key derived from JWT_SECRET (it must be read back to sign). */
    sealedSecret: text('sealed_secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** While a delivery to the endpoint is under way (one at a time), when it is taken for lost. */
    busyUntil: timestamp('busy_until', { withTimezone: true, mode: 'date' }),
    /** The first failed attempt since the last delivered one; null while the endpoint answers. */
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    /** Set once every attempt has failed for a day: nothing is sent or queued until it is enabled again. */
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('webhook_endpoints_account_idx').on(t.accountId)],
);

/** One event for one endpoint: the outbox the delivery loop works through, and its history. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** Also the Standard Webhooks `webhook-id`: the same on every attempt. */
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    /** pending → delivered, or failed once the retries are spent; `notice` for the service's own entries (webhook.disabled). */
    status: text('status').notNull().default('pending'),
    /** When the next attempt is due. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    attempts: jsonb('attempts').$type<Array<{ at: string; statusCode: number | null; error: string | null; durationMs: number }>>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt), index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt)],
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
