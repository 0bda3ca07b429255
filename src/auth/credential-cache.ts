/**
 * Who a credential stands for, remembered for a few seconds, so an authenticated request costs
 * no database round trip. A revoked key or a deleted account is forgotten at once by the process
 * that revoked it (`forget…`), and by every other process when its transaction commits: the
 * change announces itself with `pg_notify` in that transaction, and each process listens
 * (`listenForRevocations`). A lost listener connection clears the cache when it comes back, and
 * the time to live bounds what a missed notification can cost. Requests that miss at once share
 * one lookup (fifty polling clients of one key, when its entry expires), and a lookup under way
 * when a credential is forgotten is answered but not remembered: it may predate the revocation.
 */
import { sql } from '../db/orm.ts';
import type { Caller } from '../http/types.ts';
import type { DatabaseHandle, Queryable } from '../db/database.ts';
import { SharedLoads } from '../db/shared-loads.ts';

const CHANNEL = 'llmstxt_revocations';
const MAX_ENTRIES = 10_000;

type Revocation = { apiKeyId: string } | { accountId: string };

export class CredentialCache {
  private readonly entries = new Map<string, { caller: Caller; expiresAt: number }>();
  private readonly lookups = new SharedLoads<Caller | null>();
  /** Bumped by every forget: a lookup that saw it change is not remembered. */
  private epoch = 0;
  private readonly ttlMs: number;

  constructor(ttlMs = 10_000) {
    this.ttlMs = ttlMs;
  }

  /**
   * The caller a credential stands for: remembered, at once, or what `lookup` finds (null for no
   * one). A remembered caller is answered without a promise: the polled reads pay no microtask.
   */
  resolve(credential: string, lookup: () => Promise<Caller | null>): Caller | Promise<Caller | null> {
    const entry = this.entries.get(credential);
    if (entry && entry.expiresAt > Date.now()) return entry.caller;
    return this.lookups.load(credential, async () => {
      const epoch = this.epoch;
      const caller = await lookup();
      if (caller && epoch === this.epoch) this.remember(credential, caller);
      return caller;
    });
  }

  private remember(credential: string, caller: Caller): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(credential, { caller, expiresAt: Date.now() + this.ttlMs });
  }

  clear(): void {
    this.epoch++;
    this.lookups.forget();
    this.entries.clear();
  }

  forget(revocation: Revocation): void {
    this.epoch++;
    this.lookups.forget();
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
