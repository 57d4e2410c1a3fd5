import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("agents_organization_idx").on(table.organizationId, table.createdAt),
    check("agents_visibility_check", sql`${table.visibility} in ('public', 'private')`),
    check("agents_prompt_type_check", sql`${table.promptType} in ('raw', 'customer_support')`),
  ],
);
