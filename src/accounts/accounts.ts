import { randomUUID } from 'node:crypto';
import { announceRevocation } from '../auth/credential-cache.ts';
import { eq, sql } from '../db/orm.ts';
import { insertApiKey } from '../api-keys/api-keys.ts';
import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { accounts } from '../db/schema.ts';
import { addCredits } from '../credits/ledger.ts';
import type { PaymentProvider } from '../billing/provider.ts';
import { cancelSubscriptionsOf } from '../billing/subscriptions.ts';
import { viaProvider } from '../billing/deps.ts';
import { errors } from '../errors.ts';

export interface NewAccount {
  email: string;
  firstName: string;
  lastName?: string;
  company?: string;
}

export type Account = typeof accounts.$inferSelect;

/** Creates the account, its `default` API key and its welcome credits, all or nothing. */
export async function createAccount(
  db: Database,
  signupCredits: number,
  input: NewAccount,
): Promise<{ account: Account; apiKey: string }> {
  try {
    return await db.transaction(async (tx) => {
      const [account] = await tx
        .insert(accounts)
        .values({
          id: randomUUID(),
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName ?? null,
          company: input.company ?? null,
        })
        .returning();
      const { key } = await insertApiKey(tx, account.id, 'default');
      if (signupCredits > 0) {
        await addCredits(tx, 'purchase', { accountId: account.id, amount: signupCredits, description: 'Welcome credits' });
      }
      const [withCredits] = await tx.select().from(accounts).where(eq(accounts.id, account.id));
      return { account: withCredits, apiKey: key };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'accounts_email_lower_idx')) throw errors.emailTaken();
    throw error;
  }
}

export async function getAccount(db: Database, accountId: string): Promise<Account> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw errors.unauthorized();
  return account;
}

export async function updateProfile(
  db: Database,
  accountId: string,
  changes: { firstName?: string; lastName?: string; company?: string },
): Promise<Account> {
  const [account] = await db
    .update(accounts)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(accounts.id, accountId))
    .returning();
  if (!account) throw errors.unauthorized();
  return account;
}

/**
 * Everything the account owns goes with it: keys, tokens, sites, jobs, discoveries, ledger (foreign
 * keys cascade). Its live subscriptions are canceled at the provider first, then the provider
 * forgets its customer where it can (the local one); if the provider fails, nothing of the
 * account is deleted (502) and the caller may retry.
 */
export async function deleteAccount(
  db: Database,
  payments: PaymentProvider,
  accountId: string,
  log?: { warn(obj: object, msg: string): void },
): Promise<void> {
  await cancelSubscriptionsOf(db, payments, accountId, log);
  const [account] = await db.select({ customerId: accounts.billingCustomerId }).from(accounts).where(eq(accounts.id, accountId));
  const customerId = account?.customerId;
  if (customerId && payments.forgetCustomer) await viaProvider({ payments, log }, (provider) => provider.forgetCustomer!(customerId));
  await db.transaction(async (tx) => {
    await tx.delete(accounts).where(eq(accounts.id, accountId));
    await announceRevocation(tx, { accountId });
  });
}
