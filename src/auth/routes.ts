import { Type } from 'typebox';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { messages } from '../errors.ts';
import { callerOf } from '../http/authenticate.ts';
import { errorAnswers, SuccessMessage } from '../http/schemas.ts';
import type { App, RoutePlugin } from '../http/types.ts';
import type { Mailer } from '../mail/mailer.ts';
import { sendLoginCode, verifyLoginCode } from './email-login.ts';
import { revokeAllRefreshTokens, rotateRefreshToken, startSession, TokenSet } from './tokens.ts';

const TokenResponse = Type.Object({ success: Type.Boolean(), message: Type.String(), tokens: TokenSet });

type Deps = { db: Database; clock: Clock; config: Config; mailer: Mailer };

export const authRoutes: RoutePlugin<Deps> = async (app, deps) => {
  apiKeyLoginRoute(app, deps);
  emailLoginRoutes(app, deps);
  sessionRoutes(app, deps);
};

/** The public auth endpoints' limit: requests per minute per IP. */
const perIp = (config: Config) => ({ max: config.rateLimits.publicPerIp, keyGenerator: (r: { ip: string }) => r.ip });

const sessionTokens = ({ db, clock, config }: Deps) => ({ db, clock, jwtSecret: config.jwtSecret });

function apiKeyLoginRoute(app: App, deps: Deps) {
  const tokens = sessionTokens(deps);
  app.post(
    '/auth/login',
    {
      config: { auth: 'apiKey', rateLimit: perIp(deps.config) },
      schema: {
        tags: ['Auth'],
        summary: 'Exchange an API key for an access token and a refresh token',
        response: { 200: TokenResponse },
      },
    },
    async (request) => ({
      success: true,
      message: messages.loginSuccessful,
      tokens: await startSession(tokens, callerOf(request).accountId, callerOf(request).apiKeyId),
    }),
  );

}

/** A login code sent by e-mail, and exchanged for a session. */
function emailLoginRoutes(app: App, deps: Deps) {
  const { db, clock, mailer } = deps;
  const tokens = sessionTokens(deps);
  const EmailBody = { email: Type.String({ format: 'email', maxLength: 254 }) };

  app.post(
    '/auth/login/email',
    {
      config: { rateLimit: perIp(deps.config) },
      schema: {
        tags: ['Auth'],
        summary: 'Send a 6-digit login code to the address, valid 10 minutes (always 202: no account enumeration)',
        body: Type.Object(EmailBody, { additionalProperties: false }),
        response: { 202: SuccessMessage },
      },
    },
    async (request, reply) => {
      await sendLoginCode({ db, clock, mailer, log: request.log }, request.body.email);
      return reply.code(202).send({ success: true, message: messages.loginCodeSent });
    },
  );

  app.post(
    '/auth/login/verify',
    {
      config: { rateLimit: perIp(deps.config) },
      schema: {
        tags: ['Auth'],
        summary: 'Exchange an e-mailed login code for an access token and a refresh token',
        body: Type.Object({ ...EmailBody, code: Type.String({ pattern: '^[0-9]{6}$' }) }, { additionalProperties: false }),
        response: { 200: TokenResponse, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const accountId = await verifyLoginCode({ db, clock }, request.body.email, request.body.code);
      return { success: true, message: messages.loginSuccessful, tokens: await startSession(tokens, accountId, null) };
    },
  );

}

/** A session renewed, or ended. */
function sessionRoutes(app: App, deps: Deps) {
  const { db, clock } = deps;
  const tokens = sessionTokens(deps);
  app.post(
    '/auth/refresh',
    {
      config: { rateLimit: perIp(deps.config) },
      schema: {
        tags: ['Auth'],
        summary: 'Rotate a refresh token: the one sent is spent, a new set is returned',
        // Generous cap: any string that is not a token we issued (an access token sent by mistake too)
        // is an invalid token, 401 per the contract, not a 400.
        body: Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false }),
        response: { 200: TokenResponse, ...errorAnswers(401) },
      },
    },
    async (request) => ({
      success: true,
      message: messages.tokensRefreshed,
      tokens: await rotateRefreshToken(tokens, request.body.refreshToken),
    }),
  );

  app.post(
    '/auth/logout',
    {
      config: { auth: 'jwt', missingHeaderError: 'authorizationHeaderRequired' },
      schema: {
        tags: ['Auth'],
        summary: 'Revoke all refresh tokens of the account',
        response: { 200: SuccessMessage },
      },
    },
    async (request) => {
      await revokeAllRefreshTokens(db, callerOf(request).accountId, clock.now());
      return { success: true, message: messages.loggedOut };
    },
  );
}
