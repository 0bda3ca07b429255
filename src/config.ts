import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Everything the service reads from its environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  /** Read the client address from X-Forwarded-For (only behind a proxy that sets it). */
  trustProxy: boolean;
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
}

export interface RateLimits {
  /** requests per minute for one caller (API key, token or IP) on any endpoint */
  perCaller: number;
  /** generation and discovery starts per minute for one caller */
  jobStarts: number;
  /** requests per minute per IP on the public auth and account-creation endpoints */
  publicPerIp: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function decimal(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function boolean(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

/**
 * Without JWT_SECRET a random secret is made once and kept in the data folder, so tokens
 * survive restarts on a laptop; production must set it explicitly.
 */
function jwtSecret(env: Env, dataDir: string, production: boolean): string {
  const given = env.JWT_SECRET;
  if (given) {
    if (given.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');
    return given;
  }
  if (production) throw new ConfigError('JWT_SECRET is required when NODE_ENV=production');
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: Env = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '0.0.0.0';
  const dataDir = resolve(env.DATA_DIR || './data');
  const stripeSecretKey = env.STRIPE_SECRET_KEY || null;
  const paymentProvider = oneOf(env, 'PAYMENT_PROVIDER', ['local', 'stripe'], stripeSecretKey ? 'stripe' : 'local');
  if (paymentProvider === 'stripe' && (!stripeSecretKey || !env.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  }
  if (production && paymentProvider === 'local') {
    // Anyone can "pay" on the local provider's pages: it is for laptops and tests only.
    throw new ConfigError('PAYMENT_PROVIDER=local is not allowed when NODE_ENV=production: set the Stripe keys');
  }
  const llmProvider = oneOf(env, 'LLM_PROVIDER', ['none', 'openai-compatible', 'anthropic'], 'none');
  const llmBaseUrl = url(env, 'LLM_BASE_URL', ['http:', 'https:']);
  if (llmProvider === 'openai-compatible' && !llmBaseUrl) {
    throw new ConfigError('LLM_PROVIDER=openai-compatible needs LLM_BASE_URL');
  }
  if (llmProvider !== 'none' && !env.LLM_MODEL) {
    throw new ConfigError(`LLM_PROVIDER=${llmProvider} needs LLM_MODEL`);
  }
  return {
    port,
    host,
    trustProxy: boolean(env, 'TRUST_PROXY'),
    publicUrl: url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`,
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    jwtSecret: jwtSecret(env, dataDir, production),
    production,
    paymentProvider,
    stripeSecretKey,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || null,
    llm: {
      provider: llmProvider,
      baseUrl: llmBaseUrl,
      apiKey: env.LLM_API_KEY || null,
      model: env.LLM_MODEL || null,
      timeoutMs: integer(env, 'LLM_TIMEOUT_SECONDS', 60, 1, 600) * 1000,
    },
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || 'llms.txt service <no-reply@localhost>',
    signupCredits: integer(env, 'SIGNUP_CREDITS', 20, 0, 1_000_000),
    crawlAllowPrivate: boolean(env, 'CRAWL_ALLOW_PRIVATE'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    rateLimits: {
      perCaller: integer(env, 'RATE_LIMIT_PER_CALLER', 300, 1, 1_000_000),
      jobStarts: integer(env, 'RATE_LIMIT_JOB_STARTS', 60, 1, 1_000_000),
      publicPerIp: integer(env, 'RATE_LIMIT_PUBLIC_PER_IP', 60, 1, 1_000_000),
    },
    rateLimitNamespace: env.RATE_LIMIT_NAMESPACE || 'llmstxt-rate-limit-',
    jobs: {
      concurrency: integer(env, 'WORKER_CONCURRENCY', 2, 1, 64),
      leaseSeconds: integer(env, 'JOB_LEASE_SECONDS', 30, 1, 3600),
      maxAttempts: integer(env, 'JOB_MAX_ATTEMPTS', 3, 1, 10),
      pollSeconds: decimal(env, 'JOB_POLL_SECONDS', 0.5, 0.5, 60),
    },
  };
}
