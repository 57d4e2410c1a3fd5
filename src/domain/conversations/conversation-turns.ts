import type { Db } from "../../db/client.ts";
import { executeParts, type StatementPart } from "../../db/statement-parts.ts";
import { invalid } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import type { EventPublisher, PublishedEvent } from "../events/event-types.ts";
import type { ContactInput, ContactRepo } from "./contact-repo.ts";
import type {
  ConversationRepo,
  ConversationRow,
  RecordedTurn,
  StatusChange,
  TurnMessage,
} from "./conversation-repo.ts";
import { toNewMessageView } from "./conversation-view.ts";

/** Channel values of the query interfaces (spec: Conversation and message). */
export const CHANNELS = [
  "api",
  "dashboard",
  "website",
  "form",
  "whatsapp",
  "telegram",
  "slack",
  "meta",
  "crisp",
  "zapier",
  "mail",
  "mercadolibre",
  "agent_builder",
  "chatwoot",
  "crmchatsappai",
] as const;
type Channel = (typeof CHANNELS)[number];

/** Channels whose conversations only live here: nothing reaches a customer through another service. */
export const LOCAL_CHANNELS: ReadonlySet<string> = new Set<Channel>([
  "dashboard",
  "website",
  "form",
  "api",
]);

/** Conversation ids a CRM/chat-desk integration uses: crmchatsappai_{accountId}_{customerId}. */
const CRM_CONVERSATION_ID = /^crmchatsappai_[^_\s]+_\S+$/;

/** Where a turn goes: an existing conversation of the agent, or a new one with this id. */
export type TurnTarget = {
  /** The conversation's API id (its externalId): the request's, the existing one's, or new. */
  conversationId: string;
  /**
   * Its row key: the existing one's; for a new conversation the generated conversationId itself,
   * or a fresh id when the client chose the conversationId (other tenants may use it too).
   */
  rowId: string;
  visitorId: string;
  channel: string;
  channelExternalId: string | null;
  /** The conversation before the turn; null when the turn creates it. */
  existing: ConversationRow | null;
};

export type TurnRequest = {
  conversationId?: string;
  visitorId?: string;
  /** Absent means "not sent": api, unless a crmchatsappai conversation id says otherwise. */
  channel?: Channel;
  channelExternalId?: string;
};

/** A turn to store: where it goes, how it moves the status, its contact and its messages. */
export type TurnRecord = {
  organizationId: string;
  agentId: string;
  target: TurnTarget;
  status: StatusChange;
  contact?: ContactInput;
  contactId?: string;
  /** The caller has no API key: a conversation this turn creates is marked startedAnonymously. */
  anonymous?: boolean;
  messages: TurnMessage[];
};

