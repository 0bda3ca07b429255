/**
 * The `local` payment provider: the service's PaymentProvider adapter to the Stripe emulator
 * (emulator.ts), with its hosted checkout and portal under `/pay/...` (pages.ts).
 */
import type { App } from '../../http/types.ts';
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
} from '../provider.ts';
import { LocalStripe, type LocalStripeDeps } from './emulator.ts';
import { registerLocalPages } from './pages.ts';

export class LocalPaymentProvider implements PaymentProvider {
  readonly name = 'local' as const;
  readonly emulator: LocalStripe;

  constructor(deps: LocalStripeDeps) {
    this.emulator = new LocalStripe(deps);
  }

  createCustomer(account: { id: string; email: string; name: string }): Promise<{ id: string }> {
    return this.emulator.createCustomer(account);
  }

  createCheckoutSession(input: CheckoutSessionInput): Promise<{ id: string; url: string }> {
    return this.emulator.createCheckoutSession(input);
  }

  async retrieveCheckoutSession(id: string): Promise<ProviderCheckoutSession> {
    const session = await this.emulator.find(id, 'checkout.session');
    if (!session) throw new PaymentProviderError(`No such checkout.session: ${id}`);
    return checkoutSessionFromStripe(session as never);
  }

  createPortalSession(customerId: string, returnUrl: string): Promise<{ url: string }> {
    return this.emulator.createPortalSession(customerId, returnUrl);
  }
  async retrieveSubscription(id: string): Promise<ProviderSubscription> {
    const subscription = await this.emulator.find(id, 'subscription');
    if (!subscription) throw new PaymentProviderError(`No such subscription: ${id}`);
    return subscriptionFromStripe(subscription as never);
  }
  /** Cancels now, as the portal's "cancel now" does; an unknown or already canceled subscription changes nothing. */
  async cancelSubscription(id: string): Promise<void> {
    await this.emulator.cancelSubscriptionAt(id, 'now');
  }
  forgetCustomer(customerId: string): Promise<void> {
    return this.emulator.forgetCustomer(customerId);
  }
  async verifyWebhook(rawBody: Buffer | string, signatureHeader: string | undefined): Promise<ProviderEvent> {
    const secret = await this.emulator.webhookSecret();
    // The Stripe SDK (hundreds of modules) loads with the first payment event, not with the service.
    const { default: Stripe } = await import('stripe');
    try {
      return Stripe.webhooks.constructEvent(rawBody, signatureHeader ?? '', secret) as ProviderEvent;
    } catch (error) {
      throw new WebhookSignatureError('signature verification failed', { cause: error });
    }
  }

  async registerPages(app: App, options: { webhookPath: string }): Promise<void> {
    this.emulator.attach(app.server, options.webhookPath);
    await registerLocalPages(app, this.emulator);
  }
}
