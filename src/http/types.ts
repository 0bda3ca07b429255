import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

/** The Fastify instance every route module receives: schemas type the handlers. */
export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/**
 * A capability's routes, registered with `app.register(plugin, deps)`: each plugin declares
 * the dependencies it uses, and is given those only.
 */
export type RoutePlugin<Deps extends object = Record<never, never>> = FastifyPluginAsync<Deps, RawServerDefault, TypeBoxTypeProvider>;

/** Who may call a route. `any` = a valid JWT or a valid API key. */
export type AuthRequirement = 'none' | 'jwt' | 'apiKey' | 'any';

export interface Caller {
  accountId: string;
  via: 'jwt' | 'apiKey';
  /** Set when the caller presented an API key. */
  apiKeyId: string | null;
}

/**
 * Who a bearer token stands for, null when no one: the capabilities' answer (auth/identify.ts),
 * handed to authentication, which asks it on every request with a token. A remembered answer may
 * come at once, without a promise.
 */
export type IdentifyCaller = (token: string) => Caller | null | Promise<Caller | null>;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
    /** Message for a request with no Authorization header at all (default `Unauthorized`). */
    missingHeaderError?: 'authorizationHeaderRequired' | 'apiKeyContextNotFound';
    /** Message when a JWT is presented where only an API key will do. */
    apiKeyOnlyError?: 'apiKeyContextNotFound';
    /** The route honours `Idempotency-Key` (it starts something that costs or charges). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The caller a route's auth requirement accepted (set for routes that name one). */
    caller: Caller | null;
    /** The account the request's credentials stand for, if valid, whatever the route accepts. */
    identity: Caller | null;
    /** The Idempotency-Key record this request answers first, if it carries a new key. */
    idempotency: { accountId: string; key: string } | null;
  }
}
