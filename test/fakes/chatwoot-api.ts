import {
  type Endpoint,
  fieldsOf,
  json,
  type PlatformApi,
  type PlatformReply,
  type PlatformRequest,
  retryAfterHeader,
  type ScriptedFailure,
  startPlatformServer,
} from "./platform-api.ts";

export type ChatwootApi = PlatformApi & {
  /** Conversation statuses set through `toggle_status`, by conversation id. */
  statuses: Map<string, string>;
};

/**
 * A fake Chatwoot instance: its version at `/api`, and the two Application API endpoints an
 * Agent Bot uses, authenticated with the `api_access_token` header of an account's token.
 * https://www.chatwoot.com/developers/api/
 */
export async function startChatwootApi(options: {
  accountId: string;
  tokens: string[];
}): Promise<ChatwootApi> {
  const tokens = new Set(options.tokens);
  const statuses = new Map<string, string>();
  let nextMessageId = 90_000;

  const unauthorized = () => json(401, { error: "Invalid Access Token" });

  const route = ({ call, url }: PlatformRequest): Endpoint => {
    if (url.pathname === "/api" && call.method === "GET") {
      return {
        name: "version",
        answer: () =>
          json(200, {
            version: "4.6.0",
            timestamp: new Date().toISOString(),
            queue_services: "ok",
            data_services: "ok",
          }),
      };
    }
    const match =
      /^\/api\/v1\/accounts\/([^/]+)\/conversations\/([^/]+)\/(messages|toggle_status)$/.exec(
        url.pathname,
      );
    if (!match || call.method !== "POST") {
      return { name: url.pathname, answer: () => json(404, { error: "Not Found" }) };
    }
    const [, accountId, conversationId, action] = match as unknown as [
      string,
      string,
      string,
      string,
    ];
    const guarded = (answer: () => PlatformReply): PlatformReply => {
      const token = call.headers.api_access_token;
      if (typeof token !== "string" || !tokens.has(token)) return unauthorized();
      if (accountId !== options.accountId) {
        return json(401, { error: "You are not authorized to access this account" });
      }
      return answer();
    };
    const body = fieldsOf(call.body);
    if (action === "toggle_status") {
      return {
        name: "toggle_status",
        answer: () =>
          guarded(() => {
            const status = typeof body.status === "string" ? body.status : "open";
            statuses.set(conversationId, status);
            return json(200, {
              meta: {},
              payload: {
                success: true,
                conversation_id: Number(conversationId),
                current_status: status,
                snoozed_until: null,
              },
            });
          }),
      };
    }
    return {
      name: "messages",
      answer: () =>
        guarded(() => {
          if (typeof body.content !== "string" || body.content === "") {
            return json(422, { message: "Content can't be blank" });
          }
          nextMessageId += 1;
          return json(200, {
            id: nextMessageId,
            content: body.content,
            inbox_id: 1,
            conversation_id: Number(conversationId),
            message_type: body.message_type === "outgoing" ? 1 : 0,
            content_type: "text",
            status: "sent",
            content_attributes: {},
            created_at: Math.floor(Date.now() / 1000),
            private: body.private === true,
            source_id: null,
            sender: { id: 3, name: "agentdesk", type: "agent_bot" },
          });
        }),
    };
  };

  const failureReply = (failure: ScriptedFailure): PlatformReply => ({
    ...(failure.status === 401
      ? unauthorized()
      : json(failure.status, { error: "Something went wrong" })),
    headers: retryAfterHeader(failure),
  });

  const server = await startPlatformServer({ platform: "Chatwoot", route, failureReply });
  return { ...server, statuses };
}

type ChatwootContact = { id: number; name: string; email?: string; phoneNumber?: string };

/**
 * An Agent Bot event for a new message, as Chatwoot posts it: the message's `webhook_data` with
 * `event: "message_created"`, the conversation (its display id) with its `meta.assignee`.
 * https://www.chatwoot.com/docs/product/others/webhook-events#message_created
 */
export function chatwootMessageCreated(fields: {
  messageId: number;
  conversationId: number;
  accountId: number;
  content: string | null;
  messageType?: "incoming" | "outgoing" | "activity" | "template";
  isPrivate?: boolean;
  contact: ChatwootContact;
  /** A person of the account assigned to the conversation (null: none). */
  assignee?: { id: number; name: string } | null;
  status?: "open" | "pending" | "resolved" | "snoozed";
  createdAt?: Date;
}) {
  const messageType = fields.messageType ?? "incoming";
  const contact = {
    id: fields.contact.id,
    name: fields.contact.name,
    avatar: "",
    type: "contact",
    email: fields.contact.email ?? null,
    phone_number: fields.contact.phoneNumber ?? null,
    identifier: null,
    thumbnail: "",
    additional_attributes: {},
    custom_attributes: {},
  };
  const sender =
    messageType === "incoming"
      ? contact
      : { id: 1, name: "John", email: "john@acme.inc", type: "user" };
  return {
    account: { id: fields.accountId, name: "Acme Inc" },
    additional_attributes: {},
    content_attributes: {},
    content_type: "text",
    content: fields.content,
    conversation: {
      additional_attributes: {},
      can_reply: true,
      channel: "Channel::WebWidget",
      contact_inbox: { id: 12, contact_id: fields.contact.id, inbox_id: 1, hmac_verified: false },
      id: fields.conversationId,
      inbox_id: 1,
      messages: [],
      labels: [],
      meta: {
        sender: { ...contact },
        assignee: fields.assignee
          ? {
              id: fields.assignee.id,
              name: fields.assignee.name,
              available_name: fields.assignee.name,
              avatar_url: "",
              type: "user",
              availability_status: "online",
            }
          : null,
        team: null,
        hmac_verified: false,
      },
      status: fields.status ?? "pending",
      custom_attributes: {},
      snoozed_until: null,
      unread_count: 1,
      agent_last_seen_at: 0,
      contact_last_seen_at: 0,
      timestamp: Math.floor(Date.now() / 1000),
    },
    created_at: (fields.createdAt ?? new Date()).toISOString(),
    id: fields.messageId,
    inbox: { id: 1, name: "Acme Support" },
    message_type: messageType,
    private: fields.isPrivate ?? false,
    sender,
    source_id: null,
    event: "message_created",
  };
}

/** Another Agent Bot event: a conversation opened or resolved, the widget opened… */
export function chatwootConversationEvent(
  event: "conversation_opened" | "conversation_resolved" | "webwidget_triggered",
  conversationId: number,
) {
  return {
    event,
    id: conversationId,
    status: event === "conversation_resolved" ? "resolved" : "open",
  };
}
