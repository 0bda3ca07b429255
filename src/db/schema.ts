/**
 * The database schema, one PostgreSQL dialect for PGlite and PostgreSQL alike, a file per group
 * of tables under schema/. This index is what drizzle-kit reads (drizzle.config.ts) and what the
 * ORM is built with: `npm run db:generate` turns changes there into a new SQL migration under
 * migrations/.
 */
export * from './schema/accounts.ts';
export * from './schema/sites.ts';
export * from './schema/jobs.ts';
export * from './schema/billing.ts';
export * from './schema/webhooks.ts';
