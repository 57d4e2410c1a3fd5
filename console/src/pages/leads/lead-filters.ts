import { useSearchParams } from "react-router";

/** The filters of GET /api/admin/leads and its export (docs/leads.md), as the address keeps them. */
export type LeadFilters = { since: string; until: string; source: string; email: string };

const FILTER_NAMES = ["since", "until", "source", "email"] as const;

/** The filters that are set, as the API's query string (also the export link's). */
export function queryOf(filters: LeadFilters): Partial<LeadFilters> {
  const query: Partial<LeadFilters> = {};
  for (const name of FILTER_NAMES) {
    const value = filters[name].trim();
    if (value) query[name] = value;
  }
  return query;
}

export const isFiltered = (filters: LeadFilters) => Object.keys(queryOf(filters)).length > 0;

/** The filters in the address (`?since=&until=&source=&email=`), and how to change them. */
export function useLeadFilters() {
  const [params, setParams] = useSearchParams();
  const filters: LeadFilters = {
    since: params.get("since") ?? "",
    until: params.get("until") ?? "",
    source: params.get("source") ?? "",
    email: params.get("email") ?? "",
  };
  const apply = (next: LeadFilters) => setParams(new URLSearchParams(queryOf(next)));
  return { filters, apply };
}
