ALTER TABLE "datasources" ADD COLUMN "sync_schedule" text;--> statement-breakpoint
ALTER TABLE "datasources" ADD COLUMN "next_sync_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "conversation_retention_days" integer;--> statement-breakpoint
CREATE INDEX "conversations_activity_idx" ON "conversations" USING btree ("organization_id","updated_at");--> statement-breakpoint
CREATE INDEX "datasources_next_sync_idx" ON "datasources" USING btree ("next_sync_at") WHERE "datasources"."next_sync_at" is not null;--> statement-breakpoint
ALTER TABLE "datasources" ADD CONSTRAINT "datasources_sync_schedule_check" CHECK ("datasources"."sync_schedule" is null or "datasources"."sync_schedule" in ('hourly', 'daily', 'weekly'));--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_conversation_retention_days_check" CHECK ("organizations"."conversation_retention_days" is null or "organizations"."conversation_retention_days" >= 1);