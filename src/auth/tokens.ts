import { randomUUID } from 'node:crypto';
import { Type, type Static } from 'typebox';
import { and, eq, isNull } from '../db/orm.ts';
import { SignJWT, jwtVerify } from 'jose';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { refreshTokens } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { randomBase62, sha256 } from '../crypto/secrets.ts';

export const ACCESS_TOKEN_SECONDS = 900;
export const REFRESH_TOKEN_SECONDS = 7 * 24 * 3600;
/** However often a session is refreshed, it ends this long after its login. */
export const SESSION_MAX_SECONDS = 30 * 24 * 3600;

/** A session's tokens as login and refresh answer them. */
export const TokenSet = Type.Object({
  accessToken: Type.String(),
  refreshToken: Type.String(),
  expiresIn: Type.Integer(),
  tokenType: Type.Literal('Bearer'),
});

export type TokenSet = Static<typeof TokenSet>;

export interface TokenContext {
  db: Database;
  clock: Clock;
  jwtSecret: string;
}

const key = (secret: string) => new TextEncoder().encode(secret);

async function signAccessToken(ctx: TokenContext, accountId: string): Promise<string> {
  const issuedAt = Math.floor(ctx.clock.now().getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(accountId)
    .setJti(randomUUID())
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_SECONDS)
    .sign(key(ctx.jwtSecret));
}

/** The account id in a valid, unexpired access token, or null. */
export async function verifyAccessToken(ctx: Omit<TokenContext, 'db'>, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, key(ctx.jwtSecret), {
      algorithms: ['HS256'],
      currentDate: ctx.clock.now(),
      // A token without an expiry would never end, one without a subject acts for nobody.
      requiredClaims: ['exp', 'sub'],
    });
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}

/** A session's refresh-token family: the key it was started with (null: e-mail login) and its end. */
interface Session {
  familyId: string;
  apiKeyId: string | null;
  familyExpiresAt: Date;
}

/** A login: a new session, started with `apiKeyId` (or an e-mail code), and its first token set. */
export function startSession(ctx: TokenContext, accountId: string, apiKeyId: string | null): Promise<TokenSet> {
  const familyExpiresAt = new Date(ctx.clock.now().getTime() + SESSION_MAX_SECONDS * 1000);
  return issueTokenSet(ctx, accountId, { familyId: randomUUID(), apiKeyId, familyExpiresAt });
}

/** A new access token and a refresh token in the session's family. */
async function issueTokenSet(ctx: TokenContext, accountId: string, session: Session): Promise<TokenSet> {
  const refreshToken = randomBase62(32);
  const refreshExpiry = ctx.clock.now().getTime() + REFRESH_TOKEN_SECONDS * 1000;
  await ctx.db.insert(refreshTokens).values({
    id: randomUUID(),
    accountId,
    familyId: session.familyId,
    apiKeyId: session.apiKeyId,
    familyExpiresAt: session.familyExpiresAt,
    tokenHash: sha256(refreshToken),
    expiresAt: new Date(Math.min(refreshExpiry, session.familyExpiresAt.getTime())),
  });
  return { accessToken: await signAccessToken(ctx, accountId), refreshToken, expiresIn: ACCESS_TOKEN_SECONDS, tokenType: 'Bearer' };
}

/**
 * Exchanges a refresh token for a new set. A token presented a second time means it leaked:
 * the whole family is revoked, so neither the thief nor the owner can go on with it.
 */
export async function rotateRefreshToken(ctx: TokenContext, presented: string): Promise<TokenSet> {
  const now = ctx.clock.now();
  const [row] = await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(presented)));
  if (!row || row.expiresAt <= now) throw errors.invalidRefreshToken();
  if (row.revokedAt || row.usedAt) {
    await revokeFamily(ctx.db, row.familyId, now);
    throw errors.revokedRefreshToken();
  }
  // Conditional, so two concurrent uses of one token cannot both succeed.
  const claimed = await ctx.db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  if (claimed.length === 0) {
    await revokeFamily(ctx.db, row.familyId, now);
    throw errors.revokedRefreshToken();
  }
  return issueTokenSet(ctx, row.accountId, { familyId: row.familyId, apiKeyId: row.apiKeyId, familyExpiresAt: row.familyExpiresAt });
}

async function revokeFamily(db: Database, familyId: string, now: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

export async function revokeAllRefreshTokens(db: Database, accountId: string, now: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.accountId, accountId), isNull(refreshTokens.revokedAt)));
}
