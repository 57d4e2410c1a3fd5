CREATE TABLE "consumption_daily_totals" (
	"organization_id" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"agent_key" text NOT NULL,
	"feature" text NOT NULL,
	"provider" text NOT NULL,
	"model_name" text NOT NULL,
	"event_count" bigint NOT NULL,
	"input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"credits_charged_micro" bigint NOT NULL,
	CONSTRAINT "consumption_daily_totals_pk" PRIMARY KEY("organization_id","day","agent_key","feature","provider","model_name")
);
--> statement-breakpoint
CREATE TABLE "consumption_events" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"agent_id" text,
	"feature" text NOT NULL,
	"provider" text NOT NULL,
	"model_name" text NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"units" double precision,
	"credits_charged_micro" bigint NOT NULL,
	"credits_charged_raw_micro" bigint NOT NULL,
	"credits_requested_micro" bigint NOT NULL,
	"billing_coefficient" double precision DEFAULT 1 NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"conversation_id" text,
	"message_id" text,
	"idempotency_key" text,
	"request_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consumption_events_amounts_check" CHECK ("consumption_events"."credits_charged_micro" >= 0 and "consumption_events"."credits_charged_raw_micro" >= 0 and "consumption_events"."credits_requested_micro" >= "consumption_events"."credits_charged_micro" and "consumption_events"."input_tokens" >= 0 and "consumption_events"."output_tokens" >= 0)
);
--> statement-breakpoint
ALTER TABLE "consumption_daily_totals" ADD CONSTRAINT "consumption_daily_totals_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consumption_events" ADD CONSTRAINT "consumption_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consumption_events_time_idx" ON "consumption_events" USING btree ("organization_id","occurred_at");--> statement-breakpoint
CREATE INDEX "consumption_events_agent_idx" ON "consumption_events" USING btree ("organization_id","agent_id","occurred_at");--> statement-breakpoint
CREATE INDEX "consumption_events_feature_idx" ON "consumption_events" USING btree ("organization_id","feature","occurred_at");--> statement-breakpoint
CREATE INDEX "consumption_events_conversation_idx" ON "consumption_events" USING btree ("organization_id","conversation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "consumption_events_idempotency_idx" ON "consumption_events" USING btree ("organization_id","idempotency_key");