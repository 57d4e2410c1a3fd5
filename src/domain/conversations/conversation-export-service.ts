import { Readable } from "node:stream";
import { csvHeaderLine } from "../../lib/csv.ts";
import { invalid } from "../../lib/errors.ts";
import type { AgentService } from "../agents/agent-service.ts";
import type { Caller } from "../caller.ts";
import type {
  ConversationExportRepo,
  ExportCursor,
  ExportFilter,
} from "./conversation-export-repo.ts";

const EXPORT_COLUMNS = [
  "conversation_id",
  "message_from",
  "message_text",
  "message_created_at",
] as const;

/** The spec's bounds: limit 1..100000 (default 5000); preview caps at 100 messages. */
export const EXPORT_MAX_LIMIT = 100_000;
const EXPORT_PREVIEW_LIMIT = 100;
/**
 * Rows per database page, and per piece of the response. Pages of 1,000 rows (~140 kB pieces)
 * went to V8's large-object space, freed only by a full collection; at 500 they die young.
 */
const PAGE_SIZE = 500;

export type ExportQuery = Omit<ExportFilter, "organizationId" | "agentId"> & {
  limit: number;
  preview: boolean;
};

export type CsvExport = { fileName: string; body: Readable };

/** conversations-export: the agent's messages as CSV, read page by page while the client reads. */
export function createConversationExportService(deps: {
  agents: Pick<AgentService, "requireAgent">;
  exports: ConversationExportRepo;
  pageSize?: number;
}) {
  const pageSize = deps.pageSize ?? PAGE_SIZE;

  return {
    async exportCsv(caller: Caller, agentId: string, query: ExportQuery): Promise<CsvExport> {
      const agent = await deps.agents.requireAgent(caller.organizationId, agentId);
      const { from, to } = query;
      if (from && to && (query.toExclusive ? from >= to : from > to)) {
        throw invalid("from must not be after to", [
          { path: "querystring.from", message: "is after to" },
        ]);
      }
      const filter: ExportFilter = {
        ...query,
        organizationId: caller.organizationId,
        agentId: agent.id,
      };
      const limit = Math.min(query.limit, query.preview ? EXPORT_PREVIEW_LIMIT : EXPORT_MAX_LIMIT);
      // The first page is read before answering, so a failing query is a 500, not a cut file.
      let requested = Math.min(pageSize, limit);
      const first = await deps.exports.page(filter, null, requested);

      async function* lines(): AsyncGenerator<string> {
        yield csvHeaderLine(EXPORT_COLUMNS);
        let page = first;
        let remaining = limit;
        while (page.length > 0) {
          yield page.map((row) => row.record).join("");
          remaining -= page.length;
          if (remaining <= 0 || page.length < requested) return;
          const last = page.at(-1)!;
          const cursor: ExportCursor = { createdAt: last.cursorAt, id: last.id };
          requested = Math.min(pageSize, remaining);
          page = await deps.exports.page(filter, cursor, requested);
        }
      }

      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d+Z$/, "Z");
      return {
        fileName: `conversations-${agent.id}-${stamp}.csv`,
        body: Readable.from(lines(), { objectMode: false }),
      };
    },
  };
}

export type ConversationExportService = ReturnType<typeof createConversationExportService>;
