ALTER TABLE "generation_jobs" ADD COLUMN "stage" jsonb;--> statement-breakpoint
ALTER TABLE "generation_jobs" ADD COLUMN "pages_left_out" integer;--> statement-breakpoint
ALTER TABLE "generation_jobs" ADD COLUMN "method_asked" text;