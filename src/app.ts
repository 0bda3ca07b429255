import Fastify, { type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { registerAuthentication } from './http/authenticate.ts';
import { acceptEmptyJsonBodies, registerErrorHandling } from './http/error-handler.ts';
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

/** What the HTTP layer and the logic below it are given; tests build their own. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
}

export const API_PREFIX = '/api/v1';

const routeModules = [healthRoutes, accountRoutes, authRoutes, apiKeyRoutes, creditRoutes, planRoutes];

export async function buildApp(deps: AppDeps, logger: FastifyServerOptions['logger'] = false): Promise<App> {
  const app = Fastify({
    logger,
    bodyLimit: 1024 * 1024,
    trustProxy: true,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(ErrorBody);
  registerErrorHandling(app);
  acceptEmptyJsonBodies(app);
  await registerOpenApi(app);
  await registerRateLimits(app, deps.config.rateLimits);
  registerAuthentication(app, { db: deps.database.db, clock: deps.clock, jwtSecret: deps.config.jwtSecret });
  await app.register(
    async (api) => {
      for (const routes of routeModules) await routes(api as unknown as App, deps);
    },
    { prefix: API_PREFIX },
  );
  return app;
}
