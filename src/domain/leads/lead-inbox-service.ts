import { Readable } from "node:stream";
import { csvHeaderLine } from "../../lib/csv.ts";
import { notFound } from "../../lib/errors.ts";
import { decodePageCursor, type PageCursor, pageOf } from "../../lib/page-cursor.ts";
import { LEAD_EXPORT_COLUMNS, type LeadInboxRepo } from "./lead-inbox-repo.ts";
import type { LeadFilter } from "./lead-inbox-request.ts";
import type { LeadRow } from "./lead-repo.ts";

/** A stored lead as the inbox shows it: every stored field, the time as ISO 8601. */
export type LeadView = Omit<LeadRow, "createdAt"> & { createdAt: string };

/** Rows per database page of the export (and per piece of the response). */
const EXPORT_PAGE_SIZE = 500;

function toLeadView({ createdAt, ...lead }: LeadRow): LeadView {
  return { ...lead, createdAt: createdAt.toISOString() };
}

/** The leads inbox of the operator: list, CSV export and delete (docs/leads.md). */
export function createLeadInboxService(deps: { leads: LeadInboxRepo }) {
  return {
    /** Newest first; `nextCursor` is null on the last page. */
    async list(
      filter: LeadFilter,
      page: { cursor?: string | undefined; limit: number },
    ): Promise<{ data: LeadView[]; nextCursor: string | null }> {
      const before = page.cursor ? decodePageCursor(page.cursor) : null;
      const rows = await deps.leads.list(filter, before, page.limit + 1);
      const { rows: kept, nextCursor } = pageOf(rows, page.limit);
      return { data: kept.map(({ cursorAt: _cursorAt, ...lead }) => toLeadView(lead)), nextCursor };
    },

    /**
     * Every lead the filter selects, newest first, as CSV read page by page while the client
     * reads. The first page is read before answering, so a failing query is an error, not a
     * cut file.
     */
    async exportCsv(filter: LeadFilter): Promise<{ fileName: string; body: Readable }> {
      const first = await deps.leads.exportPage(filter, null, EXPORT_PAGE_SIZE);

      async function* lines(): AsyncGenerator<string> {
        yield csvHeaderLine(LEAD_EXPORT_COLUMNS);
        let page = first;
        while (page.length > 0) {
          yield page.map((row) => row.record).join("");
          if (page.length < EXPORT_PAGE_SIZE) return;
          const last = page.at(-1)!;
          const cursor: PageCursor = { createdAt: last.cursorAt, id: last.id };
          page = await deps.leads.exportPage(filter, cursor, EXPORT_PAGE_SIZE);
        }
      }

      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d+Z$/, "Z");
      return {
        fileName: `leads-${stamp}.csv`,
        body: Readable.from(lines(), { objectMode: false }),
      };
    },

    async delete(leadId: string): Promise<void> {
      if (!(await deps.leads.delete(leadId))) throw notFound(`Lead ${leadId} not found`);
    },
  };
}

export type LeadInboxService = ReturnType<typeof createLeadInboxService>;
