// Credits, subscriptions and payments: the service's ledger, what it sold, the provider events it
// applied, and the local payment provider's own store.
import { boolean, check, index, integer, jsonb, pgTable, sql, text, timestamp } from '../orm.ts';
import { timestamps } from './columns.ts';
import { accounts } from './accounts.ts';
import { sites } from './sites.ts';

export const creditTransactions = pgTable(
  'credit_transactions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    amount: integer('amount').notNull(),
    description: text('description').notNull(),
    siteId: text('site_id').references(() => sites.id, { onDelete: 'set null' }),
    /** Makes a grant or refund happen at most once (e.g. `checkout:<sessionId>`). */
    reference: text('reference').unique(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_transactions_account_idx').on(t.accountId, t.createdAt),
    check('credit_transactions_type', sql`${t.type} in ('purchase', 'usage', 'refund')`),
  ],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    providerSubscriptionId: text('provider_subscription_id').notNull().unique(),
    planId: text('plan_id').notNull(),
    status: text('status').notNull(),
    billingCycle: text('billing_cycle').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true, mode: 'date' }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true, mode: 'date' }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** Provider time of the last applied change: older events are ignored. */
    providerUpdatedAt: timestamp('provider_updated_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [index('subscriptions_account_idx').on(t.accountId)],
);

/** Checkout sessions created by the service: what was sold is read from here, never from the caller. */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    mode: text('mode').notNull(),
    packageId: text('package_id'),
    planId: text('plan_id'),
    billingCycle: text('billing_cycle'),
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('checkout_sessions_account_idx').on(t.accountId)],
);

/** Payment-provider events already applied, so a redelivered event changes nothing. */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The `local` payment provider's own store (src/billing/local/emulator.ts): Stripe-shaped objects
 * (customers, checkout sessions, subscriptions, invoices, portal sessions) kept as JSON, like an
 * emulated provider account. Nothing of the service reads these; it goes through the provider.
 */
export const localPayObjects = pgTable(
  'local_pay_objects',
  {
    id: text('id').primaryKey(),
    /** Stripe's `object` name: `customer`, `checkout.session`, `subscription`, `invoice`, `billing_portal.session` */
    object: text('object').notNull(),
    customerId: text('customer_id'),
    /** Makes a create call happen once, like Stripe's Idempotency-Key. */
    idempotencyKey: text('idempotency_key').unique(),
    data: jsonb('data').notNull(),
    ...timestamps,
  },
  (t) => [index('local_pay_objects_customer_idx').on(t.customerId, t.object)],
);

/** Events the local provider sent (or tried to send) to the service's webhook receiver, as signed. */
export const localPayEvents = pgTable(
  'local_pay_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** The exact JSON body that was signed. */
    payload: text('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('local_pay_events_created_idx').on(t.createdAt)],
);

/** Settings of the local provider shared by every process on the database (its webhook signing secret). */
export const localPaySettings = pgTable('local_pay_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
