-- Page markdown and hosted files are stored as written, not compressed (docs/decisions/hosted-files.md).
ALTER TABLE "mapped_urls" ALTER COLUMN "markdown" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "site_file_parts" ALTER COLUMN "content" SET STORAGE EXTERNAL;
