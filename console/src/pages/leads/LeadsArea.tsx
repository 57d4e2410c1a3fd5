import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Navigate, Route, Routes } from "react-router";
import { ApiError, api, basePath, unwrap } from "../../api/client.ts";
import { PageHeader } from "../../ui/forms.tsx";
import { Empty, ErrorNotice, Loading } from "../../ui/states.tsx";
import { LeadFilterForm } from "./LeadFilterForm.tsx";
import { LeadTable } from "./LeadTable.tsx";
import { isFiltered, type LeadFilters, queryOf, useLeadFilters } from "./lead-filters.ts";

/** Leads a page: the API's default. */
const PAGE_SIZE = 50;

const DESCRIPTION = "Sales leads from the marketing site's forms, newest first.";

/** The admin API refuses whoever is not an instance administrator (403; 401 without a session). */
const isRefusal = (error: unknown) =>
  error instanceof ApiError && (error.status === 403 || error.status === 401);

function NotAnAdministrator() {
  return (
    <div className="leads">
      <PageHeader title="Leads" description={DESCRIPTION} />
      <section className="card leads-explanation" aria-labelledby="leads-for-administrators">
        <h2 id="leads-for-administrators">Leads are for instance administrators</h2>
        <p>
          The leads that the marketing site's forms collect belong to whoever runs this agentdesk
          instance, not to an organization, so only its administrators see them: the first owner,
          and the people they name with <code>agentdesk admin grant --email …</code>.
        </p>
        <p>Ask one of them if you need these leads.</p>
      </section>
    </div>
  );
}

/** The export of every lead the filters select, as a plain link: the browser downloads it. */
function ExportLink({ filters }: { filters: LeadFilters }) {
  const query = new URLSearchParams(queryOf(filters)).toString();
  const href = `${basePath}/api/admin/leads/export${query ? `?${query}` : ""}`;
  return (
    <a className="button" href={href} download>
      Export CSV
    </a>
  );
}

/**
 * The leads inbox of the instance's administrators (GET /api/admin/leads), one page at a time.
 * Pages follow the API's `nextCursor`; the cursors of the pages seen are kept to go back, and
 * new filters start again at the first page.
 */
function LeadsPage() {
  const { filters, apply } = useLeadFilters();
  const filterKey = JSON.stringify(queryOf(filters));
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [pagedFilters, setPagedFilters] = useState(filterKey);
  if (pagedFilters !== filterKey) {
    setPagedFilters(filterKey);
    setCursors([undefined]);
  }
  const cursor = cursors.at(-1);
  const query = useQuery({
    queryKey: ["leads", queryOf(filters), cursor],
    queryFn: () =>
      unwrap(
        api.GET("/api/admin/leads", {
          params: { query: { ...queryOf(filters), limit: PAGE_SIZE, cursor } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  if (query.isPending) return <Loading label="Loading the leads…" />;
  if (query.isError && isRefusal(query.error)) return <NotAnAdministrator />;
  return (
    <div className="leads">
      <PageHeader
        title="Leads"
        description={DESCRIPTION}
        actions={<ExportLink filters={filters} />}
      />
      <LeadFilterForm filters={filters} onApply={apply} />
      {query.isError ? (
        <ErrorNotice error={query.error} retry={() => query.refetch()} />
      ) : query.data.data.length === 0 && cursors.length === 1 ? (
        <Empty title={isFiltered(filters) ? "No leads match these filters" : "No leads yet"}>
          <p>
            Leads arrive when a visitor sends one of the marketing site's forms (
            <code>POST /api/leads</code> on the site listener).
          </p>
        </Empty>
      ) : (
        <>
          <LeadTable leads={query.data.data} />
          {(cursors.length > 1 || query.data.nextCursor) && (
            <nav className="leads-pager" aria-label="Lead pages">
              <button
                type="button"
                className="button"
                disabled={cursors.length === 1 || query.isFetching}
                onClick={() => setCursors((current) => current.slice(0, -1))}
              >
                Newer leads
              </button>
              <p aria-live="polite">Page {cursors.length}</p>
              <button
                type="button"
                className="button"
                disabled={!query.data.nextCursor || query.isFetching}
                onClick={() => {
                  const next = query.data.nextCursor;
                  if (next) setCursors((current) => [...current, next]);
                }}
              >
                Older leads
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}

export default function LeadsArea() {
  return (
    <Routes>
      <Route index element={<LeadsPage />} />
      <Route path="*" element={<Navigate to="/leads" replace />} />
    </Routes>
  );
}
