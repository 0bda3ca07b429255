import { and, asc, count, eq, isNull, lt, or } from '../db/orm.ts';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Database, Queryable } from '../db/database.ts';
import { apiKeys } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { announceRevocation } from '../auth/credential-cache.ts';
import { randomBase62, sha256 } from '../crypto/secrets.ts';
import { lockAccount } from '../db/account-lock.ts';

export const API_KEY_PREFIX = 'llmstxt_';
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;
export const MAX_API_KEYS_PER_ACCOUNT = 20;
/** lastUsedAt is written at most this often per key, so a busy key costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

/**
 * Creates a further key for the account, within the cap: the account's row is locked while its
 * keys are counted, so creations at once never pass the cap together.
 */
export async function createApiKey(db: Database, accountId: string, name: string): Promise<ApiKeySummary & { key: string }> {
  return db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const [{ keys }] = await tx.select({ keys: count() }).from(apiKeys).where(eq(apiKeys.accountId, accountId));
    if (keys >= MAX_API_KEYS_PER_ACCOUNT) throw errors.tooManyApiKeys(MAX_API_KEYS_PER_ACCOUNT);
    return insertApiKey(tx, accountId, name);
  });
}

/** Writes a key for the account, cap unchecked (an account's first key); the plain key is returned here once and never stored. */
export async function insertApiKey(db: Queryable, accountId: string, name: string): Promise<ApiKeySummary & { key: string }> {
  const key = API_KEY_PREFIX + randomBase62(32);
  const [row] = await db
    .insert(apiKeys)
    .values({ id: randomUUID(), accountId, name, keyHash: sha256(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) })
    .returning();
  return { ...summarize(row), key };
}

export async function listApiKeys(db: Database, accountId: string): Promise<ApiKeySummary[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(asc(apiKeys.createdAt));
  return rows.map(summarize);
}

/** Deletes one of the account's keys, refusing to remove its last one (the account would be locked out). */
export async function revokeApiKey(db: Database, accountId: string, keyId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const owned = await tx
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.accountId, accountId))
      .for('update');
    if (!owned.some((k) => k.id === keyId)) throw errors.apiKeyNotFound();
    if (owned.length === 1) throw errors.lastApiKey();
    await tx.delete(apiKeys).where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId)));
    await announceRevocation(tx, { apiKeyId: keyId });
  });
}

/** The account and key behind a presented API key, or null. */
export async function authenticateApiKey(
  db: Database,
  clock: Clock,
  key: string,
): Promise<{ accountId: string; apiKeyId: string } | null> {
  if (!looksLikeApiKey(key) || key.length > 200) return null;
  const [row] = await db
    .select({ id: apiKeys.id, accountId: apiKeys.accountId, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, sha256(key)));
  if (!row) return null;
  const now = clock.now();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, staleBefore))));
  }
  return { accountId: row.accountId, apiKeyId: row.id };
}

function summarize(row: typeof apiKeys.$inferSelect): ApiKeySummary {
  return { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}
