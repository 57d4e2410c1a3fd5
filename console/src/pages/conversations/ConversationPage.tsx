import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId } from "react";
import { Link, useLocation, useParams, useSearchParams } from "react-router";
import { useSession } from "../../app/session.tsx";
import { formatDateTime } from "../../ui/format.ts";
import { PageHeader } from "../../ui/forms.tsx";
import { Empty, ErrorNotice, Loading } from "../../ui/states.tsx";
import { type Annotation, useConversationAnnotations } from "../annotations/annotations-api.ts";
import {
  AiBadge,
  channelLabel,
  customerLabel,
  personLabel,
  StatusBadge,
} from "./conversation-format.tsx";
import {
  type ConversationDetail,
  conversationKeys,
  useAgents,
  useConversation,
} from "./conversations-api.ts";
import { HandoffActions, ReplyForm } from "./HandoffControls.tsx";
import { LiveIndicator, useDebounced, useLiveEvents } from "./live-events.tsx";
import { authorOf, MessageItem } from "./MessageItem.tsx";

/** How long after it was sent a queued delivery is still worth reading again. */
const DELIVERY_WATCH_MS = 2 * 60_000;
const DELIVERY_POLL_MS = 3_000;

/** The inbox as the user left it (its filters), when they came from it. */
type FromInbox = { inboxSearch?: string } | null;

function Details({
  conversation,
  agentName,
}: {
  conversation: ConversationDetail;
  agentName: string | null;
}) {
  const contact = conversation.contact;
  return (
    <dl className="details">
      <dt>Status</dt>
      <dd>
        <StatusBadge status={conversation.status} />
      </dd>
      <dt>AI</dt>
      <dd>
        <AiBadge aiEnabled={conversation.aiEnabled} />
      </dd>
      <dt>Assignee</dt>
      <dd>{conversation.assignee ? personLabel(conversation.assignee) : "Nobody"}</dd>
      <dt>Channel</dt>
      <dd>{channelLabel(conversation.channel)}</dd>
      <dt>Agent</dt>
      <dd>
        <Link to={`/agents/${encodeURIComponent(conversation.agentId)}`}>
          {agentName ?? "Open the agent"}
        </Link>
      </dd>
      <dt>Contact</dt>
      <dd>
        {contact ? (
          <ul className="plain-list">
            {[contact.firstName, contact.lastName].some(Boolean) && (
              <li>{[contact.firstName, contact.lastName].filter(Boolean).join(" ")}</li>
            )}
            {contact.email && <li>{contact.email}</li>}
            {contact.phoneNumber && <li>{contact.phoneNumber}</li>}
            {contact.userId && <li>User id {contact.userId}</li>}
          </ul>
        ) : (
          <span className="muted">Not known</span>
        )}
      </dd>
      <dt>Visitor</dt>
      <dd className="break">{conversation.visitorId}</dd>
      <dt>Started</dt>
      <dd>{formatDateTime(conversation.createdAt)}</dd>
      <dt>Last change</dt>
      <dd>{formatDateTime(conversation.updatedAt)}</dd>
    </dl>
  );
}

