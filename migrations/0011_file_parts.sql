CREATE TABLE "site_file_parts" (
	"site_id" text NOT NULL,
	"kind" text NOT NULL,
	"part" integer NOT NULL,
	"content" text NOT NULL,
	CONSTRAINT "site_file_parts_site_id_kind_part_pk" PRIMARY KEY("site_id","kind","part")
);
--> statement-breakpoint
ALTER TABLE "site_file_parts" ADD CONSTRAINT "site_file_parts_file_fk" FOREIGN KEY ("site_id","kind") REFERENCES "public"."site_files"("site_id","kind") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
-- Each stored file becomes parts of 131,072 characters (FILE_PART_CHARS); an empty file, one empty part.
INSERT INTO "site_file_parts" ("site_id", "kind", "part", "content")
SELECT "site_id", "kind", "n", substr("content", "n" * 131072 + 1, 131072)
FROM "site_files", generate_series(0, greatest(ceil(length("content") / 131072.0)::integer - 1, 0)) AS "n";--> statement-breakpoint
ALTER TABLE "site_files" DROP COLUMN "content";