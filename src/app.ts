import Fastify, { type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CredentialCache, listenForRevocations } from './auth/credential-cache.ts';
import { callerIdentifier } from './auth/identify.ts';
import type { Config } from './config.ts';
import type { AppDeps } from './deps.ts';
import type { CreditSummary } from './credits/ledger.ts';
import { forgetOnRowChanges, ReadCache } from './db/read-cache.ts';
import type { GenerationJob } from './generation/generation.ts';
import { discoveryRoutes } from './discovery/routes.ts';
import { generationRoutes } from './generation/routes.ts';
import { siteRoutes } from './sites/routes.ts';
import { startJobRuntime } from './job-runtime.ts';
import { createMailer } from './mail/mailer.ts';
import { registerAuthentication } from './http/authenticate.ts';
import { frameworkErrors, registerErrorHandling } from './http/error-handler.ts';
import { BODY_LIMITS, registerJsonParser } from './http/json-bodies.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerOpenApi } from './http/openapi.ts';
import { API_PREFIX, STRIPE_WEBHOOK_ROUTE } from './http/paths.ts';
import { registerRateLimits } from './http/rate-limit.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
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
import { registerWebApp } from './web/plugin.ts';
import { scheduleRoutes } from './schedules/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { lintRoutes } from './lint/routes.ts';
import { registerMetrics } from './metrics/routes.ts';

export async function buildApp(deps: AppDeps, logger: FastifyServerOptions['logger'] = false): Promise<App> {
  const app = createServer(deps.config, logger);
  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(ErrorBody);
  registerErrorHandling(app);
  registerJsonParser(app);
  await registerSecurityHeaders(app);
  // Before the OpenAPI routes, so /docs and /docs/json are counted like every other route.
  await registerRateLimits(app, deps.config.rateLimits, { redisUrl: deps.config.redisUrl, namespace: deps.config.rateLimitNamespace });
  await registerOpenApi(app);
  const credentials = new CredentialCache();
  app.addHook('onClose', await listenForRevocations(deps.database, credentials, app.log));
  const balanceReads = new ReadCache<CreditSummary>();
  const jobReads = new ReadCache<GenerationJob>();
  app.addHook('onClose', await forgetOnRowChanges(deps.database, { accounts: balanceReads, generation_jobs: jobReads }));
  registerAuthentication(app, callerIdentifier({ db: deps.database.db, clock: deps.clock, jwtSecret: deps.config.jwtSecret, credentials }));
  registerIdempotency(app, { db: deps.database.db, clock: deps.clock });
  await registerMetrics(app, { db: deps.database.db, config: deps.config });
  const jobs = await startJobRuntime({ ...deps, jobReads }, app.log, { workers: deps.runWorkers ?? false, warmUp: deps.warmUp });
  app.addHook('onClose', () => jobs.stop());
  const { config, clock, database } = deps;
  const db = database.db;
  const payments = deps.payments ?? (await createPaymentProvider(deps, app.log));
  const mailer = deps.mailer ?? createMailer(config.smtpUrl, config.mailFrom, app.log);
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database });
      await api.register(accountRoutes, { db, config, payments, credentials });
      await api.register(authRoutes, { db, clock, config, mailer });
      await api.register(apiKeyRoutes, { db, credentials });
      await api.register(creditRoutes, { db, balanceReads });
      await api.register(planRoutes);
      await api.register(billingRoutes, { db, clock, config, payments });
      await api.register(discoveryRoutes, { db, clock, config, queue: jobs.queue, crawl: jobs.crawl });
      await api.register(generationRoutes, { db, clock, config, queue: jobs.queue, crawl: jobs.crawl, jobReads });
      await api.register(siteRoutes, { db, config, crawl: jobs.crawl, robots: jobs.robots });
      await api.register(webhookRoutes, { db, clock, config, crawl: jobs.crawl });
      await api.register(scheduleRoutes, { db, clock });
      await api.register(lintRoutes, { config, crawl: jobs.crawl, robots: jobs.robots });
    },
    { prefix: API_PREFIX },
  );
  await app.register(mcpRoutes, { db, clock, config, queue: jobs.queue, crawl: jobs.crawl, robots: jobs.robots });
  await payments.registerPages?.(app, { webhookPath: API_PREFIX + STRIPE_WEBHOOK_ROUTE });
  await registerWebApp(app);
  return app;
}

/** The Fastify server with the service's limits: body size, client timeouts, trusted proxies. */
function createServer(config: Config, logger: FastifyServerOptions['logger']): App {
  const { trustProxy, http: timeouts } = config;
  return Fastify({
    logger,
    bodyLimit: BODY_LIMITS.default,
    // A client trickling its headers or body is closed when its time is up (Node looks every
    // connectionsCheckingInterval, so within a quarter of the headers timeout after).
    http: {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: Math.ceil(timeouts.headersTimeoutMs / 4),
    },
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    // Only the hops of our own proxies may be believed; otherwise any client could pick its own
    // address and walk around the per-IP limits. A hop count is what proxy-addr does for a number
    // (trust the `hops` nearest hops), spelled as a function because Fastify's types take no number.
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();
}
