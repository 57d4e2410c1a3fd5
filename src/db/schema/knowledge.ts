import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

export const DATASTORE_TYPES = ["pgvector"] as const;
export const DATASOURCE_TYPES = ["file", "web_page", "web_site", "text"] as const;
export const DATASOURCE_STATUSES = [
  "unsynched",
  "pending",
  "running",
  "synched",
  "error",
  "usage_limit_reached",
] as const;

export type DatasourceType = (typeof DATASOURCE_TYPES)[number];
/** How often a web_page or web_site datasource is fetched again on its own. */
export const SYNC_SCHEDULES = ["hourly", "daily", "weekly"] as const;
export type SyncSchedule = (typeof SYNC_SCHEDULES)[number];
export type DatasourceStatus = (typeof DATASOURCE_STATUSES)[number];

/** A searchable collection of datasources; its embedder fixes the vector space of its chunks. */
export const datastores = pgTable(
  "datastores",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    type: text("type", { enum: DATASTORE_TYPES }).notNull().default("pgvector"),
    visibility: text("visibility", { enum: ["private", "public"] })
      .notNull()
      .default("private"),
    /** `provider:model` of the embedder, e.g. "local:hash-ngram-v1". */
    embedderId: text("embedder_id").notNull(),
    dimensions: integer("dimensions").notNull(),
    /**
     * Raised by a trigger (migration 0010) whenever a statement inserts, updates or deletes chunks
     * of the datastore, so copies of its vectors held outside the database know they are stale.
     */
    knowledgeVersion: bigint("knowledge_version", { mode: "number" }).notNull().default(0),
    ...timestamps,
  },
  (table) => [
    index("datastores_organization_idx").on(table.organizationId, table.createdAt),
    check("datastores_type_check", sql`${table.type} in ('pgvector')`),
    check("datastores_visibility_check", sql`${table.visibility} in ('private', 'public')`),
  ],
);

/** One source of text: an uploaded file, a web page, a web site (parent of its pages) or raw text. */
export const datasources = pgTable(
  "datasources",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    datastoreId: text("datastore_id")
      .notNull()
      .references(() => datastores.id, { onDelete: "cascade" }),
    /** The web_site a page belongs to; deleting the site deletes its pages. */
    groupId: text("group_id").references((): AnyPgColumn => datasources.id, {
      onDelete: "cascade",
    }),
    type: text("type", { enum: DATASOURCE_TYPES }).notNull(),
    name: text("name").notNull(),
    status: text("status", { enum: DATASOURCE_STATUSES }).notNull().default("unsynched"),
    errorMessage: text("error_message"),
    config: jsonb("config").$type<Record<string, unknown>>().notNull().default({}),
    customId: text("custom_id"),
    /** The page URL of a web_page (child or not), to match pages across re-syncs of a site. */
    sourceUrl: text("source_url"),
    lastSynch: timestamp("last_synch", { withTimezone: true }),
    chunkCount: integer("chunk_count").notNull().default(0),
    /** Tokens of the stored chunks; their sum per organization is checked against the plan. */
    tokenCount: bigint("token_count", { mode: "number" }).notNull().default(0),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull().default(0),
    /** The embedder of the stored chunks; when the datastore's differs, a sync re-embeds all. */
    embedderId: text("embedder_id"),
    /** Bumped by every sync request; a job only writes results for the generation it was sent. */
    syncGeneration: integer("sync_generation").notNull().default(0),
    /**
     * Runs of this generation that started: each run that claims the datasource raises it, and
     * only the run holding the current value may write, so a run that was taken over (its process
     * stalled or died and the job was retried) can never overwrite the run that replaced it.
     */
    syncAttempt: integer("sync_attempt").notNull().default(0),
    /** While running: when the job's time is up; past it the datasource is reported as failed. */
    syncDeadlineAt: timestamp("sync_deadline_at", { withTimezone: true }),
    /** Re-sync on a schedule (web_page and web_site only); null syncs only when asked. */
    syncSchedule: text("sync_schedule", { enum: SYNC_SCHEDULES }),
    /** When the scheduled re-sync is next due; null without a schedule. */
    nextSyncAt: timestamp("next_sync_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index("datasources_datastore_idx").on(table.datastoreId, table.createdAt),
    index("datasources_organization_idx").on(table.organizationId),
    index("datasources_group_idx").on(table.groupId),
    index("datasources_next_sync_idx")
      .on(table.nextSyncAt)
      .where(sql`${table.nextSyncAt} is not null`),
    uniqueIndex("datasources_group_url_idx")
      .on(table.groupId, table.sourceUrl)
      .where(sql`${table.groupId} is not null`),
    check("datasources_type_check", sql`${table.type} in ('file', 'web_page', 'web_site', 'text')`),
    check(
      "datasources_sync_schedule_check",
      sql`${table.syncSchedule} is null or ${table.syncSchedule} in ('hourly', 'daily', 'weekly')`,
    ),
    check(
      "datasources_status_check",
      sql`${table.status} in ('unsynched', 'pending', 'running', 'synched', 'error', 'usage_limit_reached')`,
    ),
  ],
);

