CREATE TABLE "mail_mailboxes" (
	"channel_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"source" text NOT NULL,
	"uid_validity" bigint,
	"last_uid" bigint DEFAULT 0 NOT NULL,
	"lease_holder" text,
	"lease_until" timestamp with time zone,
	"retry_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channels" DROP CONSTRAINT "channels_type_check";--> statement-breakpoint
ALTER TABLE "mail_mailboxes" ADD CONSTRAINT "mail_mailboxes_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_mailboxes" ADD CONSTRAINT "mail_mailboxes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_type_check" CHECK ("channels"."type" in ('telegram', 'whatsapp', 'slack', 'meta', 'chatwoot', 'mail'));