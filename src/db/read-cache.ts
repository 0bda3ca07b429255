/**
 * Reads answered from memory: the API's most polled reads (an account's balance, a job's status)
 * cost a database round trip only when their row changed.
 *
 * Correctness rests on three rules:
 * - every process hears of every change: triggers on `accounts` and `generation_jobs`
 *   (migration 0010) announce the row's id on CHANNEL when the changing transaction commits,
 *   whichever process or statement made it;
 * - a client reads its own writes: when a transaction of this process commits, this process
 *   forgets everything before the caller goes on (NOTIFY alone could arrive after the answer);
 * - a read that was under way while something was forgotten is answered but not remembered
 *   (it may have read the row before the change committed).
 * A lost listener connection forgets everything, and entries expire after a few seconds anyway.
 * Readers that miss at once share one load: fifty clients polling one job, at its expiry, cost
 * one round trip instead of fifty (readers that come after a forget start a load of their own).
 */
import type { DatabaseHandle } from './database.ts';
import { SharedLoads } from './shared-loads.ts';

export const ROW_CHANGES_CHANNEL = 'llmstxt_row_changes';

export class ReadCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();
  private readonly loads = new SharedLoads<T | undefined>();
  /** Bumped by every forget: a load that saw it change is not remembered. */
  private epoch = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor({ ttlMs = 5_000, maxEntries = 10_000 } = {}) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  /** The remembered value, or what `load` answers (remembered unless it is undefined). */
  async read(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > Date.now()) return entry.value;
    return this.loads.load(key, async () => {
      const epoch = this.epoch;
      const value = await load();
      if (value !== undefined && epoch === this.epoch) {
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
      }
      return value;
    });
  }

  forget(key: string): void {
    this.epoch++;
    this.entries.delete(key);
    this.loads.forget(key);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.loads.forget();
  }
}

/**
 * Makes each cache forget the rows of its table (`{ accounts: balances }`) as the database
 * announces their changes, and everything when this process commits a transaction. Answers a
 * function that stops it.
 */
export async function forgetOnRowChanges(database: DatabaseHandle, byTable: Record<string, ReadCache<unknown>>): Promise<() => Promise<void>> {
  const clearAll = () => Object.values(byTable).forEach((cache) => cache.clear());
  const stopHearingCommits = database.afterCommit(clearAll);
  const stopListening = await database.notifications.listen(ROW_CHANGES_CHANNEL, {
    onMessage(payload) {
      const separator = payload.indexOf(':');
      byTable[payload.slice(0, separator)]?.forget(payload.slice(separator + 1));
    },
    onGap: clearAll,
  });
  return async () => {
    stopHearingCommits();
    await stopListening();
  };
}