export function createConversationTurns(deps: {
  db: Db;
  conversations: ConversationRepo;
  contacts: ContactRepo;
  /** Where each turn's messages, and a request for a person, are announced. */
  events: EventPublisher;
  logger: Pick<Logger, "error">;
}) {
  const { conversations, contacts } = deps;

  /**
   * Decides which conversation a turn lands in. Conversation ids are looked up within the
   * organization and agent only, so another organization's or agent's use of the same id is
   * neither joined nor noticed. An unknown id creates the conversation with that id, so
   * integrations can choose their ids.
   */
  async function resolveTarget(
    organizationId: string,
    agentId: string,
    request: TurnRequest,
  ): Promise<TurnTarget> {
    const crmId = request.conversationId && CRM_CONVERSATION_ID.test(request.conversationId);
    const channel = request.channel ?? (crmId ? "crmchatsappai" : "api");
    if (channel === "crmchatsappai" && request.conversationId && !crmId) {
      throw invalid(
        "On the crmchatsappai channel, conversationId must look like crmchatsappai_{accountId}_{customerId}",
        [
          {
            path: "body.conversationId",
            message: "does not follow crmchatsappai_{accountId}_{customerId}",
          },
        ],
      );
    }
    const channelExternalId = request.channelExternalId ?? null;
    if (channel === "whatsapp" && channelExternalId !== null) {
      const prefix = `${organizationId}_${agentId}_`;
      const phone = channelExternalId.slice(prefix.length);
      if (!channelExternalId.startsWith(prefix) || !/^\+?\d{4,20}$/.test(phone)) {
        throw invalid(
          "On the whatsapp channel, channelExternalId must be {organizationId}_{agentId}_{telephoneNumber} of this agent",
          [
            {
              path: "body.channelExternalId",
              message: "does not follow {organizationId}_{agentId}_{telephoneNumber}",
            },
          ],
        );
      }
    }

    let existing: ConversationRow | null = null;
    if (request.conversationId) {
      existing = await conversations.findOfAgent(organizationId, agentId, request.conversationId);
    } else if (channel === "whatsapp" && channelExternalId !== null) {
      existing = await conversations.findByChannelExternalId(
        organizationId,
        agentId,
        channel,
        channelExternalId,
      );
    }
    const conversationId = existing?.externalId ?? request.conversationId ?? newId();
    const visitorId =
      request.visitorId ?? existing?.visitorId ?? (crmId ? conversationId : newId());
    return {
      conversationId,
      rowId: existing?.id ?? (request.conversationId ? newId() : conversationId),
      visitorId,
      channel: existing?.channel ?? channel,
      channelExternalId: existing?.channelExternalId ?? channelExternalId,
      existing,
    };
  }

  /**
   * Stores a turn atomically: the contact (matched or created), the conversation (created or
   * updated: status, contact) and the messages. Without a contact to match that is one statement;
   * with one, a transaction around the contact's lock and the turn. Returns the conversation
   * after the turn.
   */
  async function recordTurn(input: TurnRecord): Promise<ConversationRow> {
    const [conversation] = await store(input, async (turn, tx) => [
      await conversations.recordTurn(turn, tx),
      undefined,
    ]);
    return conversation;
  }

  /**
   * recordTurn with another write in the turn's statement (one round trip, one commit): both
   * take effect or neither does.
   */
  async function recordTurnWith<Along>(
    input: TurnRecord,
    along: StatementPart<Along>,
  ): Promise<[ConversationRow, Along]> {
    return store(input, (turn, tx) => executeParts(tx, conversations.turnPart(turn), along));
  }

  async function store<Along>(
    input: TurnRecord,
    write: (turn: RecordedTurn, tx: Db) => Promise<[ConversationRow, Along]>,
  ): Promise<[ConversationRow, Along]> {
    const { organizationId, agentId, target } = input;
    const written = async (contactId: string | undefined, tx: Db) =>
      write(
        {
          organizationId,
          agentId,
          conversation: {
            id: target.rowId,
            externalId: target.conversationId,
            visitorId: target.visitorId,
            channel: target.channel,
            channelExternalId: target.channelExternalId,
            startedAnonymously: input.anonymous ?? false,
          },
          status: input.status,
          contactId,
          messages: input.messages,
        },
        tx,
      );
    const contact = input.contact;
    const result = await (input.contactId !== undefined || !contact
      ? written(input.contactId, deps.db)
      : deps.db.transaction(async (tx) =>
          written((await contacts.upsertByMatch(organizationId, contact, tx))?.id, tx),
        ));
    await announce(input, result[0]);
    return result;
  }

  /**
   * The turn's messages and a newly requested person as live events. Published after the turn's
   * statement (the query path keeps its one round trip): the turn stands if this fails, so the
   * failure is logged, not thrown.
   */
  async function announce(input: TurnRecord, conversation: ConversationRow): Promise<void> {
    const event = {
      organizationId: input.organizationId,
      agentId: input.agentId,
      conversationId: conversation.externalId,
    };
    const published: PublishedEvent[] = input.messages
      .filter((message) => !message.isDraft)
      .map((message) => ({
        ...event,
        name: "message.created",
        data: {
          message: toNewMessageView({
            ...message,
            organizationId: input.organizationId,
            conversationId: conversation.id,
            agentId: input.agentId,
          }),
        },
      }));
    if (input.status === "human_requested" && input.target.existing?.status !== "HUMAN_REQUESTED") {
      // A customer's words flag their message; otherwise the model called request_human.
      const byCustomer = input.messages.some(
        (message) => message.from === "human" && message.metadata?.requestedHuman === true,
      );
      published.push({
        ...event,
        name: "conversation.human_requested",
        data: { trigger: byCustomer ? "customer" : "model" },
      });
    }
    await deps.events.publishAll(published).catch((error: unknown) => {
      deps.logger.error({ err: error }, "publishing a turn's live events failed");
    });
  }

  return { resolveTarget, recordTurn, recordTurnWith };
}

export type ConversationTurns = ReturnType<typeof createConversationTurns>;
