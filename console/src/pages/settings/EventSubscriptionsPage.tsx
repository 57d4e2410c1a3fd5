import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { type ApiData, api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatDateTime, formatInteger } from "../../ui/format.ts";
import { ConfirmButton, Field, FormError } from "../../ui/forms.tsx";
import { Empty, ErrorNotice, QueryView } from "../../ui/states.tsx";
import { OwnersAndAdminsOnly, SettingsPage } from "./SettingsPage.tsx";

type Subscription = ApiData<"/api/event-subscriptions", "get">["data"][number];
type EventName = Subscription["events"][number];
type Delivery = ApiData<"/api/event-subscriptions/{id}", "get">["recentDeliveries"][number];

/** The events of DESIGN.md §12 (a Record over the API's list: none can be left out). */
const EVENTS: Record<EventName, string> = {
  "conversation.human_requested":
    "a conversation is handed to a person (the customer asked, the model or an operator)",
  "conversation.resolved": "a conversation is resolved",
  "message.created": "a message is stored: the customer's, the AI's or an operator's",
  "lead.created": "the site's lead form stores a lead (instance administrators only)",
};
const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

const SUBSCRIPTIONS_KEY = ["settings", "event-subscriptions"] as const;

const STATE_TONE: Record<Delivery["state"], string> = {
  pending: "badge-info",
  sending: "badge-info",
  retrying: "badge-warn",
  // Not badge-ok: its green on green is below 4.5:1 at the badge's size.
  delivered: "",
  failed: "badge-danger",
};

function CreateSubscription() {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<EventName[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => unwrap(api.POST("/api/event-subscriptions", { body: { url, events } })),
    onSuccess: async () => {
      setUrl("");
      setEvents([]);
      await queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_KEY });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (events.length === 0) return setProblem("Choose at least one event.");
    setProblem(null);
    create.mutate();
  };
  return (
    <section className="card settings-section" aria-labelledby="new-subscription">
      <h2 id="new-subscription">Add a subscription</h2>
      <form className="form" onSubmit={submit} aria-labelledby="new-subscription">
        <Field
          label="URL"
          hint="Where the events are POSTed as JSON. It must be reachable from this server."
        >
          {(props) => (
            <input
              {...props}
              type="url"
              required
              maxLength={2048}
              placeholder="https://example.com/agentdesk-events"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
            />
          )}
        </Field>
        <fieldset className="fieldset">
          <legend>Events</legend>
          <ul className="settings-checks">
            {EVENT_NAMES.map((name) => (
              <li key={name}>
                <label className="settings-choice">
                  <input
                    type="checkbox"
                    checked={events.includes(name)}
                    onChange={(event) =>
                      setEvents(
                        event.target.checked
                          ? [...events, name]
                          : events.filter((entry) => entry !== name),
                      )
                    }
                  />
                  <span>
                    <code>{name}</code> <span className="muted">{EVENTS[name]}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {problem && (
          <p className="form-error" role="alert">
            {problem}
          </p>
        )}
        <FormError error={create.error} />
        <div>
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            Add subscription
          </button>
        </div>
      </form>
    </section>
  );
}

/** A subscription's latest deliveries, loaded when asked for. */
function Deliveries({ subscription }: { subscription: Subscription }) {
  const deliveries = useQuery({
    queryKey: [...SUBSCRIPTIONS_KEY, subscription.id],
    queryFn: () =>
      unwrap(
        api.GET("/api/event-subscriptions/{id}", { params: { path: { id: subscription.id } } }),
      ),
  });
  return (
    <QueryView query={deliveries} loadingLabel="Loading the deliveries…">
      {(data) =>
        data.recentDeliveries.length === 0 ? (
          <p className="muted">Nothing was sent to this URL yet.</p>
        ) : (
          <ul className="settings-deliveries">
            {data.recentDeliveries.map((delivery) => (
              <li key={delivery.id}>
                <span className={`badge ${STATE_TONE[delivery.state]}`.trim()}>
                  {delivery.state}
                </span>{" "}
                <code>{delivery.event}</code> · {formatDateTime(delivery.createdAt)} ·{" "}
                {formatInteger(delivery.attempts)}{" "}
                {delivery.attempts === 1 ? "attempt" : "attempts"}
                {delivery.lastError && <span className="muted"> · {delivery.lastError}</span>}
              </li>
            ))}
          </ul>
        )
      }
    </QueryView>
  );
}

function SubscriptionCard({ subscription }: { subscription: Subscription }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE("/api/event-subscriptions/{id}", {
          params: { path: { id: subscription.id } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_KEY }),
  });
  const deliveriesId = `deliveries-${subscription.id}`;
  return (
    <li className="card settings-subscription">
      <p className="settings-url">
        <code>{subscription.url}</code>
      </p>
      <ul className="settings-badges" aria-label="Events">
        {subscription.events.map((name) => (
          <li key={name} className="badge badge-info">
            {name}
          </li>
        ))}
      </ul>
      <p className="muted">Added {formatDateTime(subscription.createdAt)}</p>
      <div className="settings-actions">
        <button
          type="button"
          className="button"
          aria-expanded={open}
          aria-controls={deliveriesId}
          onClick={() => setOpen(!open)}
        >
          {open ? "Hide deliveries" : "Show deliveries"}
          <span className="visually-hidden"> to {subscription.url}</span>
        </button>
        <ConfirmButton
          label={`Delete subscription to ${subscription.url}`}
          title="Delete this subscription?"
          description={
            <p>
              Nothing more is sent to {subscription.url}, and retries still pending are dropped.
            </p>
          }
          confirmLabel="Delete"
          disabled={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      {remove.isError && <ErrorNotice error={remove.error} />}
      <div id={deliveriesId}>{open && <Deliveries subscription={subscription} />}</div>
    </li>
  );
}

function ManageSubscriptions() {
  const subscriptions = useQuery({
    queryKey: SUBSCRIPTIONS_KEY,
    queryFn: () => unwrap(api.GET("/api/event-subscriptions")),
  });
  return (
    <>
      <QueryView
        query={subscriptions}
        loadingLabel="Loading the subscriptions…"
        isEmpty={(data) => data.data.length === 0}
        empty={
          <Empty title="No event subscriptions">
            <p>Add one below to have this organization's events sent to a URL.</p>
          </Empty>
        }
      >
        {(data) => (
          <ul className="settings-subscriptions" aria-label="Event subscriptions">
            {data.data.map((subscription) => (
              <SubscriptionCard key={subscription.id} subscription={subscription} />
            ))}
          </ul>
        )}
      </QueryView>
      <CreateSubscription />
      <p className="muted settings-footnote">
        Each event is POSTed as JSON with the headers <code>X-Service-Event</code> and{" "}
        <code>X-Service-Delivery</code> (the same on every retry). When the server has a{" "}
        <code>WEBHOOK_SIGNING_SECRET</code>, deliveries are signed with it (
        <code>X-Service-Signature</code>); there is no secret per subscription. A receiver that does
        not answer 2xx is retried with backoff.
      </p>
    </>
  );
}

export default function EventSubscriptionsPage() {
  const session = useSession();
  return (
    <SettingsPage
      title="Event subscriptions"
      description="Send this organization's events (a customer asking for a person, new messages) to a helpdesk, a chat room or an on-call tool."
    >
      {session.canAdmin ? (
        <ManageSubscriptions />
      ) : (
        <OwnersAndAdminsOnly role={session.role} what="see and manage event subscriptions." />
      )}
    </SettingsPage>
  );
}
