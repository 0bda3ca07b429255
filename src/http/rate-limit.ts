import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { RateLimits } from '../config.ts';
import { errors } from '../errors.ts';
import type { App } from './types.ts';

/** A caller is its credentials when it sends any (one key, one budget), else its address. */
function callerKey(request: FastifyRequest): string {
  const header = request.headers.authorization;
  return header ? 'auth:' + createHash('sha256').update(header).digest('base64url') : 'ip:' + request.ip;
}

/**
 * In memory per process for now (DESIGN.md: Redis when REDIS_URL is set, for several machines).
 * Routes tighten it with `config.rateLimit` (job starts, public auth and sign-up).
 */
export async function registerRateLimits(app: App, limits: RateLimits): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: limits.perCaller,
    timeWindow: 60_000,
    keyGenerator: callerKey,
    errorResponseBuilder: (_request, context) => errors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
}
