-- Two columns hold a large value only for a short while: an inbound channel event's payload until
-- its turn records the message (then NULL, channel-lane-repo.ts), and a live event's data until
-- the backlog is pruned (minutes). PostgreSQL compressed both on every insert (pglz: about 0.4 ms
-- of the embedded database's single thread for a 20 KB mail, on the acknowledgement's path);
-- they are now stored out of line as they are. Existing rows are left as they were.
ALTER TABLE "channel_events" ALTER COLUMN "payload" SET STORAGE EXTERNAL;
--> statement-breakpoint
ALTER TABLE "live_events" ALTER COLUMN "data" SET STORAGE EXTERNAL;
