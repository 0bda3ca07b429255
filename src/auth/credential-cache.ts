/**
 * Who a credential stands for, remembered for a few seconds, so an authenticated request costs
 * no database round trip. A revoked key or a deleted account is forgotten at once by the process
 * that revoked it (`forget…`), and by every other process when its transaction commits: the
 * change announces itself with `pg_notify` in that transaction, and each process listens
 * (`listenForRevocations`). A lost listener connection clears the cache when it comes back, and
 * the time to live bounds what a missed notification can cost.
 */
import { sql } from '../db/orm.ts';
import type { Caller } from '../http/types.ts';
import type { DatabaseHandle, Queryable } from '../db/database.ts';

const CHANNEL = 'llmstxt_revocations';
const MAX_ENTRIES = 10_000;

type Revocation = { apiKeyId: string } | { accountId: string };

export class CredentialCache {
  private readonly entries = new Map<string, { caller: Caller; expiresAt: number }>();
  private readonly ttlMs: number;

  constructor(ttlMs = 10_000) {
    this.ttlMs = ttlMs;
  }

  get(credential: string): Caller | null {
    const entry = this.entries.get(credential);
    if (!entry) return null;
    if (entry.expiresAt > Date.now()) return entry.caller;
    this.entries.delete(credential);
    return null;
  }

  set(credential: string, caller: Caller): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(credential, { caller, expiresAt: Date.now() + this.ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }

  forget(revocation: Revocation): void {
    for (const [credential, { caller }] of this.entries) {
      if ('apiKeyId' in revocation ? caller.apiKeyId === revocation.apiKeyId : caller.accountId === revocation.accountId) {
        this.entries.delete(credential);
      }
    }
  }
}

/** Tells every process, when `tx` commits, that a key or an account's credentials are gone. */
export async function announceRevocation(tx: Queryable, revocation: Revocation): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(revocation)})`);
}

/** Applies other processes' revocations to this process's cache (this one's were applied by `forget`). */
export async function listenForRevocations(database: DatabaseHandle, cache: CredentialCache, log: { warn(obj: object, msg: string): void }) {
  return database.notifications.listen(CHANNEL, {
    onMessage(payload) {
      try {
        cache.forget(JSON.parse(payload) as Revocation);
      } catch (error) {
        log.warn({ err: error }, 'unreadable revocation notice');
      }
    },
    onGap: () => cache.clear(),
  });
}
