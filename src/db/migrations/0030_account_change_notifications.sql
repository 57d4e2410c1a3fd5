-- Processes keep signed-in sessions in memory for a short while, with the user's memberships.
-- Whatever ends a session (logout, a password change, expiry cleanup, a deleted user) or changes
-- what its user may do (a membership added, changed or removed; instance administration
-- granted) tells every listening process on channel sessions_changed, with the user's id, so
-- none of them goes on trusting what it kept.
CREATE FUNCTION sessions_notify_user_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('sessions_changed', OLD.id);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('sessions_changed', NEW.user_id);
  ELSE
    PERFORM pg_notify('sessions_changed', OLD.user_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION sessions_notify_user_changed();
--> statement-breakpoint
CREATE TRIGGER memberships_changed AFTER INSERT OR UPDATE OR DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION sessions_notify_user_changed();
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION sessions_notify_user_changed();
