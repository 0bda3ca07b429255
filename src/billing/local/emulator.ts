/**
 * An emulation of the parts of Stripe the service uses, so a laptop can buy credits and
 * subscriptions end to end offline. Its objects (customers, checkout sessions, subscriptions,
 * invoices, portal sessions) are Stripe-shaped JSON in `local_pay_objects`; every state change
 * sends a Stripe-shaped event, signed exactly as Stripe signs, over HTTP to the service's own
 * webhook receiver, so fulfilment runs the same code as in production. The `local` payment
 * provider (provider.ts) is the service's adapter to it; its hosted pages are pages.ts.
 *
 * No money moves: anyone holding a checkout link can "pay". Never use it in production.
 */
import type { Server } from 'node:http';
import { and, desc, eq, sql } from '../../db/orm.ts';
import { localPayEvents, localPayObjects } from '../../db/schema.ts';
import { findPlan, planName, priceFor, type BillingCycle } from '../../plans/plans.ts';
import { PaymentProviderError, type CheckoutSessionInput } from '../provider.ts';
import { LocalEventDelivery, type LocalEventDeliveryDeps } from './event-delivery.ts';
import { addInterval, insert, lock, newId, newInvoice, newSubscription, recordEvent, save, unix, type LocalObject } from './objects.ts';

export type { LocalObject };

/** The emulator needs what its event delivery needs: the database, a clock, where the service listens. */
export type LocalStripeDeps = LocalEventDeliveryDeps;

/** The emulated Stripe account: its API calls, the hosted pages' actions, and event delivery. */
export class LocalStripe {
  private readonly deps: LocalStripeDeps;
  private readonly events: LocalEventDelivery;

  constructor(deps: LocalStripeDeps) {
    this.deps = deps;
    this.events = new LocalEventDelivery(deps);
  }

  /** Where events go: the webhook receiver of the server the hosted pages are served by. */
  attach(server: Server, webhookPath: string): void {
    this.events.attach(server, webhookPath);
  }

  /** The secret events are signed with (see LocalEventDelivery). */
  webhookSecret(): Promise<string> {
    return this.events.webhookSecret();
  }

  /** Sends events, in order, to the webhook receiver. */
  deliver(eventIds: string[]): Promise<void> {
    return this.events.deliver(eventIds);
  }

  async createCustomer(account: { id: string; email: string; name: string }): Promise<{ id: string }> {
    const key = `customer-for-account-${account.id}`;
    const now = this.deps.clock.now();
    const id = newId('cus');
    const customer = {
      id,
      object: 'customer',
      email: account.email,
      name: account.name,
      metadata: { accountId: account.id },
      created: unix(now),
      livemode: false,
    };
    await this.deps.db
      .insert(localPayObjects)
      .values({ id, object: 'customer', customerId: id, idempotencyKey: key, data: customer, createdAt: now, updatedAt: now })
      .onConflictDoNothing({ target: localPayObjects.idempotencyKey });
    const [stored] = await this.deps.db.select({ id: localPayObjects.id }).from(localPayObjects).where(eq(localPayObjects.idempotencyKey, key));
    return { id: stored.id };
  }

