/**
 * The payment provider's events (its "webhooks", received at STRIPE_WEBHOOK_ROUTE; not the job
 * webhooks this service sends, webhooks/), after their signature was verified. Each event id is
 * applied once: its webhook_events row is written in the same transaction as its effects, so a
 * failure leaves neither (and the provider delivers it again), and a redelivery finds the row.
 */
import { eq } from '../db/orm.ts';
import { webhookEvents } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import type { BillingDeps } from './deps.ts';
import { findCheckoutSession, prepareFulfilment } from './fulfilment.ts';
import type { ProviderEvent } from './provider.ts';
import { accountOfCustomer, prepareInvoiceGrant, prepareSubscriptionSync, type Effect } from './subscriptions.ts';

export type ProviderEventOutcome = 'applied' | 'duplicate';

export async function applyProviderEvent(deps: BillingDeps, event: ProviderEvent): Promise<ProviderEventOutcome> {
  const [seen] = await deps.db.select({ id: webhookEvents.id }).from(webhookEvents).where(eq(webhookEvents.id, event.id));
  if (seen) return 'duplicate';
  const effect = await prepareEffect(deps, event);
  return deps.db.transaction(async (tx) => {
    const recorded = await tx
      .insert(webhookEvents)
      .values({ id: event.id, type: event.type, processedAt: deps.clock.now() })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.id });
    if (recorded.length === 0) return 'duplicate';
    await effect?.(tx);
    return 'applied';
  });
}

/** Everything that needs the provider happens here, before the transaction. Unknown types have no effect. */
async function prepareEffect(deps: BillingDeps, event: ProviderEvent): Promise<Effect | null> {
  const object = event.data?.object ?? {};
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return prepareCheckoutEffect(deps, event, String(object.id));
    case 'invoice.paid':
      return prepareInvoiceGrant(deps, object);
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      // Subscriptions of customers this service did not create are not asked about.
      const accountId = await accountOfCustomer(deps.db, typeof object.customer === 'string' ? object.customer : (object.customer?.id ?? null));
      return accountId ? prepareSubscriptionSync(deps, String(object.id), accountId) : null;
    }
    default:
      return null;
  }
}

async function prepareCheckoutEffect(deps: BillingDeps, event: ProviderEvent, sessionId: string): Promise<Effect | null> {
  const row = await findCheckoutSession(deps.db, sessionId);
  // A session this service did not create (another integration on the same provider account).
  if (!row || row.fulfilledAt) return null;
  try {
    return await prepareFulfilment(deps, row);
  } catch (error) {
    // Unpaid yet (an asynchronous payment method: a later event fulfils it) or inconsistent: nothing to do.
    if (error instanceof ApiError && error.statusCode < 500) {
      deps.log?.warn({ eventId: event.id, sessionId, reason: error.message }, 'checkout event without effect');
      return null;
    }
    throw error;
  }
}
