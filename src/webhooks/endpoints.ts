/** An account's webhook endpoints: registered with a signing secret shown once, listed, deleted. */
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { and, count, desc, eq } from '../db/orm.ts';
import type { Clock } from '../clock.ts';
import { AddressRefusedError, assertAddressAllowed, assertHostAllowed, systemResolver, type GuardOptions } from '../crawl/index.ts';
import { sealSecret } from '../crypto/secrets.ts';
import { lockAccount } from '../db/account-lock.ts';
import type { Database } from '../db/database.ts';
import { readPage, type PageRequest } from '../db/paging.ts';
import { webhookDeliveries, webhookEndpoints } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { recordTestEvent, type WebhookEvent } from './events.ts';

export const MAX_ENDPOINTS_PER_ACCOUNT = 20;
/** The sealing purpose of endpoint secrets (see sealSecret). */
export const SECRET_PURPOSE = 'webhook signing secrets';

export interface EndpointDeps {
  db: Database;
  clock: Clock;
  /** The service secret the signing secrets are sealed with. */
  jwtSecret: string;
  /** The crawler's address guard: a receiver on a private network is refused unless crawling there is allowed. */
  guard: GuardOptions;
}

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;

export async function createEndpoint(deps: EndpointDeps, accountId: string, input: { url: string; events: WebhookEvent[] }) {
  const url = parseEndpointUrl(input.url);
  await assertReachable(url, deps.guard);
  // The account's row is locked while its endpoints are counted: registrations at once never pass the cap together.
  return deps.db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const [{ endpoints }] = await tx.select({ endpoints: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId));
    if (endpoints >= MAX_ENDPOINTS_PER_ACCOUNT) throw errors.tooManyWebhookEndpoints(MAX_ENDPOINTS_PER_ACCOUNT);
    // The Standard Webhooks form: `whsec_` and base64 key bytes.
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const [endpoint] = await tx
      .insert(webhookEndpoints)
      .values({
        id: randomUUID(),
        accountId,
        url: url.href,
        events: [...new Set(input.events)],
        sealedSecret: sealSecret(secret, deps.jwtSecret, SECRET_PURPOSE),
        createdAt: deps.clock.now(),
      })
      .returning();
    return { endpoint, secret };
  });
}

export async function listEndpoints(db: Database, accountId: string): Promise<WebhookEndpoint[]> {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId)).orderBy(desc(webhookEndpoints.createdAt));
}

/** The caller's endpoint; another account's is as unknown as a missing one. */
export async function getOwnedEndpoint(db: Database, accountId: string, endpointId: string): Promise<WebhookEndpoint> {
  const [endpoint] = await db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.accountId, accountId)));
  if (!endpoint) throw errors.webhookEndpointNotFound();
  return endpoint;
}

export async function deleteEndpoint(db: Database, accountId: string, endpointId: string): Promise<void> {
  await getOwnedEndpoint(db, accountId, endpointId);
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
}

/** Enables a disabled endpoint again: new events are queued for it; what failed while it was disabled stays failed. */
export async function enableEndpoint(db: Database, accountId: string, endpointId: string): Promise<WebhookEndpoint> {
  await getOwnedEndpoint(db, accountId, endpointId);
  const [endpoint] = await db.update(webhookEndpoints).set({ disabledAt: null, failingSince: null }).where(eq(webhookEndpoints.id, endpointId)).returning();
  return endpoint;
}

/** Queues a test event for the caller's endpoint; a disabled one answers 409 (nothing would be sent to it). */
export async function sendTestEvent(db: Database, clock: Clock, accountId: string, endpointId: string) {
  const endpoint = await getOwnedEndpoint(db, accountId, endpointId);
  if (endpoint.disabledAt) throw errors.webhookEndpointDisabled();
  return recordTestEvent(db, endpoint.id, clock.now());
}

export async function listDeliveries(db: Database, accountId: string, endpointId: string, query: PageRequest) {
  await getOwnedEndpoint(db, accountId, endpointId);
  const where = eq(webhookDeliveries.endpointId, endpointId);
  const ordered = db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)).$dynamic();
  const { rows, ...page } = await readPage(db, { table: webhookDeliveries, where }, query, ordered);
  return { deliveries: rows, ...page };
}

function parseEndpointUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw errors.validation('url must be a valid http or https URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw errors.validation('url must be a valid http or https URL');
  if (url.username || url.password) throw errors.validation('url must not carry credentials');
  url.hash = '';
  return url;
}

/** The host must resolve, and only to addresses the crawler may reach; delivery checks again on every connection. */
async function assertReachable(url: URL, guard: GuardOptions): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  try {
    assertHostAllowed(host, guard);
    if (net.isIP(host) !== 0) return;
    for (const { address } of await (guard.resolve ?? systemResolver)(host)) assertAddressAllowed(address, guard);
  } catch (error) {
    if (error instanceof AddressRefusedError) throw errors.webhookAddressRefused(error.message);
    throw errors.webhookAddressRefused(`${host} does not resolve`);
  }
}
