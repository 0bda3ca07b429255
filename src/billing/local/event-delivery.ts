/**
 * How the local payment provider's events reach the service: signed exactly as Stripe signs,
 * POSTed to the webhook receiver of this very process, a few tries each, in order.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asc, eq, inArray } from '../../db/orm.ts';
import { localPayEvents, localPaySettings } from '../../db/schema.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';

const DELIVERY_ATTEMPTS = 3;
const DELIVERY_TIMEOUT_MS = 10_000;
const WEBHOOK_SECRET_KEY = 'webhook_secret';

export interface LocalEventDeliveryDeps {
  db: Database;
  config: Pick<Config, 'publicUrl' | 'stripeWebhookSecret'>;
  clock: Clock;
  log?: { warn(obj: object, msg: string): void };
}

export class LocalEventDelivery {
  private server: Server | null = null;
  private webhookPath = '/api/v1/webhooks/stripe';
  private secret: Promise<string> | null = null;

  private readonly deps: LocalEventDeliveryDeps;

  constructor(deps: LocalEventDeliveryDeps) {
    this.deps = deps;
  }

  /** Where events go: the webhook receiver of the server the hosted pages are served by. */
  attach(server: Server, webhookPath: string): void {
    this.server = server;
    this.webhookPath = webhookPath;
  }

  /** The secret events are signed with: STRIPE_WEBHOOK_SECRET, else one made once and kept in the database. */
  webhookSecret(): Promise<string> {
    const configured = this.deps.config.stripeWebhookSecret;
    if (configured) return Promise.resolve(configured);
    this.secret ??= this.loadOrCreateSecret().catch((error) => {
      this.secret = null;
      throw error;
    });
    return this.secret;
  }

  private async loadOrCreateSecret(): Promise<string> {
    const generated = `whsec_local_${randomBytes(32).toString('base64url')}`;
    await this.deps.db.insert(localPaySettings).values({ key: WEBHOOK_SECRET_KEY, value: generated }).onConflictDoNothing();
    const [row] = await this.deps.db.select().from(localPaySettings).where(eq(localPaySettings.key, WEBHOOK_SECRET_KEY));
    return row.value;
  }

  /** Sends events, in order, to the webhook receiver: signed like Stripe, a few tries each. */
  async deliver(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    const rows = await this.deps.db.select().from(localPayEvents).where(inArray(localPayEvents.id, eventIds)).orderBy(asc(localPayEvents.createdAt));
    const ordered = eventIds.map((id) => rows.find((r) => r.id === id)!).filter(Boolean);
    const secret = await this.webhookSecret();
    for (const event of ordered) {
      for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
        const delivered = await this.send(event.payload, secret).catch((error: unknown) => {
          this.deps.log?.warn({ err: error, eventId: event.id }, 'local payment provider: webhook delivery failed');
          return false;
        });
        await this.deps.db
          .update(localPayEvents)
          .set({ attempts: event.attempts + attempt, deliveredAt: delivered ? this.deps.clock.now() : null })
          .where(eq(localPayEvents.id, event.id));
        if (delivered) break;
        if (attempt < DELIVERY_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, 100 * 4 ** attempt));
      }
    }
  }

  private async send(payload: string, secret: string): Promise<boolean> {
    const { default: Stripe } = await import('stripe');
    const response = await fetch(this.webhookUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
      body: payload,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    if (!response.ok) this.deps.log?.warn({ status: response.status }, 'local payment provider: webhook receiver refused an event');
    return response.ok;
  }

  /** The receiver of this very process, where it listens; PUBLIC_URL before it listens. */
  private webhookUrl(): string {
    const address = this.server?.address() as AddressInfo | string | null | undefined;
    if (address && typeof address === 'object') {
      const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
      const hostPart = host.includes(':') ? `[${host}]` : host;
      return `http://${hostPart}:${address.port}${this.webhookPath}`;
    }
    return `${this.deps.config.publicUrl}${this.webhookPath}`;
  }
}
