ALTER TABLE "accounts" ADD COLUMN "total_purchased" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "total_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Accounts that existed before: their totals from their ledger.
UPDATE "accounts" AS a SET
  "total_purchased" = coalesce((SELECT sum("amount") FROM "credit_transactions" t WHERE t."account_id" = a."id" AND t."type" = 'purchase'), 0),
  "total_used" = coalesce((SELECT -sum("amount") FROM "credit_transactions" t WHERE t."account_id" = a."id" AND t."type" <> 'purchase'), 0);
