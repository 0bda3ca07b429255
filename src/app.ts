import Fastify, { type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database, DatabaseHandle } from './db/database.ts';
import type { CrawlOptions } from './crawl/index.ts';
import { discoveryRoutes } from './discovery/routes.ts';
import { generationRoutes } from './generation/routes.ts';
import { siteRoutes } from './sites/routes.ts';
import { startJobRuntime } from './jobs/runtime.ts';
import type { JobQueue } from './jobs/queue.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { registerAuthentication } from './http/authenticate.ts';
import { acceptEmptyJsonBodies, frameworkErrors, registerErrorHandling } from './http/error-handler.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerRateLimits } from './http/rate-limit.ts';
import { ErrorBody } from './http/schemas.ts';
import type { App } from './http/types.ts';
import { validatorCompiler } from './http/validation.ts';
import { accountRoutes } from './accounts/routes.ts';
import { apiKeyRoutes } from './api-keys/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { creditRoutes } from './credits/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { planRoutes } from './plans/routes.ts';
import { billingRoutes } from './billing/routes.ts';
import { createPaymentProvider } from './billing/create-provider.ts';
import type { PaymentProvider } from './billing/provider.ts';
import { registerWebApp } from './web/plugin.ts';

/** What the HTTP layer and the logic below it are given; tests build their own. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  /** The payment provider; when absent, buildApp makes the one the configuration names. */
  payments?: PaymentProvider;
  /** Outgoing e-mail; when absent, SMTP or the log as the configuration says. */
  mailer?: Mailer;
  /** Whether this process also runs jobs (`serve`) or only sends them (`serve --no-worker`). */
  runWorkers?: boolean;
}

/** AppDeps once buildApp has filled in what was left to the configuration. */
export type ResolvedAppDeps = AppDeps & { payments: PaymentProvider; mailer: Mailer; db: Database; queue: JobQueue; crawl: CrawlOptions };

export const API_PREFIX = '/api/v1';

const routeModules = [healthRoutes, accountRoutes, authRoutes, apiKeyRoutes, creditRoutes, planRoutes, billingRoutes, discoveryRoutes, generationRoutes, siteRoutes];

export async function buildApp(deps: AppDeps, logger: FastifyServerOptions['logger'] = false): Promise<App> {
  const app = Fastify({
    logger,
    bodyLimit: 1024 * 1024,
    // Only behind a proxy that sets X-Forwarded-For may it be trusted; otherwise any client could
    // pick its own address and walk around the per-IP limits.
    trustProxy: deps.config.trustProxy,
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(ErrorBody);
  registerErrorHandling(app);
  acceptEmptyJsonBodies(app);
  await registerOpenApi(app);
  await registerRateLimits(app, deps.config.rateLimits, { redisUrl: deps.config.redisUrl, namespace: deps.config.rateLimitNamespace });
  registerAuthentication(app, { db: deps.database.db, clock: deps.clock, jwtSecret: deps.config.jwtSecret });
  const jobs = await startJobRuntime(deps, app.log, { workers: deps.runWorkers ?? false });
  app.addHook('onClose', () => jobs.stop());
  const resolved: ResolvedAppDeps = Object.assign(deps, {
    payments: deps.payments ?? createPaymentProvider(deps, app.log),
    mailer: deps.mailer ?? createMailer(deps.config.smtpUrl, deps.config.mailFrom, app.log),
    db: deps.database.db,
    queue: jobs.queue,
    crawl: jobs.crawl,
  });
  await app.register(
    async (api) => {
      for (const routes of routeModules) await routes(api as unknown as App, resolved);
    },
    { prefix: API_PREFIX },
  );
  await resolved.payments.registerPages?.(app, { webhookPath: `${API_PREFIX}/webhooks/stripe` });
  await registerWebApp(app as unknown as App);
  return app;
}
