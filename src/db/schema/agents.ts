import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/** One tool of an agent, as the spec's Agent.tools entries. */
export type AgentTool = {
  id: string;
  type: string;
  config?: Record<string, unknown>;
  datastoreId?: string;
  formId?: string;
  serviceProviderId?: string;
};

export const agents = pgTable(
  "agents",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    modelName: text("model_name").notNull(),
    temperature: doublePrecision("temperature").notNull().default(0),
    visibility: text("visibility", { enum: ["public", "private"] })
      .notNull()
      .default("private"),
    systemPrompt: text("system_prompt").notNull().default(""),
    userPrompt: text("user_prompt").notNull().default(""),
    handle: text("handle"),
    iconUrl: text("icon_url"),
    useSuperRetrieval: boolean("use_super_retrieval").notNull().default(false),
    useFollowUp: boolean("use_follow_up").notNull().default(false),
    useConversationalMode: boolean("use_conversational_mode").notNull().default(false),
    promptType: text("prompt_type", { enum: ["raw", "customer_support"] })
      .notNull()
      .default("customer_support"),
    promptTemplate: text("prompt_template").notNull().default(""),
    retrievalEvaluationConfig: jsonb("retrieval_evaluation_config").$type<
      Record<string, unknown>
    >(),
    followUpConfig: jsonb("follow_up_config").$type<Record<string, unknown>>(),
    tools: jsonb("tools").$type<AgentTool[]>().notNull().default([]),
    /** Origins a browser may call the public chat from; empty means any origin. */
    allowedOrigins: jsonb("allowed_origins").$type<string[]>().notNull().default([]),
    /** Sent on messaging channels when no answer can be given (no credits, the model failed). */
    unavailableMessage: text("unavailable_message"),
    /** The number of the agent's current version (agent_versions): its answer-affecting fields. */
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("agents_organization_idx").on(table.organizationId, table.createdAt),
    check("agents_visibility_check", sql`${table.visibility} in ('public', 'private')`),
    check("agents_prompt_type_check", sql`${table.promptType} in ('raw', 'customer_support')`),
  ],
);

/**
 * The fields of an agent that decide its answers, as the agent API names them: what a version
 * records (docs/agents.md, "Versions").
 */
export type AgentVersionFields = {
  modelName: string;
  temperature: number;
  systemPrompt: string;
  userPrompt: string;
  promptType: "raw" | "customer_support";
  promptTemplate: string;
  tools: AgentTool[];
  useSuperRetrieval: boolean;
  retrievalEvaluationConfig: Record<string, unknown>;
};

/**
 * Every version an agent had, never changed once written: version 1 at creation, one more for
 * each change of an answer-affecting field. The author is a user (a session) or an API key;
 * neither is a foreign key, so the history outlives them.
 */
export const agentVersions = pgTable(
  "agent_versions",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    fields: jsonb("fields").$type<AgentVersionFields>().notNull(),
    authorUserId: text("author_user_id"),
    authorApiKeyId: text("author_api_key_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("agent_versions_agent_version_idx").on(table.agentId, table.version),
    // Deleting an organization cascades here directly too: its check needs this index.
    index("agent_versions_organization_idx").on(table.organizationId),
    check(
      "agent_versions_one_author_check",
      sql`${table.authorUserId} is null or ${table.authorApiKeyId} is null`,
    ),
  ],
);
