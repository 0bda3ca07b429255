/**
 * A fake Stripe API on 127.0.0.1 for tests, implementing just what the service's Stripe provider
 * calls through the real SDK: customers, checkout sessions, portal sessions and subscriptions (read
 * and cancel), with form-encoded bodies as the SDK sends them. Helpers play Stripe's side: a customer
 * paying, a renewal, a plan change, a cancellation, an outage; and sign events with the SDK's own
 * signer.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { StripePaymentProvider } from '../stripe-provider.ts';

export type StripeObject = Record<string, any> & { id: string; object: string };

export interface FakeStripeOptions {
  secretKey?: string;
  webhookSecret?: string;
}

type Failure = { mode: 'error' | 'hang'; path: RegExp; remaining: number };

export class FakeStripeServer {
  readonly secretKey: string;
  readonly webhookSecret: string;
  readonly customers = new Map<string, StripeObject>();
  readonly sessions = new Map<string, StripeObject>();
  readonly subscriptions = new Map<string, StripeObject>();
  readonly invoices = new Map<string, StripeObject>();
  readonly portalSessions = new Map<string, StripeObject>();
  /** every request received: method, path, parsed form body */
  readonly requests: Array<{ method: string; path: string; body: Record<string, any> }> = [];
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  private failures: Failure[] = [];
  private server: Server | null = null;
  private port = 0;

  private constructor(options: FakeStripeOptions) {
    this.secretKey = options.secretKey ?? 'sk_test_fake_' + randomBytes(8).toString('hex');
    this.webhookSecret = options.webhookSecret ?? 'whsec_fake_' + randomBytes(16).toString('hex');
  }

  static async start(options: FakeStripeOptions = {}): Promise<FakeStripeServer> {
    const fake = new FakeStripeServer(options);
    fake.server = createServer((req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => fake.server!.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The service's provider, pointed here: no retries, a short timeout. */
  provider(options: { timeoutMs?: number } = {}): StripePaymentProvider {
    return new StripePaymentProvider({
      secretKey: this.secretKey,
      webhookSecret: this.webhookSecret,
      sdk: { host: '127.0.0.1', port: this.port, protocol: 'http', maxNetworkRetries: 0, timeout: options.timeoutMs ?? 1500 },
    });
  }

  /** The environment that makes loadConfig choose Stripe with these keys. */
  get env(): Record<string, string> {
    return { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: this.secretKey, STRIPE_WEBHOOK_SECRET: this.webhookSecret };
  }

  /** The next `times` requests whose path matches fail: with a 500, or by never being answered. */
  fail(mode: 'error' | 'hang', options: { path?: RegExp; times?: number } = {}): void {
    this.failures.push({ mode, path: options.path ?? /./, remaining: options.times ?? Infinity });
  }

  recover(): void {
    this.failures = [];
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  // ---- Stripe's side of the story ----

  /**
   * The customer pays on the hosted page. A subscription checkout starts its subscription with a
   * first paid invoice. `paymentStatus: 'unpaid'` is an asynchronous payment still on its way.
   */
  pay(sessionId: string, paymentStatus: 'paid' | 'unpaid' = 'paid'): { session: StripeObject; subscription?: StripeObject; invoice?: StripeObject } {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`fake stripe: no session ${sessionId}`);
    Object.assign(session, { status: 'complete', payment_status: paymentStatus, url: null });
    if (session.mode !== 'subscription' || session.subscription) return { session };
    const lineItem = session.__line_items[0];
    const now = unixNow();
    const interval = lineItem.price_data.recurring.interval as 'month' | 'year';
    const subscription: StripeObject = {
      id: id('sub'),
      object: 'subscription',
      customer: session.customer,
      status: 'active',
      metadata: { ...(session.__subscription_data?.metadata ?? {}) },
      cancel_at_period_end: false,
      canceled_at: null,
      created: now,
      items: {
        object: 'list',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            current_period_start: now,
            current_period_end: addInterval(now, interval),
            price: {
              id: id('price'),
              object: 'price',
              unit_amount: Number(lineItem.price_data.unit_amount),
              currency: lineItem.price_data.currency,
              recurring: { interval },
              metadata: {},
            },
          },
        ],
      },
    };
    this.subscriptions.set(subscription.id, subscription);
    session.subscription = subscription.id;
    const invoice = this.invoiceFor(subscription, 'subscription_create');
    session.invoice = invoice.id;
    return { session, subscription, invoice };
  }

  /** The next period begins: the period moves on and a new invoice is paid. */
  renew(subscriptionId: string): { subscription: StripeObject; invoice: StripeObject } {
    const subscription = this.subscription(subscriptionId);
    const item = subscription.items.data[0];
    item.current_period_start = item.current_period_end;
    item.current_period_end = addInterval(item.current_period_start, item.price.recurring.interval);
    return { subscription, invoice: this.invoiceFor(subscription, 'subscription_cycle') };
  }

  /** A plan change in the portal: new price and metadata, effective from the next invoice. */
  changePlan(subscriptionId: string, planId: string, billingCycle: 'monthly' | 'yearly', unitAmount: number): StripeObject {
    const subscription = this.subscription(subscriptionId);
    const item = subscription.items.data[0];
    item.price = { ...item.price, id: id('price'), unit_amount: unitAmount, recurring: { interval: billingCycle === 'yearly' ? 'year' : 'month' } };
    subscription.metadata = { ...subscription.metadata, planId, billingCycle };
    return subscription;
  }

  cancel(subscriptionId: string): StripeObject {
    const subscription = this.subscription(subscriptionId);
    Object.assign(subscription, { status: 'canceled', canceled_at: unixNow(), ended_at: unixNow() });
    return subscription;
  }

  /** A signed event carrying a snapshot of `object`, as Stripe would POST it. */
  event(type: string, object: StripeObject, options: { id?: string; timestamp?: number; secret?: string } = {}) {
    const eventId = options.id ?? id('evt');
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: unixNow(),
      data: { object: publicView(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? this.webhookSecret,
      ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
    });
    return { id: eventId, payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } };
  }

  private subscription(subscriptionId: string): StripeObject {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`fake stripe: no subscription ${subscriptionId}`);
    return subscription;
  }

  private invoiceFor(subscription: StripeObject, billingReason: string): StripeObject {
    const item = subscription.items.data[0];
    const invoice: StripeObject = {
      id: id('in'),
      object: 'invoice',
      customer: subscription.customer,
      status: 'paid',
      billing_reason: billingReason,
      amount_paid: item.price.unit_amount,
      currency: item.price.currency,
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } } },
    };
    this.invoices.set(invoice.id, invoice);
    return invoice;
  }

  // ---- the HTTP API ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', this.baseUrl);
    const body = parseStripeForm(Buffer.concat(chunks).toString('utf8'));
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, body });

    const failure = this.failures.find((f) => f.remaining > 0 && f.path.test(url.pathname));
    if (failure) {
      failure.remaining--;
      if (failure.mode === 'hang') return; // never answered; close() drops the connection
      return send(res, 500, { error: { type: 'api_error', message: 'Something went wrong on our end (fake).' } });
    }
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    const key = req.headers['idempotency-key'];
    const idempotencyKey = method === 'POST' && typeof key === 'string' ? `${url.pathname}:${key}` : null;
    const replay = idempotencyKey ? this.idempotent.get(idempotencyKey) : undefined;
    if (replay) return send(res, replay.status, replay.body);

    const [status, answer] = this.route(method, url.pathname, body);
    if (idempotencyKey && status < 500) this.idempotent.set(idempotencyKey, { status, body: answer });
    send(res, status, answer);
  }

  private route(method: string, path: string, body: Record<string, any>): [number, unknown] {
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', email: body.email ?? null, name: body.name ?? null, metadata: body.metadata ?? {} };
      this.customers.set(customer.id, customer);
      return [200, customer];
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (body.customer && !this.customers.has(body.customer)) return missing('customer', body.customer);
      const sessionId = id('cs_test');
      const lineItems = (body.line_items ?? []) as any[];
      const session: StripeObject = {
        id: sessionId,
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        client_reference_id: body.client_reference_id ?? null,
        customer: body.customer ?? null,
        metadata: body.metadata ?? {},
        amount_total: lineItems.reduce((sum, li) => sum + Number(li.price_data?.unit_amount ?? 0) * Number(li.quantity ?? 1), 0),
        currency: lineItems[0]?.price_data?.currency ?? 'usd',
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        subscription: null,
        invoice: null,
        url: `${this.baseUrl}/c/pay/${sessionId}`,
        __line_items: lineItems,
        __subscription_data: body.subscription_data ?? null,
      };
      this.sessions.set(sessionId, session);
      return [200, publicView(session)];
    }
    if (method === 'GET' && (match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) {
      const session = this.sessions.get(decodeURIComponent(match[1]));
      return session ? [200, publicView(session)] : missing('checkout.session', match[1]);
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!this.customers.has(body.customer)) return missing('customer', body.customer);
      const portal = { id: id('bps'), object: 'billing_portal.session', customer: body.customer, return_url: body.return_url ?? null };
      const view = { ...portal, url: `${this.baseUrl}/p/session/${portal.id}` };
      this.portalSessions.set(portal.id, view);
      return [200, view];
    }
    if (method === 'GET' && (match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = this.subscriptions.get(decodeURIComponent(match[1]));
      return subscription ? [200, publicView(subscription)] : missing('subscription', match[1]);
    }
    if (method === 'DELETE' && (match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = this.subscriptions.get(decodeURIComponent(match[1]));
      if (!subscription) return missing('subscription', match[1]);
      if (subscription.status !== 'canceled') this.cancel(subscription.id);
      return [200, publicView(subscription)];
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}) (fake)` } }];
  }
}

function missing(object: string, objectId: string): [number, unknown] {
  return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${object}: '${objectId}'` } }];
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
  res.end(JSON.stringify(body));
}

/** A deep copy without the fake's own bookkeeping (`__` keys). */
function publicView<T>(object: T): T {
  return JSON.parse(JSON.stringify(object, (key, value) => (key.startsWith('__') ? undefined : value)));
}

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

function addInterval(unixSeconds: number, interval: 'month' | 'year'): number {
  const date = new Date(unixSeconds * 1000);
  if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return Math.floor(date.getTime() / 1000);
}

/**
 * Stripe's form encoding as the SDK writes it: `metadata[accountId]=…`,
 * `line_items[0][price_data][unit_amount]=500`, into nested objects and arrays.
 */
export function parseStripeForm(text: string): Record<string, any> {
  const root: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: any = root;
    path.forEach((part, index) => {
      const last = index === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[index + 1]);
      const slot = /^\d+$/.test(part) && Array.isArray(node) ? Number(part) : part;
      if (last) node[slot] = value;
      else node = node[slot] ??= nextIsIndex ? [] : {};
    });
  }
  return root;
}
