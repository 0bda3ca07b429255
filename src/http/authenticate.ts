import { eq } from 'drizzle-orm';
import { authenticateApiKey, looksLikeApiKey } from '../api-keys/api-keys.ts';
import { verifyAccessToken } from '../auth/tokens.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { accounts } from '../db/schema.ts';
import { errors } from '../errors.ts';
import type { App, AuthRequirement, Caller } from './types.ts';

interface AuthDeps {
  db: Database;
  clock: Clock;
  jwtSecret: string;
}

const securityByRequirement: Record<Exclude<AuthRequirement, 'none'>, object[]> = {
  jwt: [{ accessToken: [] }],
  apiKey: [{ apiKey: [] }],
  any: [{ apiKey: [] }, { accessToken: [] }],
};

/**
 * Resolves `Authorization: Bearer …` into `request.caller` for every route whose config names an
 * auth requirement. It runs before the body is read, so an anonymous caller learns nothing about
 * what the route would have accepted, and after the rate limits (route-level `onRequest` hooks),
 * so refused credentials count against the caller's budget and the per-IP limit on login holds.
 */
export function registerAuthentication(app: App, deps: AuthDeps): void {
  app.decorateRequest('caller', null);

  app.addHook('onRoute', (route) => {
    const requirement = route.config?.auth;
    if (requirement && requirement !== 'none') {
      route.schema = { ...route.schema, security: securityByRequirement[requirement] } as typeof route.schema;
    }
  });

  app.addHook('preParsing', async (request) => {
    const config = request.routeOptions.config;
    const requirement = config.auth ?? 'none';
    if (requirement === 'none') return;
    const header = request.headers.authorization;
    if (!header) throw config.missingHeaderError ? errors[config.missingHeaderError]() : errors.unauthorized();
    const token = /^Bearer +(\S+)$/i.exec(header)?.[1];
    if (!token) throw errors.unauthorized();
    request.caller = looksLikeApiKey(token)
      ? await callerFromApiKey(deps, requirement, token)
      : await callerFromAccessToken(deps, requirement, token, config.apiKeyOnlyError);
  });
}

async function callerFromApiKey(deps: AuthDeps, requirement: AuthRequirement, key: string): Promise<Caller> {
  if (requirement === 'jwt') throw errors.unauthorized();
  const found = await authenticateApiKey(deps.db, deps.clock, key);
  if (!found) throw errors.unauthorized();
  return { accountId: found.accountId, via: 'apiKey', apiKeyId: found.apiKeyId };
}

async function callerFromAccessToken(
  deps: AuthDeps,
  requirement: AuthRequirement,
  token: string,
  apiKeyOnlyError: 'apiKeyContextNotFound' | undefined,
): Promise<Caller> {
  if (requirement === 'apiKey') throw apiKeyOnlyError ? errors[apiKeyOnlyError]() : errors.unauthorized();
  const accountId = await verifyAccessToken(deps, token);
  if (!accountId) throw errors.unauthorized();
  // A token outlives a deleted account by up to 15 minutes; it must not act for it.
  const [account] = await deps.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw errors.unauthorized();
  return { accountId, via: 'jwt', apiKeyId: null };
}

/** The authenticated caller of a route that declared an auth requirement. */
export function callerOf(request: { caller: Caller | null }): Caller {
  if (!request.caller) throw errors.unauthorized();
  return request.caller;
}
