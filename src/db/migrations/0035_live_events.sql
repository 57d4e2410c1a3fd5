CREATE TABLE "live_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "live_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"name" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_events" ADD CONSTRAINT "live_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_events_organization_idx" ON "live_events" USING btree ("organization_id","id");--> statement-breakpoint
-- A live event gets its final id when its transaction commits, under a lock held until the
-- commit is done: ids then become visible in increasing order, so every API process reads new
-- events with "id > the last one read" without skipping one whose transaction committed after a
-- later id's (an id taken at insert would allow that). The lock lasts only the commit, however
-- long the publishing transaction. Every listening process is told on channel live_events, with
-- the id; a rolled-back event is neither numbered nor announced.
CREATE FUNCTION live_events_commit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  committed_id bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('agentdesk.live_events'));
  UPDATE live_events SET id = DEFAULT WHERE id = NEW.id RETURNING id INTO committed_id;
  PERFORM pg_notify('live_events', committed_id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER live_events_commit AFTER INSERT ON live_events
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION live_events_commit();
