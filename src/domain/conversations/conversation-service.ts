import { invalid } from "../../lib/errors.ts";
import { type Caller, refuseOtherAgent } from "../caller.ts";
import { findConversationOfOrganization } from "./conversation-lookup.ts";
import type { ConversationRepo } from "./conversation-repo.ts";
import {
  type ConversationView,
  type MessageView,
  toConversationView,
  toMessageView,
} from "./conversation-view.ts";

// What PostgreSQL prints for a timestamptz: "2024-05-01 12:00:00.123456+00".
const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/** Opaque list cursor: the exact createdAt and the id of the last item of the previous page. */
function encodeCursor(cursorAt: string, id: string): string {
  return Buffer.from(`${cursorAt}|${id}`).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!id || !createdAt || !TIMESTAMP_TEXT.test(createdAt)) {
    throw invalid("cursor is not a cursor this endpoint returned", [
      { path: "querystring.cursor", message: "is malformed" },
    ]);
  }
  return { createdAt, id };
}

/** The read side of conversations: the dashboard extensions of docs/contracts.md. */
export function createConversationService(deps: { conversations: ConversationRepo }) {
  return {
    /** Newest first; `nextCursor` is null on the last page. */
    async list(
      caller: Caller,
      query: { agentId?: string; cursor?: string; limit: number },
    ): Promise<{ data: ConversationView[]; nextCursor: string | null }> {
      if (query.agentId !== undefined) refuseOtherAgent(caller, query.agentId);
      const rows = await deps.conversations.list(caller.organizationId, {
        agentId: query.agentId,
        agentIds: caller.agentIds,
        before: query.cursor ? decodeCursor(query.cursor) : undefined,
        limit: query.limit + 1,
      });
      const page = rows.slice(0, query.limit);
      const data = page.map((row) =>
        toConversationView(row.conversation, row.contact?.id ? row.contact : null, row.assignee),
      );
      const last = page.at(-1);
      const more = rows.length > query.limit && last;
      return { data, nextCursor: more ? encodeCursor(last.cursorAt, last.conversation.id) : null };
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
