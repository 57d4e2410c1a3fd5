-- The notification of a committed live event names its organization after its id
-- ("<id> <organization id>"), so that a process with no stream of that organization need not read
-- the event (domain/events/event-hub.ts). Otherwise as in 0035_live_events.
CREATE OR REPLACE FUNCTION live_events_commit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  committed_id bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('agentdesk.live_events'));
  UPDATE live_events SET id = DEFAULT WHERE id = NEW.id RETURNING id INTO committed_id;
  PERFORM pg_notify('live_events', committed_id::text || ' ' || NEW.organization_id);
  RETURN NULL;
END $$;
