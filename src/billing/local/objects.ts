/**
 * The local payment provider's Stripe-shaped objects and events as it stores them in
 * `local_pay_objects` and `local_pay_events`: how each is made, locked, inserted and saved.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from '../../db/orm.ts';
import type { Transaction } from '../../db/database.ts';
import { localPayEvents, localPayObjects } from '../../db/schema.ts';

/** A Stripe-shaped object as stored. */
export type LocalObject = Record<string, any> & { id: string; object: string };

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export function newId(prefix: string): string {
  const bytes = randomBytes(24);
  let id = '';
  for (const byte of bytes) id += BASE62[byte % 62];
  return `${prefix}_local_${id}`;
}

/** Records a Stripe-shaped event of `object` in the caller's transaction; LocalEventDelivery sends it. */
export async function recordEvent(tx: Transaction, type: string, object: LocalObject, now: Date, previous?: Record<string, unknown>): Promise<string> {
  const id = newId('evt');
  const event = {
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: unix(now),
    data: previous ? { object, previous_attributes: previous } : { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
  await tx.insert(localPayEvents).values({ id, type, payload: JSON.stringify(event), createdAt: now });
  return id;
}

export function unix(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

export function addInterval(date: Date, interval: 'month' | 'year'): Date {
  const next = new Date(date);
  if (interval === 'year') next.setUTCFullYear(next.getUTCFullYear() + 1);
  else next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

export function newSubscription(session: LocalObject, price: LocalObject, now: Date): LocalObject {
  const metadata = { ...(session.subscription_data?.metadata ?? session.metadata) };
  const end = addInterval(now, price.recurring.interval);
  return {
    id: newId('sub'),
    object: 'subscription',
    customer: session.customer,
    status: 'active',
    metadata,
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    created: unix(now),
    start_date: unix(now),
    livemode: false,
    items: {
      object: 'list',
      data: [
        {
          id: newId('si'),
          object: 'subscription_item',
          quantity: 1,
          current_period_start: unix(now),
          current_period_end: unix(end),
          plan_name: session.line_items.data[0].description,
          price: { ...price, id: newId('price') },
        },
      ],
    },
  };
}

export function newInvoice(subscription: LocalObject, billingReason: string, now: Date): LocalObject {
  const item = subscription.items.data[0];
  return {
    id: newId('in'),
    object: 'invoice',
    customer: subscription.customer,
    status: 'paid',
    billing_reason: billingReason,
    amount_due: item.price.unit_amount,
    amount_paid: item.price.unit_amount,
    currency: 'usd',
    created: unix(now),
    period_start: item.current_period_start,
    period_end: item.current_period_end,
    description: item.plan_name,
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
    },
    livemode: false,
  };
}

export async function lock(tx: Transaction, id: string, object: string): Promise<LocalObject | null> {
  const [row] = await tx
    .select({ data: localPayObjects.data })
    .from(localPayObjects)
    .where(and(eq(localPayObjects.id, id), eq(localPayObjects.object, object)))
    .for('update');
  return (row?.data as LocalObject | undefined) ?? null;
}

export async function insert(tx: Transaction, object: LocalObject, now: Date): Promise<void> {
  await tx.insert(localPayObjects).values({ id: object.id, object: object.object, customerId: object.customer ?? null, data: object, createdAt: now, updatedAt: now });
}

export async function save(tx: Transaction, object: LocalObject, now: Date): Promise<void> {
  await tx.update(localPayObjects).set({ data: object, updatedAt: now }).where(eq(localPayObjects.id, object.id));
}
