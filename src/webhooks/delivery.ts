/**
 * The delivery loop: sends due webhook deliveries, signed per Standard Webhooks, and schedules
 * retries. The deliveries table is the queue, so a delivery survives a restart. Each endpoint has
 * one delivery under way at a time: claiming one leases its endpoint (busy until the receiver's
 * timeout and a minute more), so a process that dies mid-send leaves it to be sent again when the
 * lease runs out. Each delivery frees its slot as it ends, whatever the others do; every tick
 * fills the free slots with the due deliveries of idle endpoints, taking turns between accounts so
 * one account's slow receivers never hold back another's.
 */
import { metrics } from '../metrics/metrics.ts';
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from '../db/orm.ts';
import { Webhook } from 'standardwebhooks';
import { request, type Dispatcher } from 'undici';
import type { Clock } from '../clock.ts';
import { createGuardedAgent, type GuardOptions } from '../crawl/index.ts';
import { openSecret } from '../crypto/secrets.ts';
import { runEvery } from '../jobs/periodic.ts';
import { rowsOf, type Database, type Transaction } from '../db/database.ts';
import { webhookDeliveries, webhookEndpoints } from '../db/schema.ts';
import { webhookMessages } from '../errors.ts';
import { SECRET_PURPOSE } from './endpoints.ts';

/**
 * Waits before each attempt after the first: Standard Webhooks' suggested schedule, about 27 hours
 * from the first attempt to the last of 8.
 */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
/** An endpoint whose every attempt has failed for this long is disabled (DESIGN §5). */
const DISABLE_AFTER_FAILING_MS = 24 * 3_600_000;
const DISABLED_EVENT = 'webhook.disabled';
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface DeliveryDeps {
  db: Database;
  clock: Clock;
  jwtSecret: string;
  guard: GuardOptions;
  timeoutMs: number;
  /** deliveries under way at once in this process */
  concurrency: number;
  /** deliveries of one account under way at once, in all processes */
  perAccount: number;
  log: { warn(obj: object, msg: string): void };
}

interface Claimed {
  id: string;
  endpoint_id: string;
  url: string;
  sealed_secret: string;
  payload: unknown;
  attempts: unknown[];
}

type Outcome = (typeof webhookDeliveries.$inferSelect)['attempts'][number];

/** Ticks every `intervalMs`; returns the function that stops it (and waits for the deliveries under way). */
export function startWebhookDelivery(deps: DeliveryDeps, intervalMs: number): () => Promise<void> {
  const agent = createGuardedAgent({ ...deps.guard, connectTimeoutMs: deps.timeoutMs });
  const underway = new Map<string, Promise<void>>();
  const stop = runEvery(intervalMs, () => startDue(deps, agent, underway), (error) => deps.log.warn({ err: error }, 'webhook delivery round failed'));
  return async () => {
    await stop();
    await Promise.all(underway.values());
    await agent.close();
  };
}

/**
 * Starts as many due deliveries as there are free slots, without waiting for them to end.
 * `underway` maps the endpoints this process is sending to, to the attempt under way.
 */
async function startDue(deps: DeliveryDeps, agent: Dispatcher, underway: Map<string, Promise<void>>): Promise<void> {
  const free = deps.concurrency - underway.size;
  if (free <= 0) return;
  for (const delivery of await claimDue(deps, free, [...underway.keys()])) {
    const sent = attempt(deps, agent, delivery)
      .catch((error) => deps.log.warn({ err: error, deliveryId: delivery.id }, 'webhook delivery failed to record'))
      .finally(() => underway.delete(delivery.endpoint_id));
    underway.set(delivery.endpoint_id, sent);
  }
}

/**
 * Leases up to `limit` idle endpoints with a due delivery, and answers the oldest due delivery of
 * each. Accounts take turns: an account's n-th endpoint (counting those already under way) comes
 * after every other account's (n-1)-th, and never past `perAccount`, so however many slow
 * receivers one account has, the others find free slots. The endpoints this process is still
 * sending to are left out even if their lease ran out (a test's clock moved on).
 */
async function claimDue(deps: DeliveryDeps, limit: number, sending: string[]): Promise<Claimed[]> {
  const now = deps.clock.now();
  const leaseUntil = new Date(now.getTime() + deps.timeoutMs + 60_000);
  const result = await deps.db.execute(sql`
    WITH due AS (
      SELECT DISTINCT ON (d.endpoint_id) d.id, d.endpoint_id, e.account_id, d.next_attempt_at
      FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${now}
        AND e.disabled_at IS NULL AND (e.busy_until IS NULL OR e.busy_until <= ${now})
        AND NOT (${JSON.stringify(sending)}::jsonb ? e.id)
      ORDER BY d.endpoint_id, d.next_attempt_at, d.id
    ), busy AS (
      SELECT account_id, count(*) AS endpoints FROM webhook_endpoints WHERE busy_until > ${now} GROUP BY account_id
    ), turns AS (
      SELECT due.id, due.endpoint_id, due.next_attempt_at,
        coalesce(busy.endpoints, 0) + row_number() OVER (PARTITION BY due.account_id ORDER BY due.next_attempt_at, due.id) AS turn
      FROM due LEFT JOIN busy USING (account_id)
    ), chosen AS (
      SELECT id, endpoint_id FROM turns WHERE turn <= ${deps.perAccount}
      ORDER BY turn, next_attempt_at, id
      LIMIT ${limit}
    ), leased AS (
      UPDATE webhook_endpoints e SET busy_until = ${leaseUntil}
      FROM chosen
      WHERE e.id = chosen.endpoint_id AND e.disabled_at IS NULL AND (e.busy_until IS NULL OR e.busy_until <= ${now})
      RETURNING e.id, e.url, e.sealed_secret, chosen.id AS delivery_id
    )
    SELECT d.id, d.endpoint_id, leased.url, leased.sealed_secret, d.payload, d.attempts
    FROM webhook_deliveries d JOIN leased ON leased.delivery_id = d.id`);
  return rowsOf(result) as Claimed[];
}

