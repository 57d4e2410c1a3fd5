import { NOTHING_ALONG, type StatementPart } from "../../db/statement-parts.ts";
import { EmbedderError } from "../../ingestion/embedders/embedder-types.ts";
import { AppError } from "../../lib/errors.ts";
import { ModelError } from "../../models/model-errors.ts";
import type { HybridSearch, RetrievalMode } from "../../retrieval/hybrid-search.ts";
import type { Passage } from "../../retrieval/passage.ts";
import type { SearchFilters } from "../../retrieval/search-filters.ts";
import type { DatastoreRepo, DatastoreRow } from "./datastore-repo.ts";
import type { EmbedderResolver } from "./embedder-resolver.ts";
import type { EmbeddingCharger } from "./embedding-charges.ts";

/** What a search finds: other modules take the type from here, not from the retrieval layer. */
export type { Passage };

export type KnowledgeSearchRequest = {
  organizationId: string;
  /** Datastores of the organization, or public ones; others are silently left out. */
  datastoreIds: string[];
  query: string;
  topK: number;
  filters?: SearchFilters;
  mode?: RetrievalMode;
};

/** Datastores read for a question, ready to be searched. */
export type OpenedKnowledge<Along> = {
  along: Along;
  search(options: Pick<KnowledgeSearchRequest, "topK" | "filters" | "mode">): Promise<Passage[]>;
};

export type KnowledgeSearchDeps = {
  datastores: Pick<DatastoreRepo, "listReadableForQuestion">;
  embedders: Pick<EmbedderResolver, "embedderFor">;
  searchChunks: HybridSearch;
  /** Embedding a query with a paid model is charged to the datastore's organization. */
  chargeEmbedding: EmbeddingCharger;
};

/** Retrieval over one or more datastores: embeds the query per vector space, fuses in SQL. */
export function createKnowledgeSearch(deps: KnowledgeSearchDeps) {
  async function searchDatastores(
    stores: DatastoreRow[],
    request: Omit<KnowledgeSearchRequest, "organizationId" | "datastoreIds">,
    /** The question's lexemes, when they were read with the datastores. */
    queryLexemes?: string[],
  ): Promise<Passage[]> {
    const groups = new Map<string, DatastoreRow[]>();
    for (const store of stores) {
      const key = `${store.embedderId}#${store.dimensions}`;
      groups.set(key, [...(groups.get(key) ?? []), store]);
    }
    const passages: Passage[] = [];
    for (const group of groups.values()) {
      const { embedderId, dimensions, organizationId } = group[0]!;
      const queryVector =
        request.mode === "text"
          ? []
          : await embedQuery({ embedderId, dimensions }, organizationId, request.query);
      passages.push(
        ...(await deps.searchChunks({
          datastores: group,
          dimensions,
          queryVector,
          queryText: request.query,
          ...(queryLexemes ? { queryLexemes } : {}),
          topK: request.topK,
          ...(request.filters ? { filters: request.filters } : {}),
          ...(request.mode ? { mode: request.mode } : {}),
        })),
      );
    }
    if (groups.size > 1) passages.sort((left, right) => right.score - left.score);
    return passages.slice(0, request.topK);
  }

  async function embedQuery(
    choice: { embedderId: string; dimensions: number },
    organizationId: string,
    query: string,
  ) {
    try {
      const { vectors, usage } = await deps.embedders.embedderFor(choice).embed([query]);
      await deps.chargeEmbedding(organizationId, choice.embedderId, usage.tokens);
      return vectors[0]!;
    } catch (error) {
      if (error instanceof ModelError) {
        throw new AppError(
          "SERVICE_UNAVAILABLE",
          `The embedding model ${choice.embedderId} of this datastore is not available: ${error.message}`,
        );
      }
      if (error instanceof EmbedderError) throw new AppError("BAD_GATEWAY", error.message);
      throw error;
    }
  }

  async function open<Along>(
    request: Pick<KnowledgeSearchRequest, "organizationId" | "datastoreIds" | "query">,
    along: StatementPart<Along>,
  ): Promise<OpenedKnowledge<Along>> {
    const read = await deps.datastores.listReadableForQuestion(
      request.organizationId,
      [...new Set(request.datastoreIds)],
      request.query,
      along,
    );
    const { stores, questionLexemes } = read;
    return {
      along: read.along,
      async search(options) {
        if (stores.length === 0 || request.query.trim() === "") return [];
        return searchDatastores(
          stores,
          { ...options, query: request.query },
          questionLexemes ?? undefined,
        );
      },
    };
  }

  return {
    searchDatastores,
    /**
     * The knowledge search agents use, in two steps: the readable datastores and the question's
     * lexemes are read with `along` (another part of the caller's) in one statement, then
     * `search` ranks their passages, best first.
     */
    open,
    /** Both steps at once, with nothing alongside. */
    async search(request: KnowledgeSearchRequest): Promise<Passage[]> {
      return (await open(request, NOTHING_ALONG)).search(request);
    },
  };
}

export type KnowledgeSearch = ReturnType<typeof createKnowledgeSearch>;
