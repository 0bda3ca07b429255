/**
 * `Idempotency-Key` on the routes that start something paid (generation, discovery, checkout):
 * the first answer to a key is kept for 24 hours and replayed to every retry with the same body;
 * the same key with another body is 422, a retry while the first request is still being answered
 * is 409. Keys belong to the account. Only successful answers are kept: after an error the client
 * may retry with the same key.
 */
import { createHash } from 'node:crypto';
import { and, eq } from '../db/orm.ts';
import type { onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { callerOf } from './authenticate.ts';
import { hooksOf } from './route-hooks.ts';
import { JSON_CONTENT_TYPE } from './schemas.ts';
import type { App } from './types.ts';

const KEPT_MS = 24 * 3600_000;
/** A first request unanswered this long is taken for dead (its process was killed): a retry runs again. */
const ABANDONED_MS = 60_000;

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'Retry-safe starts: the same key with the same body answers the first result for 24 hours (see the error answers for reuse)',
    }),
  ),
});

type Held = { accountId: string; key: string };
type Begun = { first: true } | { first: false; status: number; body: string };

/** Canonical JSON: the same body whatever order its keys were written in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestHash(method: string, route: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${route}\n${canonical(body)}`).digest('hex');
}

/** Records a new key (the caller answers first), or answers what a retry gets. */
export async function beginKeyedRequest(db: Database, clock: Clock, held: Held, hash: string): Promise<Begun> {
  const now = clock.now();
  const where = and(eq(idempotencyKeys.accountId, held.accountId), eq(idempotencyKeys.key, held.key));
  for (let tries = 0; tries < 3; tries++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ ...held, requestHash: hash, createdAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) return { first: true };
    const [row] = await db.select().from(idempotencyKeys).where(where);
    if (!row) continue;
    const age = now.getTime() - row.createdAt.getTime();
    if (age >= KEPT_MS || (row.responseStatus === null && age >= ABANDONED_MS)) {
      await db.delete(idempotencyKeys).where(and(where, eq(idempotencyKeys.createdAt, row.createdAt)));
      continue;
    }
    if (row.requestHash !== hash) throw errors.idempotencyKeyReused();
    if (row.responseStatus === null || row.responseBody === null) throw errors.idempotencyKeyInFlight();
    return { first: false, status: row.responseStatus, body: row.responseBody };
  }
  throw errors.idempotencyKeyInFlight();
}

/** Keeps a successful first answer for the retries; forgets the key after a failed one. */
export async function finishKeyedRequest(db: Database, held: Held, status: number, body: string): Promise<void> {
  const where = and(eq(idempotencyKeys.accountId, held.accountId), eq(idempotencyKeys.key, held.key));
  if (status >= 200 && status < 300) await db.update(idempotencyKeys).set({ responseStatus: status, responseBody: body }).where(where);
  else await db.delete(idempotencyKeys).where(where);
}

/**
 * The hooks go on the idempotent routes alone (those with `config.idempotent`): every other
 * request, the polled reads above all, would pay two async hooks for nothing.
 */
export function registerIdempotency(app: App, deps: { db: Database; clock: Clock }): void {
  app.decorateRequest('idempotency', null);

  const begin: preHandlerAsyncHookHandler = async function (request, reply) {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return;
    const held = { accountId: callerOf(request).accountId, key };
    const begun = await beginKeyedRequest(deps.db, deps.clock, held, requestHash(request.method, request.routeOptions.url ?? request.url, request.body));
    if (!begun.first) {
      return reply.code(begun.status).header('idempotent-replayed', 'true').type(JSON_CONTENT_TYPE).send(begun.body);
    }
    request.idempotency = held;
  };
  const finish: onSendAsyncHookHandler = async function (request, reply, payload) {
    if (request.idempotency) await finishKeyedRequest(deps.db, request.idempotency, reply.statusCode, String(payload));
    return payload;
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...hooksOf(route.preHandler), begin];
    route.onSend = [...hooksOf(route.onSend), finish];
  });
}
