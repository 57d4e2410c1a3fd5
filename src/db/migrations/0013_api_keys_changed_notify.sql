-- Processes keep verified API keys in memory for a short while. Whatever changes or removes a
-- key (a revocation through the API or the CLI, a manual UPDATE, a cascade from a deleted
-- organization or user) tells every listening process on channel api_keys_changed, with the
-- key's id, so none of them goes on accepting it. Recording use (last_used_at) is not a change.
CREATE FUNCTION api_keys_notify_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_keys_changed', OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER api_keys_changed AFTER UPDATE ON api_keys
  FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
     OR OLD.key_hash IS DISTINCT FROM NEW.key_hash
     OR OLD.organization_id IS DISTINCT FROM NEW.organization_id
     OR OLD.user_id IS DISTINCT FROM NEW.user_id
     OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION api_keys_notify_changed();
--> statement-breakpoint
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION api_keys_notify_changed();
