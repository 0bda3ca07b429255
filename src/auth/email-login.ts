/**
 * Login by e-mail code (DESIGN.md): a 6-digit code valid 10 minutes, single use, burnt after 5
 * wrong tries. Asking for a code never tells whether the address has an account.
 */
import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { accounts, loginCodes } from '../db/schema.ts';
import { errors } from '../errors.ts';
import type { Mailer } from '../mail/mailer.ts';

export const LOGIN_CODE_MINUTES = 10;
export const LOGIN_CODE_MAX_ATTEMPTS = 5;

/** Salted with the account, so equal codes of two accounts do not share a hash. */
const hashCode = (accountId: string, code: string) => createHash('sha256').update(`${accountId}:${code}`).digest();

async function findAccountByEmail(db: Database, email: string) {
  const [account] = await db
    .select({ id: accounts.id, email: accounts.email })
    .from(accounts)
    .where(eq(sql`lower(${accounts.email})`, email.trim().toLowerCase()));
  return account ?? null;
}

export async function sendLoginCode(deps: { db: Database; clock: Clock; mailer: Mailer }, email: string): Promise<void> {
  const account = await findAccountByEmail(deps.db, email);
  if (!account) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    // Only the newest code works: asking again retires the earlier ones.
    await tx.update(loginCodes).set({ usedAt: now }).where(and(eq(loginCodes.accountId, account.id), isNull(loginCodes.usedAt)));
    await tx.insert(loginCodes).values({
      id: randomUUID(),
      accountId: account.id,
      codeHash: hashCode(account.id, code).toString('hex'),
      expiresAt: new Date(now.getTime() + LOGIN_CODE_MINUTES * 60_000),
    });
  });
  await deps.mailer.send({
    to: account.email,
    subject: `Your llms.txt login code: ${code}`,
    text: `Your login code is ${code}. It is valid for ${LOGIN_CODE_MINUTES} minutes and can be used once.\nIf you did not ask for it, ignore this e-mail.`,
  });
}

/** The account whose current code this is; the code is spent. Anything else: 401. */
export async function verifyLoginCode(deps: { db: Database; clock: Clock }, email: string, code: string): Promise<string> {
  const account = await findAccountByEmail(deps.db, email);
  if (!account) throw errors.invalidLoginCode();
  const now = deps.clock.now();
  const [current] = await deps.db
    .select()
    .from(loginCodes)
    .where(and(eq(loginCodes.accountId, account.id), isNull(loginCodes.usedAt), gt(loginCodes.expiresAt, now)))
    .orderBy(desc(loginCodes.createdAt))
    .limit(1);
  if (!current) throw errors.invalidLoginCode();
  const matches = timingSafeEqual(hashCode(account.id, code), Buffer.from(current.codeHash, 'hex'));
  if (!matches) {
    await deps.db
      .update(loginCodes)
      .set({
        attempts: sql`${loginCodes.attempts} + 1`,
        usedAt: sql`CASE WHEN ${loginCodes.attempts} + 1 >= ${LOGIN_CODE_MAX_ATTEMPTS} THEN ${now}::timestamptz ELSE NULL END`,
      })
      .where(eq(loginCodes.id, current.id));
    throw errors.invalidLoginCode();
  }
  // Conditional, so a code raced twice logs in once.
  const spent = await deps.db
    .update(loginCodes)
    .set({ usedAt: now })
    .where(and(eq(loginCodes.id, current.id), isNull(loginCodes.usedAt)))
    .returning({ id: loginCodes.id });
  if (spent.length === 0) throw errors.invalidLoginCode();
  return account.id;
}
