import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Db } from "../../db/client.ts";
import type { Embedder } from "../../ingestion/embedders/embedder-types.ts";
import type { LoadedSection } from "../../ingestion/loaders/index.ts";
import type { DocumentParser } from "../../ingestion/parser/document-parser.ts";
import { embedChunks, type PreparedChunk, planChunkSync } from "../../ingestion/pipeline.ts";
import { newId } from "../../lib/ids.ts";
import { encodeEmbedding } from "../../retrieval/vector-encoding.ts";
import type { BillingService } from "../billing/billing-service.ts";
import type { ChunkInsert, ChunkRepo } from "./chunk-repo.ts";
import type { DatasourceRepo, DatasourceRow } from "./datasource-repo.ts";
import type { DatasourceSyncRepo, SyncRun } from "./datasource-sync-repo.ts";
import type { DatastoreRow } from "./datastore-repo.ts";
import type { EmbeddingCharger } from "./embedding-charges.ts";

/** The row whose sync run must still be current when the chunks are written. */
export type SyncGuard = { datasourceId: string; run: SyncRun };

export type WriteOutcome = "synched" | "usage_limit_reached" | "superseded";

export type ChunkWriterDeps = {
  db: Db;
  datasources: Pick<DatasourceRepo, "storedTokensExcept">;
  syncRuns: Pick<DatasourceSyncRepo, "fail" | "lockRun" | "lockOrganizationUsage" | "markSynched">;
  /** The organization's plan, which `storedTokenLimits` is keyed by. */
  plans: Pick<BillingService, "planOf">;
  chunks: ChunkRepo;
  /** Stored-token limit per organization plan; a plan not listed has none. */
  storedTokenLimits: Record<string, number>;
  chargeEmbedding: EmbeddingCharger;
  /** New chunks inserted per transaction (see the writer). */
  insertBatchRows: number;
  /** Splits in a parser thread: millions of characters take seconds the API must not wait for. */
  parser: Pick<DocumentParser, "split">;
};

/** Thrown inside the write transaction when the job's time ran out, so nothing is committed. */
export class SyncAbortedError extends Error {
  override readonly name = "SyncAbortedError";
}

/**
 * The index stage: splits sections, keeps stored chunks whose content hash is unchanged, embeds
 * only new ones, inserts them a batch at a time, then in one last transaction checks the
 * organization's stored-token limit, removes the chunks that are gone and marks the datasource
 * synched (nothing at all is written when the content is unchanged).
 *
 * Each batch is a transaction of its own that first checks the run still holds the datasource,
 * and the event loop gets a turn between batches: on PGlite every statement shares one
 * connection, and the HNSW index costs 5-10 ms per row there, so one transaction of thousands of
 * rows held every API read behind it for tens of seconds. The price: while a sync runs, searches
 * may already find some of its new chunks (and still the ones it will remove). A run that fails
 * deletes the chunks it added; one whose process died leaves them to the next run, which keeps
 * those whose content hash it needs.
 */
