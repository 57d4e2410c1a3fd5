-- A datasource's name is shown with each passage of its chunks (`datasourceName`, and `source`
-- where the chunk has no URL). Copies of a datastore's chunks kept outside the database hold it
-- too, and stay valid while the datastore's knowledge_version is unchanged (0010): renaming a
-- datasource raises that version as a change to its chunks would. Other updates of a datasource
-- (its status, its counts) do not fire the trigger.
CREATE FUNCTION datasources_raise_datastore_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE datastores SET knowledge_version = knowledge_version + 1 WHERE id = NEW.datastore_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER datasources_renamed AFTER UPDATE OF name ON datasources
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION datasources_raise_datastore_version();
