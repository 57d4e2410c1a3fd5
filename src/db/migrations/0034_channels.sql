CREATE TABLE "channel_events" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"platform_message_id" text NOT NULL,
	"payload" jsonb,
	"state" text DEFAULT 'received' NOT NULL,
	"message_id" text,
	"error" text,
	"sent_at" timestamp with time zone NOT NULL,
	"platform_order" bigint,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_events_state_check" CHECK ("channel_events"."state" in ('received', 'recorded', 'answered', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "channel_sends" (
	"message_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"platform_message_id" text,
	"error" text,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_sends_status_check" CHECK ("channel_sends"."status" in ('queued', 'sent', 'delivered', 'read', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "channel_threads" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"thread_key" text NOT NULL,
	"conversation_id" text,
	"reply_to" jsonb NOT NULL,
	"sender" jsonb NOT NULL,
	"last_inbound_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"turn_due_at" timestamp (3) with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"credentials" text NOT NULL,
	"last_error" text,
	"last_event_at" timestamp with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channels_type_check" CHECK ("channels"."type" in ('telegram', 'whatsapp', 'slack')),
	CONSTRAINT "channels_status_check" CHECK ("channels"."status" in ('active', 'error'))
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "unavailable_message" text;--> statement-breakpoint
ALTER TABLE "channel_events" ADD CONSTRAINT "channel_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_events" ADD CONSTRAINT "channel_events_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_events" ADD CONSTRAINT "channel_events_thread_id_channel_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."channel_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sends" ADD CONSTRAINT "channel_sends_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sends" ADD CONSTRAINT "channel_sends_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sends" ADD CONSTRAINT "channel_sends_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sends" ADD CONSTRAINT "channel_sends_thread_id_channel_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."channel_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_threads" ADD CONSTRAINT "channel_threads_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_threads" ADD CONSTRAINT "channel_threads_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_threads" ADD CONSTRAINT "channel_threads_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_events_platform_id_idx" ON "channel_events" USING btree ("channel_id","platform_message_id");--> statement-breakpoint
CREATE INDEX "channel_events_thread_idx" ON "channel_events" USING btree ("thread_id","state","received_at");--> statement-breakpoint
CREATE INDEX "channel_sends_thread_idx" ON "channel_sends" USING btree ("thread_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_sends_platform_id_idx" ON "channel_sends" USING btree ("channel_id","platform_message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_threads_key_idx" ON "channel_threads" USING btree ("channel_id","thread_key");--> statement-breakpoint
CREATE INDEX "channel_threads_conversation_idx" ON "channel_threads" USING btree ("conversation_id");--> statement-breakpoint
CREATE INDEX "channels_agent_idx" ON "channels" USING btree ("organization_id","agent_id","created_at");