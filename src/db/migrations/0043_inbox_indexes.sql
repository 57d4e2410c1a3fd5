DROP INDEX "conversations_activity_idx";--> statement-breakpoint
CREATE INDEX "conversations_created_idx" ON "conversations" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "conversations_status_activity_idx" ON "conversations" USING btree ("organization_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "conversations_activity_idx" ON "conversations" USING btree ("organization_id","updated_at","id");