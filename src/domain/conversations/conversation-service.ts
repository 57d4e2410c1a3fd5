import { invalid } from "../../lib/errors.ts";
import { type Caller, refuseOtherAgent } from "../caller.ts";
import type {
  ConversationListFilter,
  ConversationListRepo,
  ConversationSort,
  LastMessage,
} from "./conversation-list-repo.ts";
import { findConversationOfOrganization } from "./conversation-lookup.ts";
import type { ConversationRepo } from "./conversation-repo.ts";
import {
  type ConversationView,
  type MessageView,
  toConversationView,
  toMessageView,
} from "./conversation-view.ts";

// What PostgreSQL prints for a timestamptz: "2024-05-01 12:00:00.123456+00".
const TIMESTAMP_TEXT =
  /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?$/;

/** A timestamp PostgreSQL prints and reads back: a cursor's, never a cast error (a 500). */
function isTimestampText(text: string): boolean {
  const match = TIMESTAMP_TEXT.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second, , offsetHours, offsetMinutes] = match
    .slice(1)
    .map(Number);
  // Day 0 of the next month is the month's last (years 1-99 read as 19xx: the same leap years).
  const lastDay = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return (
    year! >= 1 &&
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= lastDay &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59 &&
    offsetHours! <= 15 &&
    (offsetMinutes === undefined || Number.isNaN(offsetMinutes) || offsetMinutes <= 59)
  );
}
const SORTS: readonly string[] = ["createdAt", "lastActivity"] satisfies ConversationSort[];

/** What GET /api/conversations takes (besides the caller's scope). */
type ConversationListQuery = {
  agentId?: string | undefined;
  status?: ConversationListFilter["status"];
  aiEnabled?: boolean | undefined;
  channel?: string | undefined;
  /** A user id, or `none`: the conversations nobody is assigned to. */
  assigneeId?: string | undefined;
  q?: string | undefined;
  sort: ConversationSort;
  cursor?: string | undefined;
  limit: number;
};

type ConversationListItem = ConversationView & { lastMessage: LastMessage | null };

/**
 * Opaque list cursor: the sort, that sort's exact timestamp and the id of the last item of the
 * previous page. It holds a place in the order, not the filters.
 */
function encodeCursor(sort: ConversationSort, at: string, id: string): string {
  return Buffer.from(`${sort}|${at}|${id}`).toString("base64url");
}

function decodeCursor(cursor: string, sort: ConversationSort): { at: string; id: string } {
  const [cursorSort, at, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const id = rest.join("|");
  if (!cursorSort || !SORTS.includes(cursorSort) || !at || !isTimestampText(at) || !id) {
    throw invalid("cursor is not a cursor this endpoint returned", [
      { path: "querystring.cursor", message: "is malformed" },
    ]);
  }
  if (cursorSort !== sort) {
    throw invalid(`cursor belongs to a list sorted by ${cursorSort}: pass sort=${cursorSort}`, [
      { path: "querystring.cursor", message: `was returned with sort=${cursorSort}` },
    ]);
  }
  return { at, id };
}

/** The `assigneeId` of the conversations nobody is assigned to (user ids are never this word). */
export const UNASSIGNED = "none";

/** The read side of conversations: the dashboard extensions of docs/contracts.md. */
export function createConversationService(deps: {
  conversations: Pick<ConversationRepo, "findInOrganization" | "allMessages">;
  lists: ConversationListRepo;
}) {
  return {
    /**
     * The inbox: conversations matching every filter, newest first by `sort`, each with its last
     * sent message; `nextCursor` is null on the last page.
     */
    async list(
      caller: Caller,
      query: ConversationListQuery,
    ): Promise<{ data: ConversationListItem[]; nextCursor: string | null }> {
      if (query.agentId !== undefined) refuseOtherAgent(caller, query.agentId);
      const text = query.q?.trim();
      const rows = await deps.lists.list(caller.organizationId, {
        agentId: query.agentId,
        agentIds: caller.agentIds,
        status: query.status,
        aiEnabled: query.aiEnabled,
        channel: query.channel,
        assigneeId: query.assigneeId === UNASSIGNED ? null : query.assigneeId,
        text: text === "" ? undefined : text,
        sort: query.sort,
        after: query.cursor ? decodeCursor(query.cursor, query.sort) : undefined,
        limit: query.limit + 1,
      });
      const page = rows.slice(0, query.limit);
      const data = page.map((row) => ({
        ...toConversationView(row.conversation, row.contact?.id ? row.contact : null, row.assignee),
        lastMessage: row.lastMessage,
      }));
      const last = page.at(-1);
      const more = rows.length > query.limit && last;
      return {
        data,
        nextCursor: more ? encodeCursor(query.sort, last.cursorAt, last.conversation.id) : null,
      };
    },

    /** By the id clients use; `agentId` says which when several agents use that id. */
    async get(
      caller: Caller,
      conversationId: string,
      agentId?: string,
    ): Promise<ConversationView & { messages: MessageView[] }> {
      const found = await findConversationOfOrganization(
        deps.conversations,
        caller,
        conversationId,
        agentId,
      );
      const messages = await deps.conversations.allMessages(
        caller.organizationId,
        found.conversation.id,
      );
      return {
        ...toConversationView(
          found.conversation,
          found.contact?.id ? found.contact : null,
          found.assignee,
        ),
        messages: messages.map(toMessageView),
      };
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
