/**
 * Starting a purchase: a credit package (one payment) or a plan (a subscription), on the provider's
 * hosted checkout. What is sold is recorded in checkout_sessions, and fulfilment reads it from there.
 */
import { and, eq, isNull, or } from '../db/orm.ts';
import type { Transaction } from '../db/database.ts';
import { accounts, checkoutSessions } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { findCreditPackage, type CreditPackage } from '../credits/packages.ts';
import { findPlan, priceFor, type BillingCycle, type Plan } from '../plans/plans.ts';
import { viaProvider, type BillingDeps } from './deps.ts';
import type { CheckoutSessionInput } from './provider.ts';
import { hasActiveSubscription } from './subscriptions.ts';

export interface RedirectUrls {
  successUrl: string;
  cancelUrl: string;
}

export async function startCreditCheckout(
  deps: BillingDeps,
  accountId: string,
  packageId: string,
  urls: RedirectUrls,
): Promise<{ sessionId: string; url: string; package: CreditPackage }> {
  const pkg = findCreditPackage(packageId);
  if (!pkg) throw errors.creditPackageNotFound();
  const session = await startCheckout(deps, accountId, {
    input: {
      mode: 'payment',
      metadata: { accountId, packageId: pkg.id, credits: String(pkg.credits) },
      lineItem: { name: `llms.txt credits: ${pkg.name}`, amountCents: pkg.priceCents },
      ...urls,
    },
    record: { mode: 'payment', packageId: pkg.id },
  });
  return { ...session, package: pkg };
}

export async function startSubscriptionCheckout(
  deps: BillingDeps,
  accountId: string,
  planId: string,
  billingCycle: BillingCycle,
  urls: RedirectUrls,
): Promise<{ sessionId: string; url: string; plan: Plan; priceCents: number }> {
  const plan = findPlan(planId);
  if (!plan) throw errors.invalidPlan();
  if (await hasActiveSubscription(deps.db, accountId)) throw errors.subscriptionAlreadyActive();
  const priceCents = priceFor(plan, billingCycle);
  const session = await startCheckout(deps, accountId, {
    input: {
      mode: 'subscription',
      metadata: { accountId, planId: plan.id, billingCycle },
      lineItem: { name: `llms.txt ${plan.name} plan (${billingCycle})`, amountCents: priceCents, interval: billingCycle === 'yearly' ? 'year' : 'month' },
      ...urls,
    },
    record: { mode: 'subscription', planId: plan.id, billingCycle },
  });
  return { ...session, plan, priceCents };
}

interface CheckoutRequest {
  input: Omit<CheckoutSessionInput, 'customerId' | 'clientReferenceId'>;
  record: { mode: 'payment' | 'subscription'; packageId?: string; planId?: string; billingCycle?: BillingCycle };
}

/**
 * Provider calls first (customer on the first checkout, then the session), database second, in one
 * transaction: the customer id and the session row are written together or not at all. A first
 * checkout racing another keeps the customer the other stored and starts over with it.
 */
async function startCheckout(deps: BillingDeps, accountId: string, request: CheckoutRequest): Promise<{ sessionId: string; url: string }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [account] = await deps.db
      .select({ id: accounts.id, email: accounts.email, firstName: accounts.firstName, lastName: accounts.lastName, customerId: accounts.billingCustomerId })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    if (!account) throw errors.unauthorized();
    const customerId =
      account.customerId ??
      (
        await viaProvider(deps, (p) =>
          p.createCustomer({ id: account.id, email: account.email, name: [account.firstName, account.lastName].filter(Boolean).join(' ') }),
        )
      ).id;
    const session = await viaProvider(deps, (p) => p.createCheckoutSession({ ...request.input, customerId, clientReferenceId: accountId }));
    const recorded = await deps.db.transaction(async (tx) => {
      if (!(await keepCustomer(tx, accountId, customerId))) return false;
      await tx.insert(checkoutSessions).values({
        id: session.id,
        accountId,
        mode: request.record.mode,
        packageId: request.record.packageId ?? null,
        planId: request.record.planId ?? null,
        billingCycle: request.record.billingCycle ?? null,
        createdAt: deps.clock.now(),
      });
      return true;
    });
    if (recorded) return { sessionId: session.id, url: session.url };
  }
  throw new Error(`could not settle the billing customer of account ${accountId}`);
}

/** Stores the account's customer unless it already has another one (then answers false). */
async function keepCustomer(tx: Transaction, accountId: string, customerId: string): Promise<boolean> {
  const kept = await tx
    .update(accounts)
    .set({ billingCustomerId: customerId })
    .where(and(eq(accounts.id, accountId), or(isNull(accounts.billingCustomerId), eq(accounts.billingCustomerId, customerId))))
    .returning({ id: accounts.id });
  return kept.length > 0;
}

export async function openBillingPortal(deps: BillingDeps, accountId: string, returnUrl: string): Promise<{ url: string }> {
  const [account] = await deps.db.select({ customerId: accounts.billingCustomerId }).from(accounts).where(eq(accounts.id, accountId));
  if (!account?.customerId) throw errors.noBillingAccount();
  const customerId = account.customerId;
  return viaProvider(deps, (p) => p.createPortalSession(customerId, returnUrl));
}
