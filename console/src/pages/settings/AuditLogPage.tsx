import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type ApiData, api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatDateTime, formatInteger } from "../../ui/format.ts";
import { Field } from "../../ui/forms.tsx";
import { Empty, ErrorNotice, Loading } from "../../ui/states.tsx";
import { OwnersAndAdminsOnly, SettingsPage } from "./SettingsPage.tsx";

type AuditEvent = ApiData<"/api/audit-events", "get">["data"][number];
type Member = ApiData<"/api/organizations/{id}/members", "get">["data"][number];

const PAGE_SIZE = 50;

/** The actions the service records (docs/accounts.md), for the filter. */
const ACTIONS = [
  "login.succeeded",
  "login.failed",
  "logout",
  "password.reset_requested",
  "password.reset",
  "member.invited",
  "invitation.revoked",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "key.created",
  "key.revoked",
  "organization.created",
  "organization.settings_changed",
  "retention.changed",
  "retention.swept",
  "conversation.erased",
  "contact.erased",
  "channel.created",
  "channel.changed",
  "channel.deleted",
  "event_subscription.created",
  "event_subscription.deleted",
];

const ACTOR_TYPES: Record<AuditEvent["actor"]["type"], string> = {
  user: "person",
  key: "API key",
  admin: "operator",
  system: "the service",
};

function Actor({ actor, names }: { actor: AuditEvent["actor"]; names: Map<string, string> }) {
  const known = actor.id ? names.get(actor.id) : undefined;
  return (
    <>
      <span className="muted">{ACTOR_TYPES[actor.type]}</span>
      {(actor.email ?? known) && <br />}
      {actor.email ?? known}
      {actor.type === "key" && actor.id && (
        <>
          <br />
          <code>{actor.id}</code>
        </>
      )}
    </>
  );
}

/** The details of an event, compact: `key: value` pairs, nested values as JSON. */
function Details({ details }: { details: AuditEvent["details"] }) {
  const entries = Object.entries(details);
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <dl className="settings-details">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{typeof value === "string" ? value : JSON.stringify(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function EventRow({ event, names }: { event: AuditEvent; names: Map<string, string> }) {
  return (
    <tr>
      <td>
        <code className="settings-action">{event.action}</code>
        <br />
        <span className="settings-nowrap muted">{formatDateTime(event.at)}</span>
      </td>
      <td className="settings-actor">
        <Actor actor={event.actor} names={names} />
      </td>
      <td className="settings-id">
        {event.target ? (
          <>
            <span className="muted">{event.target.type}</span>
            <br />
            <code>
              {event.target.type === "user"
                ? (names.get(event.target.id) ?? event.target.id)
                : event.target.id}
            </code>
          </>
        ) : (
          "—"
        )}
      </td>
      <td>
        {event.ip ?? "—"}
        {event.userAgent && <span className="visually-hidden">, user agent {event.userAgent}</span>}
      </td>
      <td>
        <Details details={event.details} />
      </td>
    </tr>
  );
}

function AuditLog() {
  const session = useSession();
  const [action, setAction] = useState("");
  const [actorId, setActorId] = useState("");
  const members = useQuery({
    queryKey: ["settings", "members", session.organizationId],
    queryFn: () =>
      unwrap(
        api.GET("/api/organizations/{id}/members", {
          params: { path: { id: session.organizationId } },
        }),
      ),
  });
  const events = useInfiniteQuery({
    queryKey: ["settings", "audit-events", { action, actorId }],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/api/audit-events", {
          params: {
            query: {
              limit: PAGE_SIZE,
              ...(pageParam ? { cursor: pageParam } : {}),
              ...(action ? { action } : {}),
              ...(actorId ? { actorId } : {}),
            },
          },
        }),
      ),
    initialPageParam: "",
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const people: Member[] = members.data?.data ?? [];
  const names = new Map(people.map((member) => [member.userId, member.name ?? member.email ?? ""]));
  const rows = events.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = action !== "" || actorId !== "";
  return (
    <>
      <div className="toolbar settings-filters">
        <Field label="Action">
          {(props) => (
            <select {...props} value={action} onChange={(event) => setAction(event.target.value)}>
              <option value="">Any action</option>
              {ACTIONS.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Person">
          {(props) => (
            <select {...props} value={actorId} onChange={(event) => setActorId(event.target.value)}>
              <option value="">Anyone</option>
              {people.map((member) => (
                <option key={member.userId} value={member.userId}>
                  {member.name ? `${member.name} (${member.email ?? "no e-mail"})` : member.email}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {members.isError && <ErrorNotice error={members.error} retry={() => members.refetch()} />}
      {events.isPending ? (
        <Loading label="Loading the audit log…" />
      ) : events.isError && rows.length === 0 ? (
        <ErrorNotice error={events.error} retry={() => events.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title={filtered ? "No events match these filters" : "No events yet"}>
          {filtered && <p>Choose “Any action” and “Anyone” to see every event.</p>}
        </Empty>
      ) : (
        <>
          <div className="table-wrap settings-table">
            <table className="settings-audit">
              <caption className="visually-hidden">Audit events, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Action and time</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Target</th>
                  <th scope="col">IP address</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((event) => (
                  <EventRow key={event.id} event={event} names={names} />
                ))}
              </tbody>
            </table>
          </div>
          {events.isFetchNextPageError && <ErrorNotice error={events.error} />}
          <div className="settings-actions settings-more">
            <span role="status" className="muted">
              {formatInteger(rows.length)} {rows.length === 1 ? "event" : "events"} shown
              {events.hasNextPage ? "" : ", the oldest reached"}
            </span>
            {events.hasNextPage && (
              <button
                type="button"
                className="button"
                disabled={events.isFetchingNextPage}
                onClick={() => events.fetchNextPage()}
              >
                {events.isFetchingNextPage ? "Loading…" : "Load more"}
              </button>
            )}
          </div>
        </>
      )}
    </>
  );
}

export default function AuditLogPage() {
  const session = useSession();
  return (
    <SettingsPage
      title="Audit log"
      description="Sign-ins, changes of members, keys, channels and settings, and erasures in this organization, newest first. Passwords, tokens and keys are never recorded."
    >
      {session.canAdmin ? (
        <AuditLog />
      ) : (
        <OwnersAndAdminsOnly role={session.role} what="read the audit log." />
      )}
    </SettingsPage>
  );
}
