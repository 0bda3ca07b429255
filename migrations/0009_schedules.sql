CREATE TABLE "site_schedules" (
	"site_id" text PRIMARY KEY NOT NULL,
	"frequency" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"paused_reason" text,
	"next_run_at" timestamp with time zone NOT NULL,
	"last_checked_at" timestamp with time zone,
	"last_outcome" text,
	"last_job_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mapped_urls" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "last_change" jsonb;--> statement-breakpoint
ALTER TABLE "site_schedules" ADD CONSTRAINT "site_schedules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_schedules_due_idx" ON "site_schedules" USING btree ("status","next_run_at");