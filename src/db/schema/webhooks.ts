// The job webhooks this service sends: where to, and each delivery.
import { index, jsonb, pgTable, text, timestamp } from '../orm.ts';
import { accounts } from './accounts.ts';

/** Where an account wants to hear about its jobs (webhooks/). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    /** The signing secret, sealed with a key derived from JWT_SECRET (it must be read back to sign). */
    sealedSecret: text('sealed_secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** While a delivery to the endpoint is under way (one at a time), when it is taken for lost. */
    busyUntil: timestamp('busy_until', { withTimezone: true, mode: 'date' }),
    /** The first failed attempt since the last delivered one; null while the endpoint answers. */
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    /** Set once every attempt has failed for a day: nothing is sent or queued until it is enabled again. */
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('webhook_endpoints_account_idx').on(t.accountId)],
);

/** One event for one endpoint: the outbox the delivery loop works through, and its history. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** Also the Standard Webhooks `webhook-id`: the same on every attempt. */
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    /** pending → delivered, or failed once the retries are spent; `notice` for the service's own entries (webhook.disabled). */
    status: text('status').notNull().default('pending'),
    /** When the next attempt is due. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    attempts: jsonb('attempts').$type<Array<{ at: string; statusCode: number | null; error: string | null; durationMs: number }>>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt), index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt)],
);
