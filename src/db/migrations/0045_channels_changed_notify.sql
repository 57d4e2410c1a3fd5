-- API processes keep the channel rows their inbound webhooks read in memory. Every change to a
-- channel (an update through the API, a manual UPDATE, a deletion or a cascade from its agent or
-- organization) tells every listening process on channel channels_changed, with the channel's id.
-- The inbound path's own note of the platform's last event updates the row at most once a second
-- per channel (channel-lane-repo.ts), so a busy channel is read again about once a second.
CREATE FUNCTION channels_notify_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('channels_changed', OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER channels_changed AFTER UPDATE OR DELETE ON channels
  FOR EACH ROW EXECUTE FUNCTION channels_notify_changed();
