CREATE TABLE "datasource_uploads" (
	"datasource_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "datasources" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"datastore_id" text NOT NULL,
	"group_id" text,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'unsynched' NOT NULL,
	"error_message" text,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"custom_id" text,
	"source_url" text,
	"last_synch" timestamp with time zone,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"token_count" bigint DEFAULT 0 NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"embedder_id" text,
	"sync_generation" integer DEFAULT 0 NOT NULL,
	"sync_deadline_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "datasources_type_check" CHECK ("datasources"."type" in ('file', 'web_page', 'web_site', 'text')),
	CONSTRAINT "datasources_status_check" CHECK ("datasources"."status" in ('unsynched', 'pending', 'running', 'synched', 'error', 'usage_limit_reached'))
);
--> statement-breakpoint
CREATE TABLE "datastores" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text DEFAULT 'pgvector' NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"embedder_id" text NOT NULL,
	"dimensions" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "datastores_type_check" CHECK ("datastores"."type" in ('pgvector')),
	CONSTRAINT "datastores_visibility_check" CHECK ("datastores"."visibility" in ('private', 'public'))
);
--> statement-breakpoint
CREATE TABLE "knowledge_chunks" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"datastore_id" text NOT NULL,
	"datasource_id" text NOT NULL,
	"custom_id" text,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"page" integer,
	"section" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source_url" text,
	"start_offset" integer NOT NULL,
	"end_offset" integer NOT NULL,
	"token_count" integer NOT NULL,
	"content_hash" text NOT NULL,
	"dimensions" smallint NOT NULL,
	"embedding" real[] NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "text")) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "datasource_uploads" ADD CONSTRAINT "datasource_uploads_datasource_id_datasources_id_fk" FOREIGN KEY ("datasource_id") REFERENCES "public"."datasources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasource_uploads" ADD CONSTRAINT "datasource_uploads_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasources" ADD CONSTRAINT "datasources_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasources" ADD CONSTRAINT "datasources_datastore_id_datastores_id_fk" FOREIGN KEY ("datastore_id") REFERENCES "public"."datastores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasources" ADD CONSTRAINT "datasources_group_id_datasources_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."datasources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datastores" ADD CONSTRAINT "datastores_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_datastore_id_datastores_id_fk" FOREIGN KEY ("datastore_id") REFERENCES "public"."datastores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_datasource_id_datasources_id_fk" FOREIGN KEY ("datasource_id") REFERENCES "public"."datasources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "datasources_datastore_idx" ON "datasources" USING btree ("datastore_id","created_at");--> statement-breakpoint
CREATE INDEX "datasources_organization_idx" ON "datasources" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "datasources_group_idx" ON "datasources" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "datasources_group_url_idx" ON "datasources" USING btree ("group_id","source_url") WHERE "datasources"."group_id" is not null;--> statement-breakpoint
CREATE INDEX "datastores_organization_idx" ON "datastores" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_datasource_idx" ON "knowledge_chunks" USING btree ("datasource_id","content_hash");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_datastore_idx" ON "knowledge_chunks" USING btree ("datastore_id","custom_id");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_search_idx" ON "knowledge_chunks" USING gin ("search");