export function createChunkWriter(deps: ChunkWriterDeps) {
  const { datasources, syncRuns, chunks } = deps;

  async function limitProblem(
    organizationId: string,
    datasourceId: string,
    tokens: number,
    tx?: Db,
  ) {
    const plan = await deps.plans.planOf(organizationId, tx);
    const limit = plan === null ? undefined : deps.storedTokenLimits[plan];
    if (limit === undefined) return null;
    const others = await datasources.storedTokensExcept(organizationId, datasourceId, tx);
    if (others + tokens <= limit) return null;
    return `Storing ${tokens} more tokens would exceed the ${limit}-token knowledge limit of the ${plan} plan (${others} already stored)`;
  }

  return async function writeChunks(input: {
    row: DatasourceRow;
    store: DatastoreRow;
    embedder: Embedder;
    sections: LoadedSection[];
    sourceUrl: string | null;
    sizeBytes: number;
    name?: string;
    guard: SyncGuard;
    signal: AbortSignal;
  }): Promise<WriteOutcome> {
    const { row, store, embedder, signal } = input;
    const organizationId = row.organizationId;
    const prepared = await deps.parser.split(input.sections, {
      sourceUrl: input.sourceUrl,
      signal,
    });
    const stored = await chunks.listRefs(organizationId, row.id);
    const reembed =
      (row.embedderId !== null && row.embedderId !== store.embedderId) ||
      stored.some((chunk) => chunk.dimensions !== store.dimensions);
    const plan = planChunkSync(reembed ? [] : stored, prepared);
    const fail = (message: string, tx?: Db) =>
      syncRuns.fail(
        organizationId,
        row.id,
        { generation: row.syncGeneration, attempt: row.syncAttempt },
        "usage_limit_reached",
        message,
        tx,
      );

    // Checked before embedding so a refused sync costs nothing; checked again under a lock below.
    const early = await limitProblem(organizationId, row.id, plan.tokenCount);
    if (early) {
      await fail(early);
      return "usage_limit_reached";
    }
    const { vectors, tokens } = await embedChunks(embedder, plan.add, signal);
    await deps.chargeEmbedding(organizationId, embedder.id, tokens);

    const rows = plan.add.map((chunk, index) => toChunkRow(chunk, vectors[index]!, row, store));
    const holdsRun = (tx: Db) =>
      syncRuns.lockRun(organizationId, input.guard.datasourceId, input.guard.run, tx);
    const added: string[] = [];
    try {
      for (let start = 0; start < rows.length; start += deps.insertBatchRows) {
        if (signal.aborted) throw new SyncAbortedError("The ingestion job ran out of time");
        const batch = rows.slice(start, start + deps.insertBatchRows);
        const inserted = await deps.db.transaction(async (tx) => {
          if (!(await holdsRun(tx))) return false;
          await chunks.insertMany(batch, tx);
          return true;
        });
        // A newer run took over: the chunks added so far are its to keep or remove.
        if (!inserted) return "superseded";
        added.push(...batch.map((chunk) => chunk.id));
        await yieldToEventLoop();
      }
      return await deps.db.transaction(async (tx): Promise<WriteOutcome> => {
        if (!(await holdsRun(tx))) return "superseded";
        if (signal.aborted) throw new SyncAbortedError("The ingestion job ran out of time");
        await syncRuns.lockOrganizationUsage(organizationId, tx);
        const problem = await limitProblem(organizationId, row.id, plan.tokenCount, tx);
        if (problem) {
          await chunks.deleteByIds(organizationId, added, tx);
          await fail(problem, tx);
          return "usage_limit_reached";
        }
        await chunks.deleteByIds(
          organizationId,
          reembed ? stored.map((chunk) => chunk.id) : plan.removeIds,
          tx,
        );
        await chunks.updatePlacement(
          organizationId,
          plan.moves.map((move) => ({ ...move, customId: row.customId })),
          tx,
        );
        await syncRuns.markSynched(
          organizationId,
          row.id,
          {
            chunkCount: plan.chunkCount,
            tokenCount: plan.tokenCount,
            sizeBytes: input.sizeBytes,
            embedderId: store.embedderId,
            ...(input.name ? { name: input.name } : {}),
          },
          tx,
        );
        return "synched";
      });
    } catch (error) {
      if (added.length > 0) {
        // Should this fail too, the next run of the datasource removes them.
        await deps.db
          .transaction(async (tx) => {
            if (await holdsRun(tx)) await chunks.deleteByIds(organizationId, added, tx);
          })
          .catch(() => {});
      }
      throw error;
    }
  };
}

export type ChunkWriter = ReturnType<typeof createChunkWriter>;

function toChunkRow(
  chunk: PreparedChunk,
  vector: number[],
  row: DatasourceRow,
  store: DatastoreRow,
): ChunkInsert {
  return {
    id: newId(),
    organizationId: row.organizationId,
    datastoreId: store.id,
    datasourceId: row.id,
    customId: row.customId,
    position: chunk.position,
    text: chunk.text,
    page: chunk.page,
    section: chunk.section,
    sourceUrl: chunk.sourceUrl,
    metadata: chunk.metadata,
    startOffset: chunk.startOffset,
    endOffset: chunk.endOffset,
    tokenCount: chunk.tokenCount,
    contentHash: chunk.contentHash,
    dimensions: store.dimensions,
    embedding: encodeEmbedding(vector),
  };
}
