ALTER TABLE "discovery_jobs" ADD COLUMN "render" text DEFAULT 'never' NOT NULL;--> statement-breakpoint
ALTER TABLE "generation_jobs" ADD COLUMN "pages_rendered" integer;--> statement-breakpoint
ALTER TABLE "mapped_urls" ADD COLUMN "markdown_path" text;--> statement-breakpoint
CREATE INDEX "mapped_urls_site_markdown_path_idx" ON "mapped_urls" USING btree ("site_id","markdown_path");