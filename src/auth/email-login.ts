/**
 * Login by e-mail code (DESIGN.md): a 6-digit code valid 10 minutes, single use, burnt after 5
 * wrong tries. An account gets at most 5 codes and 15 tries an hour, whoever asks. Asking for a
 * code never tells whether the address has an account, not even by how long the answer takes.
 */
import { createHash, randomInt, randomUUID } from 'node:crypto';
import { and, count, eq, gt, isNull, lt, sql } from '../db/orm.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { accounts, loginCodes } from '../db/schema.ts';
import { errors } from '../errors.ts';
import type { Mailer } from '../mail/mailer.ts';

export const LOGIN_CODE_MINUTES = 10;
export const LOGIN_CODE_MAX_ATTEMPTS = 5;
export const LOGIN_CODES_PER_HOUR = 5;
export const LOGIN_TRIES_PER_HOUR = 15;
const HOUR_MS = 3600_000;

/** Salted with the account, so equal codes of two accounts do not share a hash. */
const hashCode = (accountId: string, code: string) => createHash('sha256').update(`${accountId}:${code}`).digest();

async function findAccountByEmail(db: Database, email: string) {
  const [account] = await db
    .select({ id: accounts.id, email: accounts.email })
    .from(accounts)
    .where(eq(sql`lower(${accounts.email})`, email.trim().toLowerCase()));
  return account ?? null;
}

export interface LoginCodeDeps {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  log: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/**
 * Stores a new code for the address's account, if it has one and has not had its hourly share,
 * and hands the e-mail to the mailer without waiting for it: a slow or dead mail server must not
 * make a known address answer later than an unknown one.
 */
export async function sendLoginCode(deps: LoginCodeDeps, email: string): Promise<void> {
  const account = await findAccountByEmail(deps.db, email);
  if (!account) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = deps.clock.now();
  const stored = await deps.db.transaction(async (tx) => {
    const [{ recent }] = await tx
      .select({ recent: count() })
      .from(loginCodes)
      .where(and(eq(loginCodes.accountId, account.id), gt(loginCodes.createdAt, new Date(now.getTime() - HOUR_MS))));
    if (recent >= LOGIN_CODES_PER_HOUR) return false;
    // Only the newest code works: asking again retires the earlier ones.
    await tx.update(loginCodes).set({ usedAt: now }).where(and(eq(loginCodes.accountId, account.id), isNull(loginCodes.usedAt)));
    await tx.insert(loginCodes).values({
      id: randomUUID(),
      accountId: account.id,
      codeHash: hashCode(account.id, code).toString('hex'),
      expiresAt: new Date(now.getTime() + LOGIN_CODE_MINUTES * 60_000),
      createdAt: now,
    });
    return true;
  });
  if (!stored) return;
  deps.mailer
    .send({
      to: account.email,
      subject: `Your llms.txt login code: ${code}`,
      text: `Your login code is ${code}. It is valid for ${LOGIN_CODE_MINUTES} minutes and can be used once.\nIf you did not ask for it, ignore this e-mail.`,
    }, deps.log)
    .catch((error: unknown) => deps.log.error({ err: error }, 'login code not sent'));
}

/**
 * The account whose current code this is; the code is spent. Anything else: 401. One statement
 * counts the try, spends the code when it matches and burns it at the last wrong try, so parallel
 * guesses cannot get past the limits between a read and a write.
 */
export async function verifyLoginCode(deps: { db: Database; clock: Clock }, email: string, code: string): Promise<string> {
  const account = await findAccountByEmail(deps.db, email);
  if (!account) throw errors.invalidLoginCode();
  const now = deps.clock.now();
  const hash = hashCode(account.id, code).toString('hex');
  const triesThisHour = deps.db
    .select({ tries: sql`coalesce(sum(${loginCodes.attempts}), 0)` })
    .from(loginCodes)
    .where(and(eq(loginCodes.accountId, account.id), gt(loginCodes.createdAt, new Date(now.getTime() - HOUR_MS))));
  const [tried] = await deps.db
    .update(loginCodes)
    .set({
      attempts: sql`${loginCodes.attempts} + 1`,
      usedAt: sql`CASE WHEN ${loginCodes.codeHash} = ${hash} OR ${loginCodes.attempts} + 1 >= ${LOGIN_CODE_MAX_ATTEMPTS} THEN ${now}::timestamptz ELSE NULL END`,
    })
    .where(
      and(
        eq(loginCodes.accountId, account.id),
        isNull(loginCodes.usedAt),
        gt(loginCodes.expiresAt, now),
        lt(loginCodes.attempts, LOGIN_CODE_MAX_ATTEMPTS),
        sql`(${triesThisHour}) < ${LOGIN_TRIES_PER_HOUR}`,
      ),
    )
    .returning({ matched: sql<boolean>`${loginCodes.codeHash} = ${hash}` });
  if (!tried?.matched) throw errors.invalidLoginCode();
  return account.id;
}
