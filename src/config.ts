import { resolve } from 'node:path';
import { boolean, ConfigError, decimal, integer, oneOf, url, type Env } from './config/env-values.ts';
import { jwtSecret } from './config/jwt-secret.ts';

/** Headless Chromium for `options.render` (crawl/render/browser-pool.ts). */
export interface RenderSettings {
  /** Chromium's executable (Debian's `chromium`) */
  chromiumPath: string;
  /** pages rendered at once in this process */
  concurrency: number;
  /** one page's time budget, from its navigation to its HTML */
  pageTimeoutMs: number;
  /** the browser is closed after this long without a page */
  idleMs: number;
  /** the V8 heap of a page's renderer: a page that allocates without end crashes there */
  memoryMb: number;
}

/** Everything the service reads from its environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  /**
   * Which X-Forwarded-For hops to believe: false (none), the number of proxies in front of the
   * service, or their addresses/CIDR ranges. Never every hop: a client could name its own address.
   */
  trustProxy: false | number | string[];
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  jwtSecret: string;
  production: boolean;
  paymentProvider: 'local' | 'stripe';
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  llm: {
    provider: 'none' | 'openai-compatible' | 'anthropic';
    baseUrl: string | null;
    apiKey: string | null;
    model: string | null;
    timeoutMs: number;
  };
  smtpUrl: string | null;
  /** Sender of the service's e-mail. */
  mailFrom: string;
  signupCredits: number;
  crawlAllowPrivate: boolean;
  logLevel: string;
  rateLimits: RateLimits;
  /** Redis key prefix of the rate-limit counters (services sharing a Redis share a prefix). */
  rateLimitNamespace: string;
  jobs: JobSettings;
  /** How long a webhook receiver may take to answer one delivery. */
  webhookTimeoutMs: number;
  /** Scheduled checks (schedules/scheduler.ts): how many at once per process, and each one's time budget. */
  schedules: { concurrency: number; checkBudgetMs: number };
  /** Webhook deliveries one process has under way at once (never two to one endpoint). */
  webhookConcurrency: number;
  /** Webhook deliveries of one account under way at once, across processes: slow receivers of one account leave slots to the others. */
  webhookConcurrencyPerAccount: number;
  http: HttpTimeouts;
  /** Bytes of hosted files (and their compressed forms) kept in memory after they were sent. */
  hostedFileCacheBytes: number;
  generation: GenerationLimits;
  /** Headless Chromium for `options.render` (crawl/render/browser-pool.ts). */
  render: RenderSettings;
  /** /metrics: who may read it (Bearer METRICS_TOKEN on the API's port) and where else (METRICS_PORT); neither: not served. */
  metrics: { token: string | null; port: number | null };
}

/** How long a client may take over what it sends: a socket past them is closed. */
export interface HttpTimeouts {
  /** to receive a request's complete headers */
  headersTimeoutMs: number;
  /** to receive a whole request, body included (the answer is not counted) */
  requestTimeoutMs: number;
  /** an idle kept-alive connection */
  keepAliveTimeoutMs: number;
}

/** What one generation job may use before it is stopped (and refunded): see generation-job.ts. */
export interface GenerationLimits {
  /** the job's time budget per page of its maxUrls (see timeBudgetMs) */
  secondsPerPage: number;
  /** the heap of the thread that generates the job's files */
  threadMemoryMb: number;
}

export interface JobSettings {
  /** jobs one process runs at once, per queue */
  concurrency: number;
  /** a running job renews its lease this often ÷ 3; a job whose lease ran out is taken up again */
  leaseSeconds: number;
  /** tries before a job whose worker keeps dying is failed (and refunded) */
  maxAttempts: number;
  /** how often idle workers look for jobs when no notification woke them (pg-boss's minimum is 0.5) */
  pollSeconds: number;
  /** pending plus running jobs one account may have of each kind; one more start answers 429 */
  perAccount: number;
}

export interface RateLimits {
  /** requests per minute for one caller (API key, token or IP) on any endpoint */
  perCaller: number;
  /** generation and discovery starts per minute for one caller */
  jobStarts: number;
  /** requests per minute per IP on the public auth and account-creation endpoints */
  publicPerIp: number;
}

