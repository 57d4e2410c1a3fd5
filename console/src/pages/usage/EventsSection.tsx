import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "react-router";
import { type ApiData, api, unwrap } from "../../api/client.ts";
import { formatDateTime, formatInteger } from "../../ui/format.ts";
import { Empty, QueryView } from "../../ui/states.tsx";
import { TableRegion } from "../../ui/table-region.tsx";
import { formatCreditAmount } from "./usage-format.ts";
import type { UsageRange } from "./usage-range.ts";

type EventPage = ApiData<"/api/consumption-events", "get">;
type ConsumptionEvent = EventPage["data"][number];

/** The spec's default page size (1 to 100). */
const PAGE_SIZE = 50;

function agentOf(event: ConsumptionEvent): string {
  if (!event.agent) return "No agent";
  return event.agent.name ?? `Deleted agent ${event.agent.id}`;
}

function EventTable({ page }: { page: EventPage }) {
  return (
    <TableRegion label="Consumption events">
      <table>
        <caption className="visually-hidden">Consumption events, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Agent</th>
            <th scope="col">Feature</th>
            <th scope="col">Model</th>
            <th scope="col" className="number">
              Input tokens
            </th>
            <th scope="col" className="number">
              Output tokens
            </th>
            <th scope="col" className="number">
              Credits
            </th>
            <th scope="col">Conversation</th>
          </tr>
        </thead>
        <tbody>
          {page.data.map((event) => (
            <tr key={event.id}>
              <td className="usage-nowrap">{formatDateTime(event.occurredAt)}</td>
              <td>{agentOf(event)}</td>
              <td>{event.feature}</td>
              <td>
                {event.modelName} <span className="muted">({event.provider})</span>
              </td>
              <td className="number">{formatInteger(event.inputTokens)}</td>
              <td className="number">{formatInteger(event.outputTokens)}</td>
              <td className="number">
                {formatCreditAmount(event.creditsCharged)}
                {event.billingCoefficient !== 1 && (
                  <span className="muted"> (×{event.billingCoefficient})</span>
                )}
              </td>
              <td>
                {event.conversationId ? (
                  <Link to={`/conversations/${event.conversationId}`}>Open</Link>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** One page of GET /api/consumption-events for the period, newest first, with its pager. */
function EventPages({ range }: { range: UsageRange }) {
  const [pageNumber, setPageNumber] = useState(1);
  const query = useQuery({
    queryKey: ["usage", "events", range.from, range.to, pageNumber],
    queryFn: () =>
      unwrap(
        api.GET("/api/consumption-events", {
          params: {
            query: {
              startDate: range.from,
              endDate: range.to,
              page: pageNumber,
              limit: PAGE_SIZE,
            },
          },
        }),
      ),
    // The pager stays where it is while the next page loads.
    placeholderData: keepPreviousData,
  });
  return (
    <QueryView
      query={query}
      loadingLabel="Loading the consumption events…"
      isEmpty={(page) => page.pagination.total === 0}
      empty={<Empty title="No consumption events in this period" />}
    >
      {(page) => (
        <>
          <EventTable page={page} />
          <nav className="usage-pager" aria-label="Consumption event pages">
            <button
              type="button"
              className="button"
              disabled={pageNumber <= 1 || query.isFetching}
              onClick={() => setPageNumber((current) => current - 1)}
            >
              Previous
            </button>
            <p aria-live="polite">
              Page {formatInteger(page.pagination.page)} of{" "}
              {formatInteger(page.pagination.totalPages)} · {formatInteger(page.pagination.total)}{" "}
              {page.pagination.total === 1 ? "event" : "events"}
            </p>
            <button
              type="button"
              className="button"
              disabled={pageNumber >= page.pagination.totalPages || query.isFetching}
              onClick={() => setPageNumber((current) => current + 1)}
            >
              Next
            </button>
          </nav>
        </>
      )}
    </QueryView>
  );
}

/**
 * The ledger's events of the period. They are read only when the reader opens the section, so
 * the page itself loads with two calls (the balance and the summary).
 */
export function EventsSection({ range }: { range: UsageRange }) {
  const [open, setOpen] = useState(false);
  const regionId = useId();
  return (
    <section className="card" aria-labelledby="usage-events">
      <div className="usage-section-header">
        <h2 id="usage-events">Consumption events</h2>
        <button
          type="button"
          className="button"
          aria-expanded={open}
          aria-controls={regionId}
          onClick={() => setOpen((current) => !current)}
        >
          {open ? "Hide events" : "Show events"}
        </button>
      </div>
      <div id={regionId} hidden={!open}>
        {/* A new period starts again at its first page. */}
        {open && <EventPages key={`${range.from}/${range.to}`} range={range} />}
      </div>
      {!open && (
        <p className="muted">
          Every charge of the period, one line each, with its tokens and model.
        </p>
      )}
    </section>
  );
}
