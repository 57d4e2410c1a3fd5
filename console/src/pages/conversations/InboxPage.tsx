import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { type ApiData, api, basePath, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatDateTime, formatInteger } from "../../ui/format.ts";
import { PageHeader } from "../../ui/forms.tsx";
import { LoadMore } from "../../ui/load-more.tsx";
import { Empty, ErrorNotice, Loading } from "../../ui/states.tsx";
import {
  AiBadge,
  CHANNELS,
  channelLabel,
  customerLabel,
  personLabel,
  STATUS_LABELS,
  StatusBadge,
} from "./conversation-format.tsx";
import {
  conversationKeys,
  conversationPath,
  useAgents,
  useAnswerers,
} from "./conversations-api.ts";
import {
  EXPORT_LIMIT,
  exportOf,
  type InboxFilters,
  type ListQuery,
  listQueryOf,
  ME,
  UNASSIGNED,
  useInboxFilters,
} from "./inbox-filters.ts";
import { LiveIndicator, useDebounced, useLiveEvents } from "./live-events.tsx";

type ListItem = ApiData<"/api/conversations", "get">["data"][number];

/** How long the inbox waits after an event before reading the list again (a burst is one read). */
const LIVE_REFRESH_MS = 400;
/** How long after the last keystroke a search runs. */
const SEARCH_DELAY_MS = 400;

function SearchField({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const search = useRef(onSearch);
  search.current = onSearch;
  // Back and forward change the address: the field follows it.
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => search.current(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <div className="field inbox-search">
      <label htmlFor="inbox-q">Search</label>
      <input
        id="inbox-q"
        type="search"
        value={text}
        maxLength={500}
        aria-describedby="inbox-q-hint"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") onSearch(text);
        }}
      />
      <span className="visually-hidden" id="inbox-q-hint">
        Messages, and the contact's name, e-mail or phone number
      </span>
    </div>
  );
}