function Conversation({
  conversation,
  annotations,
  annotationsError,
  retryAnnotations,
  highlightedId,
}: {
  conversation: ConversationDetail;
  annotations: Annotation[];
  annotationsError: unknown;
  retryAnnotations: () => void;
  highlightedId: string | null;
}) {
  const session = useSession();
  const messagesTitle = useId();
  // The agent's name is the inbox's list of agents when it was read (no request of its own: a
  // page loads in two), else the details link to the agent.
  const agents = useAgents(false);
  const agentName = agents.data?.find((agent) => agent.id === conversation.agentId)?.name ?? null;
  const customer = customerLabel(conversation.contact, conversation.visitorId);
  const byMessage = new Map(annotations.map((annotation) => [annotation.messageId, annotation]));

  return (
    <div className="conversation-layout">
      <aside className="card conversation-side" aria-label="Conversation details">
        <h2>Details</h2>
        <Details conversation={conversation} agentName={agentName} />
        {session.canWrite ? (
          <HandoffActions conversation={conversation} />
        ) : (
          <p className="muted">
            Your role ({session.role}) can read conversations; members, admins and owners take them
            over and reply.
          </p>
        )}
      </aside>
      <section className="conversation-main" aria-labelledby={messagesTitle}>
        <h2 id={messagesTitle}>Messages</h2>
        {annotationsError ? (
          <ErrorNotice error={annotationsError} retry={retryAnnotations} />
        ) : null}
        {conversation.messages.length === 0 ? (
          <Empty title="No messages yet" />
        ) : (
          <ol className="message-list" aria-labelledby={messagesTitle}>
            {conversation.messages.map((message) => (
              <MessageItem
                key={message.id}
                message={message}
                author={authorOf(message, `${customer} (customer)`, agentName)}
                annotation={byMessage.get(message.id)}
                canRate={session.canWrite}
                highlighted={message.id === highlightedId}
              />
            ))}
          </ol>
        )}
        {session.canWrite && <ReplyForm conversation={conversation} />}
      </section>
    </div>
  );
}

/** One conversation: every message, its state, and what an operator does with it. */
export function ConversationPage() {
  const { conversationId = "" } = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const agentId = search.get("agentId");
  const conversation = useConversation(conversationId, agentId);
  // With the agent in the address both are read at once; without, once the conversation names it.
  const annotations = useConversationAnnotations(
    agentId ?? conversation.data?.agentId ?? null,
    conversationId,
  );

  // Deliveries change without an event: while a recent one is queued, read the conversation again.
  const watching = conversation.data?.messages.some(
    (message) =>
      message.delivery?.status === "queued" &&
      Date.now() - Date.parse(message.createdAt) < DELIVERY_WATCH_MS,
  );
  useEffect(() => {
    if (!watching) return;
    const timer = setInterval(
      () =>
        void queryClient.invalidateQueries({
          queryKey: conversationKeys.detail(agentId ?? "", conversationId),
        }),
      DELIVERY_POLL_MS,
    );
    return () => clearInterval(timer);
  }, [watching, queryClient, agentId, conversationId]);

  const refresh = useDebounced(
    () =>
      void queryClient.invalidateQueries({
        queryKey: conversationKeys.detail(agentId ?? "", conversationId),
      }),
    250,
  );
  const live = useLiveEvents((event) => {
    if (
      !event ||
      (event.conversationId === conversationId &&
        (!conversation.data || event.agentId === conversation.data.agentId))
    ) {
      refresh();
    }
  });

  // A link to one message (#message-…, from the annotations) scrolls to it once it is drawn.
  const highlightedId = location.hash.startsWith("#message-")
    ? decodeURIComponent(location.hash.slice("#message-".length))
    : null;
  const loaded = conversation.isSuccess;
  useEffect(() => {
    if (!loaded || !highlightedId) return;
    const element = document.getElementById(`message-${highlightedId}`);
    element?.scrollIntoView({ block: "center" });
    element?.focus({ preventScroll: true });
  }, [loaded, highlightedId]);

  const inboxSearch = (location.state as FromInbox)?.inboxSearch ?? "";
  const title = conversation.data
    ? `Conversation with ${customerLabel(conversation.data.contact, conversation.data.visitorId)}`
    : "Conversation";
  return (
    <>
      <p className="back-link">
        <Link to={`/conversations${inboxSearch}`}>← Conversations</Link>
      </p>
      <PageHeader
        title={title}
        description={
          conversation.data
            ? `${channelLabel(conversation.data.channel)} · id ${conversation.data.id}`
            : undefined
        }
        actions={<LiveIndicator state={live.state} reconnect={live.reconnect} />}
      />
      {conversation.isPending ? (
        <Loading label="Loading the conversation…" />
      ) : conversation.isError ? (
        <ErrorNotice error={conversation.error} retry={() => conversation.refetch()} />
      ) : (
        <Conversation
          conversation={conversation.data}
          annotations={annotations.data ?? []}
          annotationsError={annotations.error}
          retryAnnotations={() => annotations.refetch()}
          highlightedId={highlightedId}
        />
      )}
    </>
  );
}
