-- Every statement that inserts, updates or deletes chunks raises the knowledge_version of the
-- datastores it touched, whichever code path ran it (ingestion, deletion, foreign-key cascades).
-- A copy of a datastore's vectors outside the database (exact scoring without pgvector) is valid
-- while the version it was loaded at is still the current one.
CREATE FUNCTION knowledge_chunks_raise_datastore_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE datastores SET knowledge_version = knowledge_version + 1
  WHERE id IN (SELECT DISTINCT datastore_id FROM changed_chunks);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER knowledge_chunks_inserted AFTER INSERT ON knowledge_chunks
  REFERENCING NEW TABLE AS changed_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION knowledge_chunks_raise_datastore_version();
--> statement-breakpoint
CREATE TRIGGER knowledge_chunks_updated AFTER UPDATE ON knowledge_chunks
  REFERENCING NEW TABLE AS changed_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION knowledge_chunks_raise_datastore_version();
--> statement-breakpoint
CREATE TRIGGER knowledge_chunks_deleted AFTER DELETE ON knowledge_chunks
  REFERENCING OLD TABLE AS changed_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION knowledge_chunks_raise_datastore_version();
