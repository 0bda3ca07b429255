ALTER TABLE "generation_jobs" ADD COLUMN "file_sizes" jsonb;--> statement-breakpoint
ALTER TABLE "site_files" ADD COLUMN "bytes" integer;--> statement-breakpoint
ALTER TABLE "site_files" ADD COLUMN "tokens" integer;