CREATE TABLE "agent_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"version" integer NOT NULL,
	"fields" jsonb NOT NULL,
	"author_user_id" text,
	"author_api_key_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_versions_one_author_check" CHECK ("agent_versions"."author_user_id" is null or "agent_versions"."author_api_key_id" is null)
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "agent_version" integer;--> statement-breakpoint
ALTER TABLE "agent_versions" ADD CONSTRAINT "agent_versions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_versions" ADD CONSTRAINT "agent_versions_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_versions_agent_version_idx" ON "agent_versions" USING btree ("agent_id","version");--> statement-breakpoint
CREATE INDEX "agent_versions_organization_idx" ON "agent_versions" USING btree ("organization_id");--> statement-breakpoint
-- Every agent gets its version 1: the answer-affecting fields it has now, with no author, dated
-- by its last change (the latest moment these fields can have been set). The keys are the agent
-- API's names (AgentVersionFields in src/db/schema/agents.ts).
INSERT INTO "agent_versions" ("id", "organization_id", "agent_id", "version", "fields", "created_at")
SELECT "id" || ':v1', "organization_id", "id", 1, jsonb_build_object(
    'modelName', "model_name",
    'temperature', "temperature",
    'systemPrompt', "system_prompt",
    'userPrompt', "user_prompt",
    'promptType', "prompt_type",
    'promptTemplate', "prompt_template",
    'tools', "tools",
    'useSuperRetrieval', "use_super_retrieval",
    'retrievalEvaluationConfig', coalesce("retrieval_evaluation_config", '{}'::jsonb)
  ), "updated_at"
FROM "agents";