/** The bytes of an uploaded file (or of deprecated raw text), read by the ingestion job. */
export const datasourceUploads = pgTable("datasource_uploads", {
  datasourceId: text("datasource_id")
    .primaryKey()
    .references(() => datasources.id, { onDelete: "cascade" }),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  fileName: text("file_name").notNull(),
  mimeType: text("mime_type").notNull(),
  sizeBytes: integer("size_bytes").notNull(),
  content: bytea("content").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One indexed passage. `embedding` is the unit vector scaled to integers (src/retrieval/
 * vector-encoding.ts) as real[]; where pgvector exists, custom migrations and the service add HNSW
 * indexes over it in half precision, one per dimension count (src/retrieval/vector-index.ts).
 */
export const knowledgeChunks = pgTable(
  "knowledge_chunks",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    datastoreId: text("datastore_id")
      .notNull()
      .references(() => datastores.id, { onDelete: "cascade" }),
    datasourceId: text("datasource_id")
      .notNull()
      .references(() => datasources.id, { onDelete: "cascade" }),
    customId: text("custom_id"),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    page: integer("page"),
    section: text("section"),
    /** Where in the source the passage is: slide, sheet, title (page has its own column). */
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    sourceUrl: text("source_url"),
    startOffset: integer("start_offset").notNull(),
    endOffset: integer("end_offset").notNull(),
    tokenCount: integer("token_count").notNull(),
    contentHash: text("content_hash").notNull(),
    dimensions: smallint("dimensions").notNull(),
    embedding: real("embedding").array().notNull(),
    search: tsvector("search").generatedAlwaysAs(sql`to_tsvector('english'::regconfig, "text")`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("knowledge_chunks_datasource_idx").on(table.datasourceId, table.contentHash),
    index("knowledge_chunks_datastore_idx").on(table.datastoreId, table.customId),
    // Without GIN's pending list (fastupdate = off, migration 0047): see there.
    index("knowledge_chunks_search_idx").using("gin", table.search),
  ],
);

/**
 * BM25's document frequencies: how many chunks of a datastore (of one vector size) contain each
 * lexeme of their `search` tsvectors. Kept by triggers on knowledge_chunks (migration 0023) in
 * the statement that inserts, updates or deletes the chunks; a lexeme no chunk contains any more
 * has no row.
 */
export const knowledgeLexemeStatistics = pgTable(
  "knowledge_lexeme_statistics",
  {
    datastoreId: text("datastore_id")
      .notNull()
      .references(() => datastores.id, { onDelete: "cascade" }),
    dimensions: smallint("dimensions").notNull(),
    lexeme: text("lexeme").notNull(),
    chunks: integer("chunks").notNull(),
  },
  (table) => [primaryKey({ columns: [table.datastoreId, table.dimensions, table.lexeme] })],
);

/**
 * BM25's collection figures per datastore and vector size: the chunks and the sum of their
 * lengths (positions in `search`, a lexeme without positions counting one), kept by the same
 * triggers as knowledgeLexemeStatistics.
 */
export const knowledgeTextTotals = pgTable(
  "knowledge_text_totals",
  {
    datastoreId: text("datastore_id")
      .notNull()
      .references(() => datastores.id, { onDelete: "cascade" }),
    dimensions: smallint("dimensions").notNull(),
    chunks: integer("chunks").notNull(),
    positions: bigint("positions", { mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.datastoreId, table.dimensions] })],
);
