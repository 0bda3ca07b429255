ALTER TABLE "refresh_tokens" ADD COLUMN "api_key_id" text;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "family_expires_at" timestamp with time zone;--> statement-breakpoint
-- Sessions started before this change: their family ends 30 days after its first token.
UPDATE "refresh_tokens" AS t SET "family_expires_at" = f.started + interval '30 days'
  FROM (SELECT "family_id", min("created_at") AS started FROM "refresh_tokens" GROUP BY "family_id") AS f
  WHERE t."family_id" = f."family_id";--> statement-breakpoint
ALTER TABLE "refresh_tokens" ALTER COLUMN "family_expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;
