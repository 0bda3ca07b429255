-- Every committed change of an account or a generation job is announced on
-- 'llmstxt_row_changes' as '<table>:<id>', whatever statement or process made it: processes that
-- answer balance and job-status reads from memory forget that row (src/db/read-cache.ts).
CREATE OR REPLACE FUNCTION llmstxt_announce_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('llmstxt_row_changes', TG_TABLE_NAME || ':' || OLD.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER accounts_row_change AFTER UPDATE OR DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION llmstxt_announce_row_change();
--> statement-breakpoint
CREATE TRIGGER generation_jobs_row_change AFTER UPDATE OR DELETE ON generation_jobs
  FOR EACH ROW EXECUTE FUNCTION llmstxt_announce_row_change();
