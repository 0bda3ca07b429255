import type { FastifyContextConfig, preParsingHookHandler } from 'fastify';
import { eq } from '../db/orm.ts';
import { authenticateApiKey, looksLikeApiKey } from '../api-keys/api-keys.ts';
import type { CredentialCache } from '../auth/credential-cache.ts';
import { verifyAccessToken } from '../auth/tokens.ts';
import { sha256 } from '../crypto/secrets.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { accounts } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { hooksOf } from './route-hooks.ts';
import type { App, AuthRequirement, Caller } from './types.ts';

interface AuthDeps {
  db: Database;
  clock: Clock;
  jwtSecret: string;
  credentials: CredentialCache;
}

const securityByRequirement: Record<Exclude<AuthRequirement, 'none'>, object[]> = {
  jwt: [{ accessToken: [] }],
  apiKey: [{ apiKey: [] }],
  any: [{ apiKey: [] }, { accessToken: [] }],
};

/**
 * Credentials are read once per request, in `onRequest`, before the rate limits (route-level
 * `onRequest` hooks run after the app's): a valid credential makes the account the rate-limit
 * identity, whatever spelling of the header carried it; anything else counts against the client
 * address. Whether the route accepts the credential is decided afterwards, in `preParsing`, so a
 * refused caller still spends its budget and learns nothing about what the body would have been.
 */
export function registerAuthentication(app: App, deps: AuthDeps): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('identity', null);

  // The requirement is checked by a hook of the route's own, which knows it, and only routes
  // that name one have it.
  app.addHook('onRoute', (route) => {
    const config = route.config ?? {};
    const requirement = config.auth;
    if (!requirement || requirement === 'none') return;
    route.schema = { ...route.schema, security: securityByRequirement[requirement] } as typeof route.schema;
    route.preParsing = [...hooksOf(route.preParsing), admitCaller(requirement, config)];
  });

  // Callback hooks, not async ones: a remembered API key (the polled reads) is answered without a
  // promise and a turn of the microtask queue per hook.
  app.addHook('onRequest', (request, _reply, done) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) return done();
    const identity = identify(deps, token);
    if (!(identity instanceof Promise)) {
      request.identity = identity;
      return done();
    }
    identity.then((found) => {
      request.identity = found;
      done();
    }, done);
  });
}

function admitCaller(requirement: Exclude<AuthRequirement, 'none'>, config: FastifyContextConfig): preParsingHookHandler {
  return (request, _reply, payload, done) => {
    if (!request.headers.authorization) return done(config.missingHeaderError ? errors[config.missingHeaderError]() : errors.unauthorized());
    const identity = request.identity;
    if (!identity) return done(errors.unauthorized());
    if (identity.via === 'apiKey' && requirement === 'jwt') return done(errors.unauthorized());
    if (identity.via === 'jwt' && requirement === 'apiKey') return done(config.apiKeyOnlyError ? errors[config.apiKeyOnlyError]() : errors.unauthorized());
    request.caller = identity;
    done(null, payload);
  };
}

const bearerToken = (header: string | undefined) => (header ? /^Bearer +(\S+)$/i.exec(header.trim())?.[1] ?? null : null);

/**
 * The account a token stands for: an API key, or a session's access token. Null when neither.
 * What the database said is remembered briefly (see CredentialCache), and a remembered API key is
 * answered at once; an access token's signature and expiry are checked on every request.
 */
function identify(deps: AuthDeps, token: string): Caller | Promise<Caller | null> {
  if (!looksLikeApiKey(token)) return identifyAccessToken(deps, token);
  return deps.credentials.resolve(`key:${sha256(token)}`, () => identifyApiKey(deps, token));
}

async function identifyApiKey(deps: AuthDeps, token: string): Promise<Caller | null> {
  const found = await authenticateApiKey(deps.db, deps.clock, token);
  return found ? { accountId: found.accountId, via: 'apiKey', apiKeyId: found.apiKeyId } : null;
}

async function identifyAccessToken(deps: AuthDeps, token: string): Promise<Caller | null> {
  const accountId = await verifyAccessToken(deps, token);
  if (!accountId) return null;
  return deps.credentials.resolve(`account:${accountId}`, async () => {
    // A token outlives a deleted account by up to 15 minutes; it must not act for it.
    const [account] = await deps.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
    return account ? { accountId, via: 'jwt', apiKeyId: null } : null;
  });
}

/** The authenticated caller of a route that declared an auth requirement. */
export function callerOf(request: { caller: Caller | null }): Caller {
  if (!request.caller) throw errors.unauthorized();
  return request.caller;
}