function Filters({
  filters,
  update,
  agents,
}: {
  filters: InboxFilters;
  update: (change: Partial<InboxFilters>, options?: { replace?: boolean }) => void;
  agents: { id: string; name: string }[];
}) {
  const session = useSession();
  const [wantsMembers, setWantsMembers] = useState(false);
  const chosenOther =
    filters.assigneeId !== "" && filters.assigneeId !== ME && filters.assigneeId !== UNASSIGNED;
  // The members are read when someone reaches for the assignee filter (a page loads in two calls).
  const members = useAnswerers(session.organizationId, wantsMembers || chosenOther);
  const others = (members.data ?? []).filter((member) => member.userId !== session.view.user.id);
  return (
    <form
      className="toolbar inbox-filters"
      aria-label="Filters"
      onSubmit={(event) => event.preventDefault()}
    >
      <SearchField value={filters.q} onSearch={(q) => update({ q }, { replace: true })} />
      <div className="field">
        <label htmlFor="inbox-status">Status</label>
        <select
          id="inbox-status"
          value={filters.status}
          onChange={(event) => update({ status: event.target.value as InboxFilters["status"] })}
        >
          <option value="">Any status</option>
          {Object.entries(STATUS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="inbox-channel">Channel</label>
        <select
          id="inbox-channel"
          value={filters.channel}
          onChange={(event) => update({ channel: event.target.value as InboxFilters["channel"] })}
        >
          <option value="">Any channel</option>
          {CHANNELS.map((channel) => (
            <option key={channel} value={channel}>
              {channelLabel(channel)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="inbox-agent">Agent</label>
        <select
          id="inbox-agent"
          value={filters.agentId}
          onChange={(event) => update({ agentId: event.target.value })}
        >
          <option value="">Any agent</option>
          {agents.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
          {filters.agentId && !agents.some((agent) => agent.id === filters.agentId) && (
            <option value={filters.agentId}>Another agent</option>
          )}
        </select>
      </div>
      <div
        className="field"
        onPointerEnter={() => setWantsMembers(true)}
        onFocusCapture={() => setWantsMembers(true)}
      >
        <label htmlFor="inbox-assignee">Assignee</label>
        <select
          id="inbox-assignee"
          value={filters.assigneeId}
          onChange={(event) => update({ assigneeId: event.target.value })}
        >
          <option value="">Anyone</option>
          <option value={ME}>Me</option>
          <option value={UNASSIGNED}>Nobody</option>
          {others.map((member) => (
            <option key={member.userId} value={member.userId}>
              {member.name || member.email || member.userId}
            </option>
          ))}
          {chosenOther && !others.some((member) => member.userId === filters.assigneeId) && (
            <option value={filters.assigneeId}>
              {members.isFetching ? "Loading…" : "A former member"}
            </option>
          )}
        </select>
      </div>
      <div className="field">
        <label htmlFor="inbox-sort">Order</label>
        <select
          id="inbox-sort"
          value={filters.sort}
          onChange={(event) => update({ sort: event.target.value as InboxFilters["sort"] })}
        >
          <option value="lastActivity">Latest activity</option>
          <option value="createdAt">Newest first</option>
        </select>
      </div>
      <div className="field field-inline inbox-needs-human">
        <input
          id="inbox-needs-human"
          type="checkbox"
          checked={filters.needsHuman}
          onChange={(event) => update({ needsHuman: event.target.checked })}
        />
        {/* The API's aiEnabled=false: whether asked for or taken over, only a person answers. */}
        <label htmlFor="inbox-needs-human">Needs a human (AI off)</label>
      </div>
    </form>
  );
}

function ExportLink({ filters }: { filters: InboxFilters }) {
  const csv = exportOf(filters);
  if ("reason" in csv) return <p className="muted inbox-export">{csv.reason}</p>;
  return (
    <p className="inbox-export">
      <a className="button" href={`${basePath}${csv.href}`} download>
        Export CSV
      </a>{" "}
      <span className="muted">
        The messages of this agent's conversations that match the status, channel and search (up to{" "}
        {formatInteger(EXPORT_LIMIT)} messages; with a search, the messages containing it)
        {csv.ignored.length > 0 ? `; ${csv.ignored.join(" and ")} do not apply to the export` : ""}.
      </span>
    </p>
  );
}

function Row({
  conversation,
  agentName,
  inboxSearch,
}: {
  conversation: ListItem;
  agentName: string | null;
  inboxSearch: string;
}) {
  const last = conversation.lastMessage;
  return (
    <li className="inbox-row">
      <div className="inbox-row-head">
        <Link
          className="inbox-customer"
          to={conversationPath(conversation)}
          state={{ inboxSearch: inboxSearch ? `?${inboxSearch}` : "" }}
        >
          {customerLabel(conversation.contact, conversation.visitorId)}
        </Link>
        <span className="inbox-badges">
          <StatusBadge status={conversation.status} />
          <AiBadge aiEnabled={conversation.aiEnabled} />
        </span>
        <time className="inbox-time" dateTime={conversation.updatedAt}>
          <span className="visually-hidden">Last activity </span>
          {formatDateTime(conversation.updatedAt)}
        </time>
      </div>
      <p className="inbox-meta">
        <span>{channelLabel(conversation.channel)}</span>
        <span>{agentName ?? "Unknown agent"}</span>
        <span>
          {conversation.assignee
            ? `Assigned to ${personLabel(conversation.assignee)}`
            : "Unassigned"}
        </span>
      </p>
      <p className="inbox-preview">
        {last ? (
          <>
            <span className="inbox-preview-from">
              {last.from === "human" ? "Customer" : "Agent"}:
            </span>{" "}
            {last.text}
          </>
        ) : (
          <span className="muted">No message yet</span>
        )}
      </p>
    </li>
  );
}

/** The inbox: the organization's conversations, filtered, live through /api/events. */
export function InboxPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const { filters, update, search } = useInboxFilters(CHANNELS);
  const agents = useAgents();
  const query: ListQuery = listQueryOf(filters, session.view.user.id);
  const list = useInfiniteQuery({
    queryKey: [...conversationKeys.lists, query],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/api/conversations", {
          params: { query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

  const refresh = useDebounced(
    () => void queryClient.invalidateQueries({ queryKey: conversationKeys.lists }),
    LIVE_REFRESH_MS,
  );
  const live = useLiveEvents(() => refresh());

  const agentNames = new Map((agents.data ?? []).map((agent) => [agent.id, agent.name]));
  const rows = list.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = Boolean(
    filters.status ||
      filters.needsHuman ||
      filters.channel ||
      filters.agentId ||
      filters.assigneeId ||
      filters.q.trim(),
  );

  return (
    <>
      <PageHeader
        title="Conversations"
        description="Every conversation of your agents, on every channel. New messages and requests for a person appear here as they happen."
        actions={<LiveIndicator state={live.state} reconnect={live.reconnect} />}
      />
      <Filters filters={filters} update={update} agents={agents.data ?? []} />
      {agents.isError && <ErrorNotice error={agents.error} retry={() => agents.refetch()} />}
      <ExportLink filters={filters} />
      {list.isPending ? (
        <Loading label="Loading conversations…" />
      ) : !list.data ? (
        <ErrorNotice error={list.error} retry={() => list.refetch()} />
      ) : rows.length === 0 ? (
        filtered ? (
          <Empty title="No conversation matches these filters">
            <p>Change or clear a filter to see more.</p>
          </Empty>
        ) : (
          <Empty title="No conversations yet">
            <p>
              Conversations appear here when someone talks to an agent: in its playground, the
              widget, a channel or the API.
            </p>
          </Empty>
        )
      ) : (
        <>
          <ul className="inbox-list" aria-label="Conversations">
            {rows.map((conversation) => (
              <Row
                key={`${conversation.agentId}/${conversation.id}`}
                conversation={conversation}
                agentName={agentNames.get(conversation.agentId) ?? null}
                inboxSearch={search}
              />
            ))}
          </ul>
          <LoadMore list={list} />
        </>
      )}
    </>
  );
}
