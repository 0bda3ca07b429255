/**
 * Fulfilling a checkout: the webhook and verify-session both come here, in any order and at once.
 * The provider is asked whether the session is paid and whose it is; what it bought is read from
 * checkout_sessions, never from the caller or the provider's metadata; the row is marked fulfilled
 * in the same transaction that adds the credits, with a condition that lets only one caller do it.
 */
import { and, eq, isNull } from '../db/orm.ts';
import type { Queryable } from '../db/database.ts';
import { checkoutSessions } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { addCredits } from '../credits/ledger.ts';
import { findCreditPackage } from '../credits/packages.ts';
import { creditsPerInvoice, findPlan, type BillingCycle } from '../plans/plans.ts';
import { viaProvider, type BillingDeps } from './deps.ts';
import { prepareSubscriptionSync, type Effect } from './subscriptions.ts';

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

const PAID = new Set(['paid', 'no_payment_required']);

export async function findCheckoutSession(db: Queryable, sessionId: string): Promise<CheckoutSessionRow | null> {
  const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
  return row ?? null;
}

/** Credits a session brings, from what was recorded at checkout: a package's, or a plan's per paid invoice. */
export function creditsOfSession(row: CheckoutSessionRow): number {
  if (row.mode === 'payment') {
    const pkg = findCreditPackage(row.packageId ?? '');
    if (!pkg) throw errors.invalidSessionMetadata();
    return pkg.credits;
  }
  const plan = findPlan(row.planId ?? '');
  if (!plan) throw errors.invalidSessionMetadata();
  return creditsPerInvoice(plan, (row.billingCycle ?? 'monthly') as BillingCycle);
}

/**
 * Idempotent fulfilment of one checkout session for verify-session (and tests): 404 unknown,
 * 403 another account's, 400 unpaid or inconsistent, 502 provider down. An already fulfilled
 * session answers its credits again without asking the provider.
 */
export async function fulfilCheckoutSession(
  deps: BillingDeps,
  sessionId: string,
  expectedAccountId?: string,
): Promise<{ sessionId: string; credits: number }> {
  const row = await findCheckoutSession(deps.db, sessionId);
  if (!row) throw errors.checkoutSessionNotFound();
  if (expectedAccountId !== undefined && row.accountId !== expectedAccountId) throw errors.sessionBelongsToAnotherUser();
  const credits = creditsOfSession(row);
  if (!row.fulfilledAt) {
    const effect = await prepareFulfilment(deps, row);
    await deps.db.transaction(effect);
  }
  return { sessionId, credits };
}

/**
 * Asks the provider about the session (and its subscription) and answers the effect that fulfils it,
 * for the caller's transaction. Throws 400 when the provider says it is unpaid, or its account or
 * mode differ from the record.
 */
export async function prepareFulfilment(deps: BillingDeps, row: CheckoutSessionRow): Promise<Effect> {
  const session = await viaProvider(deps, (p) => p.retrieveCheckoutSession(row.id));
  if (!PAID.has(session.paymentStatus)) throw errors.paymentNotCompleted();
  const owner = session.clientReferenceId ?? session.metadata.accountId;
  const consistent =
    owner === row.accountId &&
    (session.metadata.accountId === undefined || session.metadata.accountId === row.accountId) &&
    session.mode === row.mode;
  if (!consistent) throw errors.invalidSessionMetadata();

  let recordSubscription: Effect | null = null;
  if (row.mode === 'subscription') {
    if (!session.subscriptionId) throw errors.invalidSessionMetadata();
    recordSubscription = await prepareSubscriptionSync(deps, session.subscriptionId, row.accountId);
  }
  const credits = row.mode === 'payment' ? creditsOfSession(row) : 0;
  const pkg = row.mode === 'payment' ? findCreditPackage(row.packageId!)! : null;

  return async (tx) => {
    const marked = await tx
      .update(checkoutSessions)
      .set({ fulfilledAt: deps.clock.now() })
      .where(and(eq(checkoutSessions.id, row.id), isNull(checkoutSessions.fulfilledAt)))
      .returning({ id: checkoutSessions.id });
    if (marked.length === 0) return; // the other path fulfilled it first
    if (pkg) {
      await addCredits(tx, 'purchase', {
        accountId: row.accountId,
        amount: credits,
        description: `Credit purchase: ${pkg.name}`,
        reference: `checkout:${row.id}`,
      });
    }
    if (recordSubscription) await recordSubscription(tx);
  };
}
