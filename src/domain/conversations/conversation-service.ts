import { AppError, invalid } from "../../lib/errors.ts";
import type { ConversationRepo } from "./conversation-repo.ts";
import {
  type ConversationView,
  type MessageView,
  toConversationView,
  toMessageView,
} from "./conversation-view.ts";

type Caller = { organizationId: string };

/** Opaque list cursor: the createdAt and id of the last item of the previous page. */
function encodeCursor(view: ConversationView): string {
  return Buffer.from(`${view.createdAt}|${view.id}`).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [createdAt, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const date = new Date(createdAt ?? "");
  if (!id || Number.isNaN(date.getTime())) {
    throw invalid("cursor is not a cursor this endpoint returned", [
      { path: "querystring.cursor", message: "is malformed" },
    ]);
  }
  return { createdAt: date, id };
}

/** The read side of conversations: the dashboard extensions of DESIGN.md section 4. */
export function createConversationService(deps: { conversations: ConversationRepo }) {
  return {
    /** Newest first; `nextCursor` is null on the last page. */
    async list(
      caller: Caller,
      query: { agentId?: string; cursor?: string; limit: number },
    ): Promise<{ data: ConversationView[]; nextCursor: string | null }> {
      const rows = await deps.conversations.list(caller.organizationId, {
        agentId: query.agentId,
        before: query.cursor ? decodeCursor(query.cursor) : undefined,
        limit: query.limit + 1,
      });
      const data = rows
        .slice(0, query.limit)
        .map((row) => toConversationView(row.conversation, row.contact?.id ? row.contact : null));
      const last = data.at(-1);
      return { data, nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
    },

    async get(
      caller: Caller,
      conversationId: string,
    ): Promise<ConversationView & { messages: MessageView[] }> {
      const found = await deps.conversations.findById(caller.organizationId, conversationId);
      if (!found) throw new AppError("CONVERSATION_NOT_FOUND", "Conversation not found");
      const messages = await deps.conversations.allMessages(caller.organizationId, conversationId);
      return {
        ...toConversationView(found.conversation, found.contact?.id ? found.contact : null),
        messages: messages.map(toMessageView),
      };
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
