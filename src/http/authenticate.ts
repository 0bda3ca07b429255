import type { FastifyContextConfig, preParsingHookHandler } from 'fastify';
import { errors } from '../errors.ts';
import { hooksOf } from './route-hooks.ts';
import type { App, AuthRequirement, Caller, IdentifyCaller } from './types.ts';

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
 * Who a token stands for is `identify`'s answer (auth/identify.ts, handed over by the app).
 */
export function registerAuthentication(app: App, identify: IdentifyCaller): void {
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
    const identity = identify(token);
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

/** The authenticated caller of a route that declared an auth requirement. */
export function callerOf(request: { caller: Caller | null }): Caller {
  if (!request.caller) throw errors.unauthorized();
  return request.caller;
}
