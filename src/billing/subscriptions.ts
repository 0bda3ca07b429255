/**
 * Subscriptions as the provider reports them. The service never guesses a subscription's state from
 * the order of events: each subscription event re-reads the subscription from the provider and
 * applies what it says now, so duplicates, reordering and replays all end in the provider's state.
 * The account's plan follows from its subscriptions; paid invoices grant credits, once per invoice.
 */
import { randomUUID } from 'node:crypto';
import { Type, type Static } from 'typebox';
import { and, desc, eq, inArray, ne, sql } from '../db/orm.ts';
import type { Queryable, Transaction } from '../db/database.ts';
import { accounts, subscriptions } from '../db/schema.ts';
import { addCredits } from '../credits/ledger.ts';
import { lockAccount } from '../db/account-lock.ts';
import { creditsPerInvoice, findPlan, type BillingCycle } from '../plans/plans.ts';
import { IsoDate, Nullable } from '../shapes.ts';
import { viaProvider, type BillingDeps } from './deps.ts';
import { invoiceFromStripe, type PaymentProvider, type ProviderSubscription } from './provider.ts';

/** Statuses in which a subscription gives its plan (past_due: the provider is still retrying the payment). */
export const PLAN_GIVING_STATUSES = ['active', 'trialing', 'past_due'] as const;

/** An effect to apply in the caller's transaction, once the provider has been asked everything. */
export type Effect = (tx: Transaction) => Promise<void>;

export async function hasActiveSubscription(db: Queryable, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.accountId, accountId), inArray(subscriptions.status, [...PLAN_GIVING_STATUSES])))
    .limit(1);
  return Boolean(row);
}

/**
 * Cancels, now, every subscription of the account the provider may still bill (any not recorded as
 * `canceled`), one provider call each, outside any transaction. Called before the account is
 * deleted; a provider failure is 502 and the caller deletes nothing, so retrying is safe (a
 * subscription canceled by an earlier attempt is not an error).
 */
export async function cancelSubscriptionsOf(
  db: Queryable,
  payments: PaymentProvider,
  accountId: string,
  log?: BillingDeps['log'],
): Promise<void> {
  const live = await db
    .select({ providerSubscriptionId: subscriptions.providerSubscriptionId })
    .from(subscriptions)
    .where(and(eq(subscriptions.accountId, accountId), ne(subscriptions.status, 'canceled')));
  for (const { providerSubscriptionId } of live) {
    await viaProvider({ payments, log }, (p) => p.cancelSubscription(providerSubscriptionId));
  }
}

/** A subscription as the API shows it. */
export const SubscriptionView = Type.Object({
  id: Type.String(),
  planId: Type.String(),
  status: Type.String(),
  billingCycle: Type.String(),
  currentPeriodStart: Nullable(IsoDate),
  currentPeriodEnd: Nullable(IsoDate),
  cancelAtPeriodEnd: Type.Boolean(),
});

export type SubscriptionView = Static<typeof SubscriptionView>;

/** The subscription that gives the account its plan, else its latest one, else null. */
export async function currentSubscription(db: Queryable, accountId: string): Promise<SubscriptionView | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.accountId, accountId))
    .orderBy(
      desc(sql`${subscriptions.status} in ('active', 'trialing', 'past_due')`),
      desc(subscriptions.createdAt),
      desc(subscriptions.id),
    )
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    planId: row.planId,
    status: row.status,
    billingCycle: row.billingCycle,
    currentPeriodStart: row.currentPeriodStart?.toISOString() ?? null,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

/** The account a provider customer belongs to. */
export async function accountOfCustomer(db: Queryable, customerId: string | null): Promise<string | null> {
  if (!customerId) return null;
  const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.billingCustomerId, customerId));
  return row?.id ?? null;
}

/**
 * Reads a subscription from the provider and answers the effect that records it, or null when it
 * belongs to no account of this service or names no plan of ours.
 */
export async function prepareSubscriptionSync(deps: BillingDeps, providerSubscriptionId: string, knownAccountId?: string): Promise<Effect | null> {
  const readAt = deps.clock.now();
  const subscription = await viaProvider(deps, (p) => p.retrieveSubscription(providerSubscriptionId));
  const accountId = knownAccountId ?? (await accountOfCustomer(deps.db, subscription.customerId));
  if (!accountId) {
    deps.log?.warn({ subscriptionId: subscription.id, customerId: subscription.customerId }, 'subscription of an unknown customer ignored');
    return null;
  }
  if (!subscription.planId || !findPlan(subscription.planId)) {
    deps.log?.warn({ subscriptionId: subscription.id, planId: subscription.planId }, 'subscription without a known plan ignored');
    return null;
  }
  return (tx) => recordSubscription(tx, deps, accountId, subscription, readAt);
}

