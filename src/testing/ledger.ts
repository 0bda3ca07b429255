import assert from 'node:assert/strict';
import { eq, sql } from '../db/orm.ts';
import { accounts, creditTransactions } from '../db/schema.ts';
import type { TestService } from './service.ts';

/**
 * An account's ledger as stored, checked against itself: the cached balance must equal the sum
 * of its rows, and the lifetime totals kept on the account must equal what the rows add up to.
 */
export async function readLedger(service: TestService, accountId: string) {
  const [account] = await service.db
    .select({ balance: accounts.creditBalance, totalPurchased: accounts.totalPurchased, totalUsed: accounts.totalUsed })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  const t = creditTransactions;
  const [sums] = await service.db
    .select({
      sum: sql<string>`coalesce(sum(${t.amount}), 0)`,
      purchased: sql<string>`coalesce(sum(${t.amount}) FILTER (WHERE ${t.type} = 'purchase'), 0)`,
      used: sql<string>`coalesce(-sum(${t.amount}) FILTER (WHERE ${t.type} <> 'purchase'), 0)`,
      rows: sql<string>`count(*)`,
    })
    .from(t)
    .where(eq(t.accountId, accountId));
  assert.equal(Number(sums.sum), account.balance, 'the balance must equal the sum of the ledger');
  assert.equal(account.totalPurchased, Number(sums.purchased), 'totalPurchased must equal the purchases in the ledger');
  assert.equal(account.totalUsed, Number(sums.used), 'totalUsed must equal the spending net of refunds in the ledger');
  return { balance: account.balance, sum: Number(sums.sum), rows: Number(sums.rows) };
}