/** TRUST_PROXY: false, a hop count, or a comma-separated list of proxy addresses or CIDR ranges. */
function trustedProxies(env: Env): false | number | string[] {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (/^\d+$/.test(raw)) return integer(env, 'TRUST_PROXY', 0, 0, 10);
  if (raw === 'true') {
    throw new ConfigError('TRUST_PROXY=true would believe every X-Forwarded-For hop: give the number of proxies in front of the service (e.g. 1) or their addresses');
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const address = /^(?:[\d.]+|[\da-f:]+)(?:\/\d{1,3})?$/i;
  const wrong = entries.find((entry) => !address.test(entry));
  if (wrong !== undefined) throw new ConfigError(`TRUST_PROXY must be false, a number of proxies or proxy addresses/CIDRs, got "${wrong}"`);
  return entries;
}

export function loadConfig(env: Env = process.env): Config {
  // Production is recognised by one spelling only; any other value is refused rather than taken
  // for a laptop (where the `local` payment pages would hand out credits).
  const production = oneOf(env, 'NODE_ENV', ['development', 'test', 'production'], 'development') === 'production';
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const dataDir = resolve(env.DATA_DIR || './data');
  const payments = paymentSettings(env, production);
  if (production && !env.SMTP_URL) {
    // Without SMTP login codes would go to the log, readable by whoever reads the logs.
    throw new ConfigError('SMTP_URL is required when NODE_ENV=production (login codes are sent by e-mail)');
  }
  const llm = llmSettings(env);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    trustProxy: trustedProxies(env),
    publicUrl: url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`,
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    jwtSecret: jwtSecret(env, dataDir, production),
    production,
    ...payments,
    llm,
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || 'llms.txt service <no-reply@localhost>',
    signupCredits: integer(env, 'SIGNUP_CREDITS', 20, 0, 1_000_000),
    crawlAllowPrivate: boolean(env, 'CRAWL_ALLOW_PRIVATE'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    rateLimits: rateLimits(env),
    rateLimitNamespace: env.RATE_LIMIT_NAMESPACE || 'llmstxt-rate-limit-',
    jobs: jobSettings(env),
    ...webhookSettings(env),
    schedules: {
      concurrency: integer(env, 'SCHEDULE_CONCURRENCY', 4, 1, 64),
      // Under the 15-minute lease of a claimed schedule, so a check never outlives its lease.
      checkBudgetMs: Math.round(decimal(env, 'SCHEDULE_CHECK_SECONDS', 120, 0.5, 600) * 1000),
    },
    http: httpTimeouts(env),
    hostedFileCacheBytes: integer(env, 'HOSTED_FILE_CACHE_MB', 64, 0, 65_536) * 1024 * 1024,
    generation: {
      secondsPerPage: decimal(env, 'GENERATION_SECONDS_PER_PAGE', 1, 0.001, 3600),
      threadMemoryMb: integer(env, 'GENERATION_THREAD_MEMORY_MB', 1024, 16, 65_536),
    },
    render: renderSettings(env),
    metrics: metricsSettings(env, port),
  };
}

function paymentSettings(env: Env, production: boolean): Pick<Config, 'paymentProvider' | 'stripeSecretKey' | 'stripeWebhookSecret'> {
  const stripeSecretKey = env.STRIPE_SECRET_KEY || null;
  const paymentProvider = oneOf(env, 'PAYMENT_PROVIDER', ['local', 'stripe'], stripeSecretKey ? 'stripe' : 'local');
  if (paymentProvider === 'stripe' && (!stripeSecretKey || !env.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  }
  if (production && paymentProvider === 'local') {
    // Anyone can "pay" on the local provider's pages: it is for laptops and tests only.
    throw new ConfigError('PAYMENT_PROVIDER=local is not allowed when NODE_ENV=production: set the Stripe keys');
  }
  return { paymentProvider, stripeSecretKey, stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || null };
}

function llmSettings(env: Env): Config['llm'] {
  const provider = oneOf(env, 'LLM_PROVIDER', ['none', 'openai-compatible', 'anthropic'], 'none');
  const baseUrl = url(env, 'LLM_BASE_URL', ['http:', 'https:']);
  if (provider === 'openai-compatible' && !baseUrl) {
    throw new ConfigError('LLM_PROVIDER=openai-compatible needs LLM_BASE_URL');
  }
  if (provider !== 'none' && !env.LLM_MODEL) {
    throw new ConfigError(`LLM_PROVIDER=${provider} needs LLM_MODEL`);
  }
  return {
    provider,
    baseUrl,
    apiKey: env.LLM_API_KEY || null,
    model: env.LLM_MODEL || null,
    timeoutMs: integer(env, 'LLM_TIMEOUT_SECONDS', 60, 1, 600) * 1000,
  };
}

function rateLimits(env: Env): RateLimits {
  return {
    perCaller: integer(env, 'RATE_LIMIT_PER_CALLER', 300, 1, 1_000_000),
    jobStarts: integer(env, 'RATE_LIMIT_JOB_STARTS', 60, 1, 1_000_000),
    publicPerIp: integer(env, 'RATE_LIMIT_PUBLIC_PER_IP', 60, 1, 1_000_000),
  };
}

function jobSettings(env: Env): JobSettings {
  return {
    concurrency: integer(env, 'WORKER_CONCURRENCY', 2, 1, 64),
    leaseSeconds: integer(env, 'JOB_LEASE_SECONDS', 30, 1, 3600),
    maxAttempts: integer(env, 'JOB_MAX_ATTEMPTS', 3, 1, 10),
    pollSeconds: decimal(env, 'JOB_POLL_SECONDS', 0.5, 0.5, 60),
    perAccount: integer(env, 'JOBS_PER_ACCOUNT', 3, 1, 1000),
  };
}

function webhookSettings(env: Env): Pick<Config, 'webhookTimeoutMs' | 'webhookConcurrency' | 'webhookConcurrencyPerAccount'> {
  return {
    webhookTimeoutMs: Math.round(decimal(env, 'WEBHOOK_TIMEOUT_SECONDS', 10, 0.1, 60) * 1000),
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 50, 1, 1000),
    webhookConcurrencyPerAccount: integer(env, 'WEBHOOK_CONCURRENCY_PER_ACCOUNT', 5, 1, 1000),
  };
}

/** Chromium for rendering; the CLI reads the same variables. */
export function renderSettings(env: Env): RenderSettings {
  return {
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    concurrency: integer(env, 'RENDER_CONCURRENCY', 2, 1, 16),
    pageTimeoutMs: Math.round(decimal(env, 'RENDER_PAGE_TIMEOUT_SECONDS', 10, 0.5, 120) * 1000),
    idleMs: Math.round(decimal(env, 'RENDER_IDLE_SECONDS', 30, 0.1, 3600) * 1000),
    memoryMb: integer(env, 'RENDER_MEMORY_MB', 256, 32, 4096),
  };
}

function metricsSettings(env: Env, port: number): Config['metrics'] {
  const token = env.METRICS_TOKEN || null;
  if (token !== null && token.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  const metricsPort = env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 1, 65535) : null;
  if (metricsPort !== null && metricsPort === port) throw new ConfigError('METRICS_PORT must differ from PORT: it is served without a token, to the operator’s network only');
  return { token, port: metricsPort };
}

function httpTimeouts(env: Env): HttpTimeouts {
  const seconds = (name: string, fallback: number) => Math.round(decimal(env, name, fallback, 0.1, 3600) * 1000);
  const timeouts = {
    headersTimeoutMs: seconds('HTTP_HEADERS_TIMEOUT_SECONDS', 10),
    requestTimeoutMs: seconds('HTTP_REQUEST_TIMEOUT_SECONDS', 30),
    keepAliveTimeoutMs: seconds('HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', 72),
  };
  // Node refuses a server whose headers may take longer than the whole request.
  if (timeouts.headersTimeoutMs > timeouts.requestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_SECONDS must not exceed HTTP_REQUEST_TIMEOUT_SECONDS');
  }
  return timeouts;
}

/** What an operator should know at start: settings that are allowed but risky where they are. */
export function startupWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.production && config.crawlAllowPrivate) {
    warnings.push('CRAWL_ALLOW_PRIVATE=true in production: the crawler may reach private and internal addresses (intended only for crawling your own intranet)');
  }
  return warnings;
}
