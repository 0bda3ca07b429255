/**
 * The credit ledger. Every change of a balance is one append-only row in credit_transactions
 * and the same change to accounts.credit_balance, in the caller's database transaction, so the
 * cached balance always equals the sum of the rows. Later capabilities (generation, billing)
 * call `spendCredits` and `addCredits` inside their own transactions.
 */
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, gte, sql } from '../db/orm.ts';
import type { Queryable, Transaction } from '../db/database.ts';
import { accounts, creditTransactions } from '../db/schema.ts';
import { errors } from '../errors.ts';

export const TRANSACTION_TYPES = ['purchase', 'usage', 'refund'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
const RECENT_TRANSACTIONS = 10;

export interface CreditEntry {
  accountId: string;
  amount: number;
  description: string;
  siteId?: string | null;
  /** A unique key that makes the entry happen at most once (a checkout session, an invoice, a job's refund). */
  reference?: string;
}

/**
 * Adds credits (a purchase, a grant or a refund). Answers false, changing nothing, when an
 * entry with the same reference was already recorded.
 */
export async function addCredits(tx: Transaction, type: 'purchase' | 'refund', entry: CreditEntry): Promise<boolean> {
  if (!Number.isInteger(entry.amount) || entry.amount <= 0) throw new Error(`credit amount must be a positive integer, got ${entry.amount}`);
  const inserted = await tx
    .insert(creditTransactions)
    .values({ id: randomUUID(), type, ...entry, siteId: entry.siteId ?? null, reference: entry.reference ?? null })
    .onConflictDoNothing({ target: creditTransactions.reference })
    .returning({ id: creditTransactions.id });
  if (inserted.length === 0) return false;
  await tx
    .update(accounts)
    .set({
      creditBalance: sql`${accounts.creditBalance} + ${entry.amount}`,
      ...(type === 'purchase'
        ? { totalPurchased: sql`${accounts.totalPurchased} + ${entry.amount}` }
        : { totalUsed: sql`${accounts.totalUsed} - ${entry.amount}` }),
    })
    .where(eq(accounts.id, entry.accountId));
  return true;
}

/**
 * Spends credits, or throws 402 with the balance left. The debit is one conditional UPDATE, so
 * concurrent spends can never take the balance below zero.
 */
export async function spendCredits(tx: Transaction, entry: CreditEntry): Promise<{ transactionId: string }> {
  if (!Number.isInteger(entry.amount) || entry.amount <= 0) throw new Error(`credit amount must be a positive integer, got ${entry.amount}`);
  const debited = await tx
    .update(accounts)
    .set({ creditBalance: sql`${accounts.creditBalance} - ${entry.amount}`, totalUsed: sql`${accounts.totalUsed} + ${entry.amount}` })
    .where(and(eq(accounts.id, entry.accountId), gte(accounts.creditBalance, entry.amount)))
    .returning({ balance: accounts.creditBalance });
  if (debited.length === 0) {
    const [account] = await tx.select({ balance: accounts.creditBalance }).from(accounts).where(eq(accounts.id, entry.accountId));
    throw errors.insufficientCredits(entry.amount, account?.balance ?? 0);
  }
  const id = randomUUID();
  await tx.insert(creditTransactions).values({
    id,
    accountId: entry.accountId,
    type: 'usage',
    amount: -entry.amount,
    description: entry.description,
    siteId: entry.siteId ?? null,
    reference: entry.reference ?? null,
  });
  return { transactionId: id };
}

export interface CreditSummary {
  balance: number;
  totalPurchased: number;
  totalUsed: number;
  recentTransactions: Array<{ id: string; type: string; amount: number; description: string; createdAt: Date }>;
}

/**
 * totalUsed is what was spent net of refunds: a reservation of 10 with 4 refunded counts 6.
 * One statement, reading the totals the ledger keeps on the account and the latest entries
 * through the (account, created_at) index: the balance page is the API's most frequent read.
 */
export async function creditSummary(db: Queryable, accountId: string): Promise<CreditSummary> {
  const t = creditTransactions;
  const result: any = await db.execute(sql`
    SELECT a.credit_balance AS balance,
      a.total_purchased AS purchased,
      a.total_used AS used,
      coalesce((SELECT json_agg(r) FROM (
        SELECT ${t.id} AS id, ${t.type} AS type, ${t.amount} AS amount, ${t.description} AS description, ${t.createdAt} AS "createdAt"
        FROM ${t} WHERE ${t.accountId} = a.id ORDER BY ${t.createdAt} DESC, ${t.id} DESC LIMIT ${RECENT_TRANSACTIONS}) r), '[]') AS recent
    FROM ${accounts} a WHERE a.id = ${accountId}`);
  const [row] = result.rows ?? result;
  const recent = typeof row?.recent === 'string' ? JSON.parse(row.recent) : (row?.recent ?? []);
  return {
    balance: row?.balance ?? 0,
    totalPurchased: Number(row?.purchased ?? 0),
    totalUsed: Number(row?.used ?? 0),
    recentTransactions: recent.map((r: any) => ({ ...r, createdAt: new Date(r.createdAt) })),
  };
}

export interface HistoryQuery {
  limit: number;
  offset: number;
  type?: TransactionType;
}

export async function creditHistory(db: Queryable, accountId: string, query: HistoryQuery) {
  const where = and(
    eq(creditTransactions.accountId, accountId),
    query.type ? eq(creditTransactions.type, query.type) : undefined,
  );
  const [transactions, [{ total }]] = await Promise.all([
    db
      .select({
        id: creditTransactions.id,
        type: creditTransactions.type,
        amount: creditTransactions.amount,
        description: creditTransactions.description,
        siteId: creditTransactions.siteId,
        createdAt: creditTransactions.createdAt,
      })
      .from(creditTransactions)
      .where(where)
      .orderBy(desc(creditTransactions.createdAt), desc(creditTransactions.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(creditTransactions).where(where),
  ]);
  return { transactions, total, hasMore: query.offset + transactions.length < total };
}
