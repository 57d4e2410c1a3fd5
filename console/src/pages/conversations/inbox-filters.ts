import { useSearchParams } from "react-router";
import type { paths } from "../../api/schema.ts";

export type ListQuery = NonNullable<paths["/api/conversations"]["get"]["parameters"]["query"]>;
export type Channel = NonNullable<ListQuery["channel"]>;
type Sort = NonNullable<ListQuery["sort"]>;
type ExportQuery = NonNullable<
  paths["/api/agents/{id}/conversations-export"]["get"]["parameters"]["query"]
>;
type ExportChannel = Exclude<NonNullable<ExportQuery["channel"]>, "all">;

const STATUSES = [
  "UNRESOLVED",
  "HUMAN_REQUESTED",
  "RESOLVED",
] as const satisfies readonly NonNullable<ListQuery["status"]>[];
type Status = (typeof STATUSES)[number];

/** The address's `assigneeId` may say `me`: a link that shows each reader their own. */
export const ME = "me";
export const UNASSIGNED = "none";

/** The inbox's filters as the address holds them (so they are shareable and survive Back). */
export type InboxFilters = {
  status: Status | "";
  /** "Needs a human": the AI is off in the conversation (the API's aiEnabled=false). */
  needsHuman: boolean;
  channel: Channel | "";
  agentId: string;
  /** A user id, `me`, `none`, or empty for anyone. */
  assigneeId: string;
  q: string;
  sort: Sort;
};

const isStatus = (value: string | null): value is Status =>
  (STATUSES as readonly string[]).includes(value ?? "");

/**
 * The inbox orders by last activity unless the address asks for creation order (the API's
 * default is creation order: the address names the one the API does not assume).
 */
const DEFAULT_SORT: Sort = "lastActivity";

export function useInboxFilters(channels: readonly Channel[]) {
  const [search, setSearch] = useSearchParams();
  const channel = search.get("channel") ?? "";
  const sort = search.get("sort");
  const filters: InboxFilters = {
    status: isStatus(search.get("status")) ? (search.get("status") as Status) : "",
    needsHuman: search.get("aiEnabled") === "false",
    channel: (channels as readonly string[]).includes(channel) ? (channel as Channel) : "",
    agentId: search.get("agentId") ?? "",
    assigneeId: search.get("assigneeId") ?? "",
    q: (search.get("q") ?? "").slice(0, 500),
    sort: sort === "createdAt" || sort === "lastActivity" ? sort : DEFAULT_SORT,
  };
  const update = (change: Partial<InboxFilters>, options: { replace?: boolean } = {}) => {
    const next = { ...filters, ...change };
    const params = new URLSearchParams();
    if (next.status) params.set("status", next.status);
    if (next.needsHuman) params.set("aiEnabled", "false");
    if (next.channel) params.set("channel", next.channel);
    if (next.agentId) params.set("agentId", next.agentId);
    if (next.assigneeId) params.set("assigneeId", next.assigneeId);
    if (next.q.trim()) params.set("q", next.q);
    if (next.sort !== DEFAULT_SORT) params.set("sort", next.sort);
    setSearch(params, options);
  };
  return { filters, update, search: search.toString() };
}

/** GET /api/conversations's query for these filters (`me` becomes the user's id). */
export function listQueryOf(filters: InboxFilters, myId: string): ListQuery {
  return {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.needsHuman ? { aiEnabled: "false" as const } : {}),
    ...(filters.channel ? { channel: filters.channel } : {}),
    ...(filters.agentId ? { agentId: filters.agentId } : {}),
    ...(filters.assigneeId
      ? { assigneeId: filters.assigneeId === ME ? myId : filters.assigneeId }
      : {}),
    ...(filters.q.trim() ? { q: filters.q } : {}),
    sort: filters.sort,
  };
}

/** The channels the spec's CSV export filters on (a subset of the conversations' channels). */
const EXPORT_CHANNELS: Record<ExportChannel, true> = {
  website: true,
  whatsapp: true,
  telegram: true,
  slack: true,
  dashboard: true,
  meta: true,
  mercadolibre: true,
  chatwoot: true,
  crmchatsappai: true,
};

/** Largest export the spec allows in one file. */
export const EXPORT_LIMIT = 100_000;

/**
 * The CSV export of the agent's conversations that match what the export can filter (status,
 * channel, text), or why there is none.
 */
export function exportOf(
  filters: InboxFilters,
): { href: string; ignored: string[] } | { reason: string } {
  if (!filters.agentId) {
    return { reason: "Choose an agent to export its conversations: the CSV export is per agent." };
  }
  if (filters.channel && !(filters.channel in EXPORT_CHANNELS)) {
    return { reason: "The CSV export cannot filter this channel: choose another or any channel." };
  }
  const query: ExportQuery = {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.channel ? { channel: filters.channel as ExportChannel } : {}),
    ...(filters.q.trim() ? { search: filters.q } : {}),
    limit: EXPORT_LIMIT,
  };
  const params = new URLSearchParams(
    Object.entries(query).map(([name, value]) => [name, String(value)]),
  );
  const ignored = [
    ...(filters.needsHuman ? ["Needs a human"] : []),
    ...(filters.assigneeId ? ["Assignee"] : []),
  ];
  return {
    href: `/api/agents/${encodeURIComponent(filters.agentId)}/conversations-export?${params}`,
    ignored,
  };
}
