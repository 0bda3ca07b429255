import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { RateLimits } from '../config.ts';
import { errors } from '../errors.ts';
import type { App } from './types.ts';

/**
 * One budget per account (all its keys and sessions together) when the request's credentials are
 * valid; otherwise per client address, so made-up or refused credentials buy no fresh budget.
 */
function callerKey(request: FastifyRequest): string {
  return request.identity ? `account:${request.identity.accountId}` : `ip:${request.ip}`;
}

export interface RateLimitStore {
  redisUrl: string | null;
  /** Key prefix in Redis, so services (or test runs) sharing one Redis can keep apart. */
  namespace?: string;
}

/**
 * Counts live in this process's memory, or in Redis when REDIS_URL is set, so that several
 * machines share one budget per caller. Routes tighten it with `config.rateLimit` (job starts,
 * public auth and sign-up).
 */
export async function registerRateLimits(app: App, limits: RateLimits, store: RateLimitStore = { redisUrl: null }): Promise<void> {
  // ioredis loads only when Redis is configured.
  const redis = store.redisUrl
    ? new (await import('ioredis')).Redis(store.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 })
    : null;
  if (redis) {
    redis.on('error', (error) => app.log.warn({ err: error }, 'rate-limit store unreachable'));
    await redis.connect().catch(() => {});
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: true,
    max: limits.perCaller,
    timeWindow: 60_000,
    keyGenerator: callerKey,
    ...(redis ? { redis, nameSpace: store.namespace ?? 'llmstxt-rate-limit-' } : {}),
    // An unreachable Redis must not take the API down with it: requests pass uncounted meanwhile.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => errors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
}
