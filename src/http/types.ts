import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

/** The Fastify instance every route module receives: schemas type the handlers. */
export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** Who may call a route. `any` = a valid JWT or a valid API key. */
export type AuthRequirement = 'none' | 'jwt' | 'apiKey' | 'any';

export interface Caller {
  accountId: string;
  via: 'jwt' | 'apiKey';
  /** Set when the caller presented an API key. */
  apiKeyId: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
    /** Message for a request with no Authorization header at all (default `Unauthorized`). */
    missingHeaderError?: 'authorizationHeaderRequired' | 'apiKeyContextNotFound';
    /** Message when a JWT is presented where only an API key will do. */
    apiKeyOnlyError?: 'apiKeyContextNotFound';
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}
