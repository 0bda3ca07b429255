import { Type } from 'typebox';
import type { AppDeps } from '../app.ts';
import { callerOf } from '../http/authenticate.ts';
import { SuccessMessage } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import { issueTokenSet, revokeAllRefreshTokens, rotateRefreshToken } from './tokens.ts';

const TokenSet = Type.Object({
  accessToken: Type.String(),
  refreshToken: Type.String(),
  expiresIn: Type.Integer(),
  tokenType: Type.Literal('Bearer'),
});

const TokenResponse = Type.Object({ success: Type.Boolean(), message: Type.String(), tokens: TokenSet });

export async function authRoutes(app: App, { database, clock, config }: AppDeps) {
  const tokens = { db: database.db, clock, jwtSecret: config.jwtSecret };
  const perIp = { max: config.rateLimits.publicPerIp, keyGenerator: (r: { ip: string }) => r.ip };

  app.post(
    '/auth/login',
    {
      config: { auth: 'apiKey', rateLimit: perIp },
      schema: {
        tags: ['Auth'],
        summary: 'Exchange an API key for an access token and a refresh token',
        response: { 200: TokenResponse },
      },
    },
    async (request) => ({
      success: true,
      message: 'Login successful',
      tokens: await issueTokenSet(tokens, callerOf(request).accountId),
    }),
  );

  app.post(
    '/auth/refresh',
    {
      config: { rateLimit: perIp },
      schema: {
        tags: ['Auth'],
        summary: 'Rotate a refresh token: the one sent is spent, a new set is returned',
        // Generous cap: any string that is not a token we issued (an access token sent by mistake too)
        // is an invalid token, 401 per the contract, not a 400.
        body: Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false }),
        response: { 200: TokenResponse },
      },
    },
    async (request) => ({
      success: true,
      message: 'Tokens refreshed successfully',
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
      await revokeAllRefreshTokens(database.db, callerOf(request).accountId, clock.now());
      return { success: true, message: 'Logged out successfully' };
    },
  );
}
