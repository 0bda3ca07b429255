/**
 * The payment provider as the service sees it: hosted checkout, hosted portal, subscriptions and
 * signed notifications. Two implementations: `stripe` (the official SDK) and `local` (an emulation
 * served by the service itself). Both speak Stripe's object and event shapes, so the billing logic
 * reads one shape; the helpers below turn Stripe objects into the few fields it needs.
 */
import type Stripe from 'stripe';
import type { App } from '../http/types.ts';

export type CheckoutMode = 'payment' | 'subscription';

export interface CheckoutSessionInput {
  mode: CheckoutMode;
  customerId: string;
  /** the account id */
  clientReferenceId: string;
  metadata: Record<string, string>;
  lineItem: {
    name: string;
    amountCents: number;
    /** set for subscriptions */
    interval?: 'month' | 'year';
  };
  /** may contain `{CHECKOUT_SESSION_ID}`, which the provider substitutes */
  successUrl: string;
  cancelUrl: string;
}

export interface ProviderCheckoutSession {
  id: string;
  mode: CheckoutMode | string;
  /** `open`, `complete`, `expired` */
  status: string | null;
  /** `paid`, `unpaid`, `no_payment_required` */
  paymentStatus: string;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  customerId: string | null;
  subscriptionId: string | null;
}

export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** as the provider says: `active`, `trialing`, `past_due`, `canceled`, `incomplete`, `unpaid`, … */
  status: string;
  /** from the price's `metadata.planId`, else the subscription's; null when neither names one */
  planId: string | null;
  billingCycle: 'monthly' | 'yearly';
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  metadata: Record<string, string>;
}

/** A verified notification, shaped like Stripe's (`id`, `type`, `created`, `data.object`). */
export type ProviderEvent = Pick<Stripe.Event, 'id' | 'type' | 'created'> & { data: { object: any } };

export interface PaymentProvider {
  readonly name: 'stripe' | 'local';
  /** Creates the provider's customer for an account; calling it again for the same account answers the same customer. */
  createCustomer(account: { id: string; email: string; name: string }): Promise<{ id: string }>;
  createCheckoutSession(input: CheckoutSessionInput): Promise<{ id: string; url: string }>;
  retrieveCheckoutSession(id: string): Promise<ProviderCheckoutSession>;
  createPortalSession(customerId: string, returnUrl: string): Promise<{ url: string }>;
  retrieveSubscription(id: string): Promise<ProviderSubscription>;
  /** Cancels the subscription now (no further invoices). An already canceled or unknown subscription is not an error. */
  cancelSubscription(id: string): Promise<void>;
  /**
   * Forgets a deleted account's customer: what the provider holds about it (e-mail, account id,
   * sessions, subscriptions, invoices) goes, and its open checkout sessions can no longer be paid.
   * The local provider only: Stripe's records are the operator's accounting.
   */
  forgetCustomer?(customerId: string): Promise<void>;
  /** Throws WebhookSignatureError for a bad, missing or stale signature. */
  verifyWebhook(rawBody: Buffer | string, signatureHeader: string | undefined): Promise<ProviderEvent>;
  /** Routes the provider serves itself (the local provider's hosted pages), outside the API prefix. */
  registerPages?(app: App, options: { webhookPath: string }): Promise<void>;
}

/** The provider could not be reached or failed (5xx, timeout, refused connection, refused request). */
export class PaymentProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentProviderError';
  }
}

export class WebhookSignatureError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookSignatureError';
  }
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

const fromUnix = (seconds: number | null | undefined): Date | null => (seconds == null ? null : new Date(seconds * 1000));

export function checkoutSessionFromStripe(session: Stripe.Checkout.Session): ProviderCheckoutSession {
  return {
    id: session.id,
    mode: session.mode,
    status: session.status,
    paymentStatus: session.payment_status,
    clientReferenceId: session.client_reference_id,
    metadata: { ...(session.metadata ?? {}) },
    customerId: idOf(session.customer as string | { id: string } | null),
    subscriptionId: idOf(session.subscription as string | { id: string } | null),
  };
}

/**
 * The plan of a subscription: a price carrying `metadata.planId` (as prices configured for
 * the Stripe portal's plan switching may) wins over the subscription's own metadata, which the
 * service sets at checkout. The period is read from the first item (where Stripe keeps it since
 * 2025), or from the subscription itself on older API versions.
 */
export function subscriptionFromStripe(subscription: Stripe.Subscription): ProviderSubscription {
  const item = subscription.items?.data?.[0] as (Stripe.SubscriptionItem & Record<string, any>) | undefined;
  const legacy = subscription as unknown as { current_period_start?: number; current_period_end?: number };
  const metadata = { ...(subscription.metadata ?? {}) };
  const interval = item?.price?.recurring?.interval;
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer as string | { id: string })!,
    status: subscription.status,
    planId: item?.price?.metadata?.planId ?? metadata.planId ?? null,
    billingCycle: interval === 'year' ? 'yearly' : interval === 'month' ? 'monthly' : metadata.billingCycle === 'yearly' ? 'yearly' : 'monthly',
    currentPeriodStart: fromUnix(item?.current_period_start ?? legacy.current_period_start),
    currentPeriodEnd: fromUnix(item?.current_period_end ?? legacy.current_period_end),
    cancelAtPeriodEnd: Boolean(subscription.cancel_at_period_end),
    metadata,
  };
}

export interface InvoiceFacts {
  id: string;
  customerId: string | null;
  subscriptionId: string | null;
  /** the subscription's metadata when the invoice was made: which plan and cycle it bills */
  subscriptionMetadata: Record<string, string>;
  status: string | null;
}

/** Reads an invoice of the current API (`parent.subscription_details`) or an older one (`subscription`). */
export function invoiceFromStripe(invoice: Record<string, any>): InvoiceFacts {
  const details = invoice.parent?.subscription_details ?? invoice.subscription_details ?? null;
  return {
    id: String(invoice.id),
    customerId: idOf(invoice.customer),
    subscriptionId: idOf(details?.subscription ?? invoice.subscription ?? null),
    subscriptionMetadata: { ...(details?.metadata ?? {}) },
    status: invoice.status ?? null,
  };
}
