import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { LocalPaymentProvider } from './local/provider.ts';
import type { PaymentProvider } from './provider.ts';

/**
 * The provider PAYMENT_PROVIDER names: `stripe` (needs its keys, checked by loadConfig) or `local`.
 * The Stripe SDK (hundreds of modules) loads only when Stripe is the provider.
 */
export async function createPaymentProvider(
  deps: { config: Config; database: DatabaseHandle; clock: Clock },
  log: FastifyBaseLogger,
): Promise<PaymentProvider> {
  const { config } = deps;
  if (config.paymentProvider === 'stripe') {
    const { StripePaymentProvider } = await import('./stripe-provider.ts');
    return new StripePaymentProvider({ secretKey: config.stripeSecretKey!, webhookSecret: config.stripeWebhookSecret! });
  }
  if (config.production) {
    log.warn('PAYMENT_PROVIDER is local in production: its checkout takes no money, anyone can "pay". Set STRIPE_SECRET_KEY.');
  }
  return new LocalPaymentProvider({ db: deps.database.db, config, clock: deps.clock, log });
}
