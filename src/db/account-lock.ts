import { eq } from './orm.ts';
import type { Queryable } from './database.ts';
import { accounts } from './schema.ts';

/**
 * Locks the account's row until the transaction ends, so checks and writes about the account
 * (a count against a cap, a plan change) apply one after the other, whatever the process.
 */
export async function lockAccount(tx: Queryable, accountId: string): Promise<void> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
}
