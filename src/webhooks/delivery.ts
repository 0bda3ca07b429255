/**
 * The delivery loop: sends due webhook deliveries, signed per Standard Webhooks, and schedules
 * retries. The deliveries table is the queue, so a delivery survives a restart: a claimed one is
 * leased (its next attempt set past the receiver's timeout), and a process that dies mid-send
 * leaves it to be sent again when the lease runs out.
 */
import { sql } from '../db/orm.ts';
import { Webhook } from 'standardwebhooks';
import { request, type Dispatcher } from 'undici';
import type { Clock } from '../clock.ts';
import { createGuardedAgent, type GuardOptions } from '../crawl/index.ts';
import { openSecret } from '../crypto/secrets.ts';
import { runEvery } from '../jobs/periodic.ts';
import { rowsOf, type Database } from '../db/database.ts';
import { SECRET_PURPOSE } from './endpoints.ts';

/**
 * Waits before each attempt after the first: Standard Webhooks' suggested schedule, about 27 hours
 * from the first attempt to the last of 8.
 */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
const BATCH = 20;
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface DeliveryDeps {
  db: Database;
  clock: Clock;
  jwtSecret: string;
  guard: GuardOptions;
  timeoutMs: number;
  log: { warn(obj: object, msg: string): void };
}

interface Claimed {
  id: string;
  url: string;
  sealed_secret: string;
  payload: unknown;
  attempts: unknown[];
}

/** Polls every `intervalMs`; returns the function that stops it (and waits for the round under way). */
export function startWebhookDelivery(deps: DeliveryDeps, intervalMs: number): () => Promise<void> {
  const agent = createGuardedAgent({ ...deps.guard, connectTimeoutMs: deps.timeoutMs });
  const stop = runEvery(intervalMs, () => deliverDue(deps, agent), (error) => deps.log.warn({ err: error }, 'webhook delivery round failed'));
  return async () => {
    await stop();
    await agent.close();
  };
}

/** Sends every delivery due now, a batch at a time. */
export async function deliverDue(deps: DeliveryDeps, agent: Dispatcher): Promise<void> {
  for (;;) {
    const claimed = await claimDue(deps);
    await Promise.all(claimed.map((delivery) => attempt(deps, agent, delivery)));
    if (claimed.length < BATCH) return;
  }
}

async function claimDue(deps: DeliveryDeps): Promise<Claimed[]> {
  const now = deps.clock.now();
  const leaseUntil = new Date(now.getTime() + deps.timeoutMs + 60_000);
  const result = await deps.db.execute(sql`
    UPDATE webhook_deliveries d SET next_attempt_at = ${leaseUntil}
    FROM webhook_endpoints e
    WHERE e.id = d.endpoint_id AND d.id IN (
      SELECT id FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_at <= ${now}
      ORDER BY next_attempt_at LIMIT ${BATCH}
      FOR UPDATE SKIP LOCKED)
    RETURNING d.id, e.url, e.sealed_secret, d.payload, d.attempts`);
  return rowsOf(result) as Claimed[];
}

async function attempt(deps: DeliveryDeps, agent: Dispatcher, delivery: Claimed): Promise<void> {
  const body = JSON.stringify(delivery.payload);
  // The signature's timestamp is the receiver's wall clock's business, whatever clock schedules retries.
  const signedAt = new Date();
  const signature = new Webhook(openSecret(delivery.sealed_secret, deps.jwtSecret, SECRET_PURPOSE)).sign(delivery.id, signedAt, body);
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
  await record(deps, delivery, { at: deps.clock.now().toISOString(), statusCode, error, durationMs: Math.round(performance.now() - started) });
}

async function record(deps: DeliveryDeps, delivery: Claimed, outcome: { at: string; statusCode: number | null; error: string | null; durationMs: number }) {
  const now = deps.clock.now();
  const retries = delivery.attempts.length;
  const delay = RETRY_DELAYS_MS[retries];
  const status = outcome.error === null ? 'delivered' : delay === undefined ? 'failed' : 'pending';
  const next = status === 'pending' ? new Date(now.getTime() + delay) : null;
  await deps.db.execute(sql`
    UPDATE webhook_deliveries SET
      attempts = attempts || ${JSON.stringify([outcome])}::jsonb,
      status = ${status},
      next_attempt_at = ${next},
      delivered_at = ${status === 'delivered' ? now : null}
    WHERE id = ${delivery.id}`);
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
