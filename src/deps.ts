import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { PaymentProvider } from './billing/provider.ts';
import type { Mailer } from './mail/mailer.ts';

/**
 * What the service is built from: `main.ts` makes one from the configuration, tests make their
 * own. `buildApp` reads it and never changes it; each route plugin is handed the parts it uses.
 */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  /** The payment provider; when absent, the one the configuration names. */
  payments?: PaymentProvider;
  /** Outgoing e-mail; when absent, SMTP or the log as the configuration says. */
  mailer?: Mailer;
  /** Whether this process also runs jobs (`serve`) or only sends them (`serve --no-worker`). */
  runWorkers?: boolean;
  /** Whether the job runtime readies its page thread at start, for the first job (see createPagePool). */
  warmUp?: boolean;
}