/**
 * Upserts the subscription (a read older than the one on record changes nothing) and sets the
 * account's plan from all its subscriptions. The account row is locked first, so two events of one
 * account apply one after the other.
 */
export async function recordSubscription(
  tx: Transaction,
  deps: Pick<BillingDeps, 'clock'>,
  accountId: string,
  subscription: ProviderSubscription,
  readAt: Date,
): Promise<void> {
  await lockAccount(tx, accountId);
  const values = {
    planId: subscription.planId!,
    status: subscription.status,
    billingCycle: subscription.billingCycle,
    currentPeriodStart: subscription.currentPeriodStart,
    currentPeriodEnd: subscription.currentPeriodEnd,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    providerUpdatedAt: readAt,
  };
  await tx
    .insert(subscriptions)
    .values({ id: randomUUID(), accountId, providerSubscriptionId: subscription.id, ...values })
    .onConflictDoUpdate({
      target: subscriptions.providerSubscriptionId,
      set: { ...values, updatedAt: deps.clock.now() },
      setWhere: sql`${subscriptions.providerUpdatedAt} is null or ${subscriptions.providerUpdatedAt} <= ${readAt.toISOString()}::timestamptz`,
    });
  await settlePlan(tx, accountId);
}

/** accounts.plan = the plan of the account's plan-giving subscription (the latest-ending one), else `free`. */
async function settlePlan(tx: Transaction, accountId: string): Promise<void> {
  const [giving] = await tx
    .select({ planId: subscriptions.planId })
    .from(subscriptions)
    .where(and(eq(subscriptions.accountId, accountId), inArray(subscriptions.status, [...PLAN_GIVING_STATUSES])))
    .orderBy(sql`${subscriptions.currentPeriodEnd} desc nulls last`, desc(subscriptions.createdAt))
    .limit(1);
  await tx.update(accounts).set({ plan: giving?.planId ?? 'free' }).where(eq(accounts.id, accountId));
}

/**
 * A paid subscription invoice grants the period's credits once (reference `invoice:<id>`): the
 * plan and cycle it bills are read from the invoice itself (the subscription's metadata as it was
 * when invoiced), so a later plan change does not alter what an earlier invoice granted. The
 * subscription is re-read and recorded too, whichever of the events came first.
 */
export async function prepareInvoiceGrant(deps: BillingDeps, invoiceObject: Record<string, any>): Promise<Effect | null> {
  const invoice = invoiceFromStripe(invoiceObject);
  if (!invoice.subscriptionId) return null;
  const accountId = await accountOfCustomer(deps.db, invoice.customerId);
  if (!accountId) {
    deps.log?.warn({ invoiceId: invoice.id, customerId: invoice.customerId }, 'invoice of an unknown customer ignored');
    return null;
  }
  const readAt = deps.clock.now();
  const subscription = await viaProvider(deps, (p) => p.retrieveSubscription(invoice.subscriptionId!));
  const plan = findPlan(invoice.subscriptionMetadata.planId ?? subscription.planId ?? '');
  if (!plan) {
    deps.log?.warn({ invoiceId: invoice.id }, 'invoice without a known plan ignored');
    return null;
  }
  const metadataCycle = invoice.subscriptionMetadata.billingCycle;
  const cycle: BillingCycle = metadataCycle === 'yearly' || metadataCycle === 'monthly' ? metadataCycle : subscription.billingCycle;
  const credits = creditsPerInvoice(plan, cycle);
  const subscriptionKnown = Boolean(subscription.planId && findPlan(subscription.planId));
  return async (tx) => {
    if (subscriptionKnown) await recordSubscription(tx, deps, accountId, subscription, readAt);
    await addCredits(tx, 'purchase', {
      accountId,
      amount: credits,
      description: `${plan.name} plan (${cycle}): ${credits.toLocaleString('en-US')} credits`,
      reference: `invoice:${invoice.id}`,
    });
  };
}
