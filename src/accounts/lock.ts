import { eq } from '../db/orm.ts';
import type { Transaction } from '../db/database.ts';
import { accounts } from '../db/schema.ts';

/**
 * Locks the account's row until the transaction ends, so checks and writes about the account
 * (a count against a cap, a plan change) apply one after the other, whatever the process.
 */
export async function lockAccount(tx: Transaction, accountId: string): Promise<void> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
}
