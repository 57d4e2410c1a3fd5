-- API processes keep the agents they read for queries in memory for a short while. Every change
-- to an agent (an update through the API, a manual UPDATE, a deletion or a cascade from its
-- organization) tells every listening process on channel agents_changed, with the agent's id.
CREATE FUNCTION agents_notify_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('agents_changed', OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER agents_changed AFTER UPDATE OR DELETE ON agents
  FOR EACH ROW EXECUTE FUNCTION agents_notify_changed();