  async createCheckoutSession(input: CheckoutSessionInput): Promise<{ id: string; url: string }> {
    const customer = await this.find(input.customerId, 'customer');
    if (!customer) throw new PaymentProviderError(`No such customer: ${input.customerId}`);
    const now = this.deps.clock.now();
    const id = newId('cs');
    const url = `${this.deps.config.publicUrl}/pay/checkout/${id}`;
    const session: LocalObject = {
      id,
      object: 'checkout.session',
      mode: input.mode,
      status: 'open',
      payment_status: 'unpaid',
      client_reference_id: input.clientReferenceId,
      customer: input.customerId,
      metadata: input.metadata,
      subscription_data: input.mode === 'subscription' ? { metadata: input.metadata } : null,
      line_items: {
        object: 'list',
        data: [
          {
            object: 'item',
            description: input.lineItem.name,
            amount_total: input.lineItem.amountCents,
            quantity: 1,
            price: {
              object: 'price',
              unit_amount: input.lineItem.amountCents,
              currency: 'usd',
              recurring: input.lineItem.interval ? { interval: input.lineItem.interval } : null,
              metadata: {},
            },
          },
        ],
      },
      amount_total: input.lineItem.amountCents,
      currency: 'usd',
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      subscription: null,
      invoice: null,
      url,
      created: unix(now),
      expires_at: unix(now) + 24 * 3600,
      livemode: false,
    };
    await this.deps.db
      .insert(localPayObjects)
      .values({ id, object: 'checkout.session', customerId: input.customerId, data: session, createdAt: now, updatedAt: now });
    return { id, url };
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<{ url: string }> {
    const customer = await this.find(customerId, 'customer');
    if (!customer) throw new PaymentProviderError(`No such customer: ${customerId}`);
    const now = this.deps.clock.now();
    const id = newId('bps');
    const url = `${this.deps.config.publicUrl}/pay/portal/${id}`;
    const session = { id, object: 'billing_portal.session', customer: customerId, return_url: returnUrl, url, created: unix(now), livemode: false };
    await this.deps.db
      .insert(localPayObjects)
      .values({ id, object: 'billing_portal.session', customerId, data: session, createdAt: now, updatedAt: now });
    return { url };
  }

  /**
   * Forgets a customer: every object of it (the customer with its e-mail and account id, checkout
   * and portal sessions, subscriptions, invoices) and the events that carried them. A link to one
   * of its checkout sessions then shows "does not exist", however open it was.
   */
  async forgetCustomer(customerId: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await tx.delete(localPayObjects).where(eq(localPayObjects.customerId, customerId));
      await tx.delete(localPayEvents).where(sql`strpos(${localPayEvents.payload}, ${customerId}) > 0`);
    });
  }

  async find(id: string, object?: string): Promise<LocalObject | null> {
    const [row] = await this.deps.db
      .select({ data: localPayObjects.data })
      .from(localPayObjects)
      .where(and(eq(localPayObjects.id, id), object ? eq(localPayObjects.object, object) : undefined));
    return (row?.data as LocalObject | undefined) ?? null;
  }

  async listForCustomer(customerId: string, object: 'subscription' | 'invoice'): Promise<LocalObject[]> {
    const rows = await this.deps.db
      .select({ data: localPayObjects.data })
      .from(localPayObjects)
      .where(and(eq(localPayObjects.customerId, customerId), eq(localPayObjects.object, object)))
      .orderBy(desc(localPayObjects.createdAt), desc(localPayObjects.id));
    return rows.map((r) => r.data as LocalObject);
  }

  /**
   * Pay: the session becomes complete and paid (once, however often it is clicked); a subscription
   * checkout also starts the subscription with its first paid invoice. Then the events go out.
   */
  async completeCheckout(sessionId: string): Promise<LocalObject | null> {
    const result = await this.deps.db.transaction(async (tx) => {
      const session = await lock(tx, sessionId, 'checkout.session');
      if (!session) return null;
      if (session.status !== 'open') return { session, events: [] as string[] };
      const now = this.deps.clock.now();
      const events: string[] = [];
      const completed: LocalObject = { ...session, status: 'complete', payment_status: 'paid', url: null };
      let invoice: LocalObject | null = null;
      if (session.mode === 'subscription') {
        const price = session.line_items.data[0].price;
        const subscription = newSubscription(session, price, now);
        invoice = newInvoice(subscription, 'subscription_create', now);
        await insert(tx, subscription, now);
        await insert(tx, invoice, now);
        completed.subscription = subscription.id;
        completed.invoice = invoice.id;
      }
      await save(tx, completed, now);
      events.push(await recordEvent(tx, 'checkout.session.completed', completed, now));
      if (invoice) events.push(await recordEvent(tx, 'invoice.paid', invoice, now));
      return { session: completed, events };
    });
    if (!result) return null;
    await this.deliver(result.events);
    return result.session;
  }

  /** Switches a subscription to another plan or cycle from the next invoice on (like Stripe without proration). */
  async changePlan(subscriptionId: string, planId: string, billingCycle: BillingCycle): Promise<LocalObject | null> {
    const plan = findPlan(planId);
    if (!plan) throw new Error(`unknown plan ${planId}`);
    return this.updateSubscription(subscriptionId, (subscription) => {
      if (subscription.status === 'canceled') return null;
      const item = subscription.items.data[0];
      const interval = billingCycle === 'yearly' ? 'year' : 'month';
      const price = { ...item.price, unit_amount: priceFor(plan, billingCycle), recurring: { interval } };
      const metadata = { ...subscription.metadata, planId: plan.id, billingCycle };
      return {
        next: { ...subscription, metadata, items: { ...subscription.items, data: [{ ...item, price, plan_name: planName(plan.id, billingCycle) }] } },
        type: 'customer.subscription.updated',
        previous: { metadata: subscription.metadata, items: subscription.items },
      };
    });
  }

  /** Cancels now (→ `canceled`, `customer.subscription.deleted`) or at the end of the period. */
  async cancelSubscriptionAt(subscriptionId: string, when: 'now' | 'period_end'): Promise<LocalObject | null> {
    return this.updateSubscription(subscriptionId, (subscription, now) => {
      if (subscription.status === 'canceled') return null;
      if (when === 'period_end') {
        return {
          next: { ...subscription, cancel_at_period_end: true, cancel_at: subscription.items.data[0].current_period_end },
          type: 'customer.subscription.updated',
          previous: { cancel_at_period_end: false, cancel_at: null },
        };
      }
      return {
        next: { ...subscription, status: 'canceled', canceled_at: unix(now), ended_at: unix(now) },
        type: 'customer.subscription.deleted',
        previous: { status: subscription.status },
      };
    });
  }

  async resumeSubscription(subscriptionId: string): Promise<LocalObject | null> {
    return this.updateSubscription(subscriptionId, (subscription) => {
      if (subscription.status === 'canceled' || !subscription.cancel_at_period_end) return null;
      return {
        next: { ...subscription, cancel_at_period_end: false, cancel_at: null },
        type: 'customer.subscription.updated',
        previous: { cancel_at_period_end: true },
      };
    });
  }

  /**
   * Emulates the end of the billing period: a subscription set to cancel ends; any other starts its
   * next period with a paid invoice for its current plan.
   */
  async renewSubscription(subscriptionId: string): Promise<LocalObject | null> {
    return this.updateSubscription(subscriptionId, (subscription, now) => {
      if (subscription.status === 'canceled') return null;
      const item = subscription.items.data[0];
      if (subscription.cancel_at_period_end) {
        return {
          next: { ...subscription, status: 'canceled', canceled_at: unix(now), ended_at: item.current_period_end },
          type: 'customer.subscription.deleted',
          previous: { status: subscription.status },
        };
      }
      const start = new Date(item.current_period_end * 1000);
      const end = addInterval(start, item.price.recurring.interval);
      const next = {
        ...subscription,
        items: { ...subscription.items, data: [{ ...item, current_period_start: unix(start), current_period_end: unix(end) }] },
      };
      return {
        next,
        type: 'customer.subscription.updated',
        previous: { items: subscription.items },
        invoice: newInvoice(next, 'subscription_cycle', now),
      };
    });
  }

  private async updateSubscription(
    subscriptionId: string,
    change: (
      subscription: LocalObject,
      now: Date,
    ) => { next: LocalObject; type: string; previous: Record<string, unknown>; invoice?: LocalObject } | null,
  ): Promise<LocalObject | null> {
    const result = await this.deps.db.transaction(async (tx) => {
      const subscription = await lock(tx, subscriptionId, 'subscription');
      if (!subscription) return null;
      const now = this.deps.clock.now();
      const changed = change(subscription, now);
      if (!changed) return { subscription, events: [] as string[] };
      await save(tx, changed.next, now);
      const events = [await recordEvent(tx, changed.type, changed.next, now, changed.previous)];
      if (changed.invoice) {
        await insert(tx, changed.invoice, now);
        events.push(await recordEvent(tx, 'invoice.paid', changed.invoice, now));
      }
      return { subscription: changed.next, events };
    });
    if (!result) return null;
    await this.deliver(result.events);
    return result.subscription;
  }
}