async function attempt(deps: DeliveryDeps, agent: Dispatcher, delivery: Claimed): Promise<void> {
  let secret: string;
  try {
    secret = openSecret(delivery.sealed_secret, deps.jwtSecret, SECRET_PURPOSE);
  } catch (error) {
    deps.log.warn({ err: error, deliveryId: delivery.id, endpointId: delivery.endpoint_id }, webhookMessages.secretUnreadable);
    return failUnsendable(deps, delivery, webhookMessages.secretUnreadable);
  }
  const body = JSON.stringify(delivery.payload);
  // The signature's timestamp is the receiver's wall clock's business, whatever clock schedules retries.
  const signedAt = new Date();
  const signature = new Webhook(secret).sign(delivery.id, signedAt, body);
  const at = deps.clock.now();
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const response = await request(delivery.url, {
      method: 'POST',
      dispatcher: agent,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'llmstxt-webhooks/1',
        'webhook-id': delivery.id,
        'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
      headersTimeout: deps.timeoutMs,
      bodyTimeout: deps.timeoutMs,
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
    statusCode = response.statusCode;
    await drain(response.body);
    if (statusCode < 200 || statusCode > 299) error = `HTTP ${statusCode}`;
  } catch (failure) {
    error = failure instanceof Error && failure.name === 'TimeoutError' ? `no answer within ${deps.timeoutMs} ms` : describe(failure);
  }
  await record(deps, delivery, at, { at: deps.clock.now().toISOString(), statusCode, error, durationMs: Math.round(performance.now() - started) });
}

/**
 * Writes the attempt's outcome and frees the endpoint. A failure keeps the endpoint's failing
 * streak going from `startedAt`; a streak of a day disables it.
 */
async function record(deps: DeliveryDeps, delivery: Claimed, startedAt: Date, outcome: Outcome): Promise<void> {
  const now = deps.clock.now();
  const delay = RETRY_DELAYS_MS[delivery.attempts.length];
  const status = outcome.error === null ? 'delivered' : delay === undefined ? 'failed' : 'pending';
  await deps.db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({
        attempts: sql`${webhookDeliveries.attempts} || ${JSON.stringify([outcome])}::jsonb`,
        status,
        nextAttemptAt: status === 'pending' ? new Date(now.getTime() + delay) : null,
        deliveredAt: status === 'delivered' ? now : null,
      })
      .where(eq(webhookDeliveries.id, delivery.id));
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ busyUntil: null, failingSince: status === 'delivered' ? null : sql`coalesce(${webhookEndpoints.failingSince}, ${startedAt})` })
      .where(eq(webhookEndpoints.id, delivery.endpoint_id))
      .returning({ failingSince: webhookEndpoints.failingSince });
    const failingFor = endpoint?.failingSince ? now.getTime() - endpoint.failingSince.getTime() : 0;
    if (failingFor >= DISABLE_AFTER_FAILING_MS) await disable(tx, delivery.endpoint_id, endpoint.failingSince!, now);
  });
  metrics.webhookDeliveries.inc({ outcome: status === 'pending' ? 'retrying' : status });
}

/**
 * Disables the endpoint: its pending deliveries fail, and a `webhook.disabled` notice heads its
 * delivery log (it is not sent: the endpoint is not answering).
 */
async function disable(tx: Transaction, endpointId: string, failingSince: Date, now: Date): Promise<void> {
  await tx.update(webhookEndpoints).set({ disabledAt: now }).where(eq(webhookEndpoints.id, endpointId));
  await tx
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
  const data = { endpointId, failingSince: failingSince.toISOString(), reason: webhookMessages.disabled(DISABLE_AFTER_FAILING_MS / 3_600_000) };
  await tx.insert(webhookDeliveries).values({
    id: `msg_${randomUUID()}`,
    endpointId,
    event: DISABLED_EVENT,
    status: 'notice',
    payload: { type: DISABLED_EVENT, timestamp: now.toISOString(), data },
    nextAttemptAt: null,
    createdAt: now,
  });
}

/** A delivery that cannot be signed fails at once, never retried; the endpoint is not to blame. */
async function failUnsendable(deps: DeliveryDeps, delivery: Claimed, reason: string): Promise<void> {
  const outcome: Outcome = { at: deps.clock.now().toISOString(), statusCode: null, error: reason, durationMs: 0 };
  await deps.db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} || ${JSON.stringify([outcome])}::jsonb`, status: 'failed', nextAttemptAt: null })
      .where(eq(webhookDeliveries.id, delivery.id));
    await tx.update(webhookEndpoints).set({ busyUntil: null }).where(eq(webhookEndpoints.id, delivery.endpoint_id));
  });
  metrics.webhookDeliveries.inc({ outcome: 'failed' });
}

async function drain(body: AsyncIterable<Buffer>): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    if (read > MAX_RESPONSE_BYTES) break;
  }
}

function describe(failure: unknown): string {
  if (!(failure instanceof Error)) return String(failure);
  const cause = failure.cause instanceof Error ? `: ${failure.cause.message}` : '';
  return `${failure.message}${cause}`.slice(0, 300);
}
