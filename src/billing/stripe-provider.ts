/**
 * Stripe through its official SDK. Prices are sent inline (`price_data`), so no product or price
 * has to be set up in the dashboard; what was sold is also kept by the service, never read back
 * from the amount.
 */
import Stripe from 'stripe';
import {
  checkoutSessionFromStripe,
  PaymentProviderError,
  subscriptionFromStripe,
  WebhookSignatureError,
  type CheckoutSessionInput,
  type PaymentProvider,
  type ProviderCheckoutSession,
  type ProviderEvent,
  type ProviderSubscription,
} from './provider.ts';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** SDK options: tests point `host`, `port` and `protocol` at a fake server. */
  sdk?: Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol' | 'maxNetworkRetries' | 'timeout' | 'httpClient'>;
  currency?: string;
}

export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;
  private readonly currency: string;
  private readonly options: StripeProviderOptions;

  constructor(options: StripeProviderOptions) {
    this.options = options;
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: 'llmstxt-service' },
      ...options.sdk,
    });
    this.currency = options.currency ?? 'usd';
  }

  async createCustomer(account: { id: string; email: string; name: string }): Promise<{ id: string }> {
    const customer = await call(() =>
      this.stripe.customers.create(
        { email: account.email, name: account.name, metadata: { accountId: account.id } },
        // the same account asking twice (two first checkouts at once, a retry) gets one customer
        { idempotencyKey: `customer-for-account-${account.id}` },
      ),
    );
    return { id: customer.id };
  }

  async createCheckoutSession(input: CheckoutSessionInput): Promise<{ id: string; url: string }> {
    const { lineItem } = input;
    const session = await call(() =>
      this.stripe.checkout.sessions.create({
        mode: input.mode,
        customer: input.customerId,
        client_reference_id: input.clientReferenceId,
        metadata: input.metadata,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: this.currency,
              unit_amount: lineItem.amountCents,
              product_data: { name: lineItem.name },
              ...(lineItem.interval ? { recurring: { interval: lineItem.interval } } : {}),
            },
          },
        ],
        ...(input.mode === 'subscription' ? { subscription_data: { metadata: input.metadata } } : {}),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      }),
    );
    if (!session.url) throw new PaymentProviderError(`Stripe returned checkout session ${session.id} without a url`);
    return { id: session.id, url: session.url };
  }

  async retrieveCheckoutSession(id: string): Promise<ProviderCheckoutSession> {
    return checkoutSessionFromStripe(await call(() => this.stripe.checkout.sessions.retrieve(id)));
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<{ url: string }> {
    const session = await call(() => this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }));
    return { url: session.url };
  }

  async retrieveSubscription(id: string): Promise<ProviderSubscription> {
    return subscriptionFromStripe(await call(() => this.stripe.subscriptions.retrieve(id)));
  }

  async cancelSubscription(id: string): Promise<void> {
    await call(() =>
      this.stripe.subscriptions.cancel(id).then(
        () => undefined,
        (error: unknown) => {
          if (isResourceMissing(error)) return undefined; // already gone: nothing left to bill
          throw error;
        },
      ),
    );
  }

  async verifyWebhook(rawBody: Buffer | string, signatureHeader: string | undefined): Promise<ProviderEvent> {
    try {
      return this.stripe.webhooks.constructEvent(rawBody, signatureHeader ?? '', this.options.webhookSecret) as ProviderEvent;
    } catch (error) {
      throw new WebhookSignatureError('Stripe signature verification failed', { cause: error });
    }
  }
}

function isResourceMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError && error.statusCode === 404 && error.code === 'resource_missing';
}

/** Every failure of a Stripe call, whatever its kind, means the same to the caller: nothing was done. */
async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PaymentProviderError(`Stripe request failed: ${reason}`, { cause: error });
  }
}
