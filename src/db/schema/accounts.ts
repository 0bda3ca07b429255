// Accounts and what signs them in: API keys, refresh tokens, login codes, and the Idempotency-Key
// records of their requests.
import { check, index, integer, pgTable, primaryKey, sql, text, timestamp, uniqueIndex } from '../orm.ts';
import { timestamps } from './columns.ts';

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    company: text('company'),
    plan: text('plan').notNull().default('free'),
    /** Cached sum of the account's credit_transactions, kept in step in the same transaction. */
    creditBalance: integer('credit_balance').notNull().default(0),
    /** Lifetime sums kept by the ledger with each entry: credits bought (and granted), and spent net of refunds. */
    totalPurchased: integer('total_purchased').notNull().default(0),
    totalUsed: integer('total_used').notNull().default(0),
    billingCustomerId: text('billing_customer_id').unique(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('accounts_email_lower_idx').on(sql`lower(${t.email})`),
    check('accounts_credit_balance_non_negative', sql`${t.creditBalance} >= 0`),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('api_keys_account_idx').on(t.accountId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    /** The API key the session was started with: deleting (revoking) the key ends the session. Null for e-mail login. */
    apiKeyId: text('api_key_id').references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** When the family ends however often it is rotated: the user logs in again then. */
    familyExpiresAt: timestamp('family_expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('refresh_tokens_account_idx').on(t.accountId), index('refresh_tokens_family_idx').on(t.familyId)],
);

/** One-time login codes sent by e-mail; stored only as hashes. */
export const loginCodes = pgTable(
  'login_codes',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('login_codes_account_idx').on(t.accountId)],
);

/**
 * Idempotency-Key records: the first answer to a keyed request, replayed to its retries for 24
 * hours. `response_status` is null while the first request is still being answered.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);
