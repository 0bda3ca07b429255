import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { ApiError, errors } from '../errors.ts';
import { PaymentProviderError, type PaymentProvider } from './provider.ts';

/** What the billing logic needs; tests call the logic with these, without a server. */
export interface BillingDeps {
  db: Database;
  payments: PaymentProvider;
  clock: Clock;
  log?: { warn(obj: object, msg: string): void };
}

/**
 * Runs one provider call, outside any database transaction (PGlite is one connection, and a slow
 * provider must not hold rows locked). A failing provider becomes 502 with nothing written.
 */
export async function viaProvider<T>(deps: Pick<BillingDeps, 'payments' | 'log'>, call: (provider: PaymentProvider) => Promise<T>): Promise<T> {
  try {
    return await call(deps.payments);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    deps.log?.warn({ err: error }, 'payment provider call failed');
    const unavailable: ApiError = errors.paymentProviderUnavailable();
    (unavailable as Error).cause = error;
    throw unavailable;
  }
}
