/**
 * Job events for webhooks: written in the same transaction as the job's end (an outbox), one
 * delivery per endpoint that wants the event. The delivery loop (delivery.ts) sends them.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from '../db/orm.ts';
import type { Queryable } from '../db/database.ts';
import { webhookDeliveries, webhookEndpoints } from '../db/schema.ts';

export const WEBHOOK_EVENTS = ['generation.completed', 'generation.failed', 'discovery.completed', 'discovery.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent only on request, to check a receiver: never subscribed to. */
export const TEST_EVENT = 'webhook.test';

/** Queues `event` for every enabled endpoint of the account that asked for it; `data` is the job as the API shows it. */
export async function recordEvent(tx: Queryable, accountId: string, event: WebhookEvent, data: Record<string, unknown>, now: Date): Promise<void> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.accountId, accountId), isNull(webhookEndpoints.disabledAt), sql`${webhookEndpoints.events} ? ${event}`));
  if (endpoints.length === 0) return;
  const payload = { type: event, timestamp: now.toISOString(), data };
  await tx.insert(webhookDeliveries).values(
    endpoints.map((endpoint) => ({ id: `msg_${randomUUID()}`, endpointId: endpoint.id, event, payload, nextAttemptAt: now, createdAt: now })),
  );
}

/** Queues a test event for one endpoint, sent, signed and retried like any other delivery. */
export async function recordTestEvent(tx: Queryable, endpointId: string, now: Date) {
  const payload = { type: TEST_EVENT, timestamp: now.toISOString(), data: { endpointId } };
  const [delivery] = await tx.insert(webhookDeliveries).values({ id: `msg_${randomUUID()}`, endpointId, event: TEST_EVENT, payload, nextAttemptAt: now, createdAt: now }).returning();
  return delivery;
}
