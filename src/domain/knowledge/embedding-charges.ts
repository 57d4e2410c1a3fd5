import { LOCAL_EMBEDDER_ID } from "../../ingestion/embedders/local-embedder.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Billing } from "../billing/billing-port.ts";

/** Records the tokens a paid embedding model read, as an "embeddings" consumption event. */
export type EmbeddingCharger = (
  organizationId: string,
  embedderId: string,
  tokens: number,
) => Promise<void>;

/** The local embedder is free; without billing nothing is recorded. */
export function createEmbeddingCharger(deps: {
  billing: Pick<Billing, "charge"> | undefined;
  logger: Logger;
}): EmbeddingCharger {
  return async (organizationId, embedderId, tokens) => {
    if (!deps.billing || embedderId === LOCAL_EMBEDDER_ID || tokens <= 0) return;
    const separator = embedderId.indexOf(":");
    try {
      await deps.billing.charge({
        organizationId,
        feature: "embeddings",
        provider: embedderId.slice(0, separator),
        modelName: embedderId.slice(separator + 1),
        inputTokens: tokens,
        outputTokens: 0,
      });
    } catch (error) {
      // The provider has already been paid; failing the sync or the query would waste that.
      deps.logger.warn({ err: error, organizationId }, "recording embedding usage failed");
    }
  };
}
