import { z } from "zod";
import { DELIVERY_STATUSES } from "../../../domain/channels/channel-request.ts";
import {
  type ConversationService,
  UNASSIGNED,
} from "../../../domain/conversations/conversation-service.ts";
import { channelSchema } from "../../../domain/conversations/message-fields.ts";
import type { RetentionService } from "../../../domain/retention/retention-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

export type ConversationRouteDeps = {
  conversations: ConversationService;
  retention: Pick<RetentionService, "deleteConversation">;
};

/** A conversation named by its id, with its agent where several agents use that id. */
export const conversationParams = z.object({ id: z.string().min(1).max(200) });
export const conversationAgentQuery = z.object({
  agentId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("The conversation's agent: required when several agents use this id"),
});

const contactSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  userId: z.string().nullable(),
});

const personSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
});

const STATUSES = ["UNRESOLVED", "RESOLVED", "HUMAN_REQUESTED"] as const;

export const conversationSchema = z.object({
  id: z.string().describe("The conversationId of the query endpoints: unique per agent"),
  agentId: z.string(),
  visitorId: z.string(),
  channel: z.string(),
  channelExternalId: z.string().nullable(),
  status: z.enum(STATUSES),
  aiEnabled: z.boolean().describe("False while a person handles the conversation"),
  assignee: personSchema.nullable().describe("The member handling the conversation"),
  contact: contactSchema.nullable(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const messageSchema = z.object({
  id: z.string(),
  from: z.enum(["human", "agent"]),
  text: z.string(),
  sources: z.array(z.looseObject({ source: z.string(), chunk: z.string() })),
  usage: z
    .object({
      completionTokens: z.number(),
      promptTokens: z.number(),
      totalTokens: z.number(),
      cost: z.number(),
    })
    .nullable(),
  attachments: z.array(z.object({ url: z.string() })),
  metadata: z.record(z.string(), z.unknown()),
  isDraft: z.boolean(),
  agentId: z.string().nullable(),
  agentVersion: z
    .number()
    .int()
    .nullable()
    .describe(
      "Extension: the agent's version (GET /api/agents/{id}/versions) whose fields wrote this AI answer; null for other messages",
    ),
  createdAt: z.string(),
  user: personSchema
    .optional()
    .describe("An operator's reply: who wrote it (a member, or the key's name)"),
  delivery: z
    .object({
      status: z.enum(DELIVERY_STATUSES),
      platformMessageId: z.string().nullable(),
      error: z.string().nullable(),
    })
    .optional()
    .describe("Messages sent through a channel: what the platform did with them"),
});

const listItemSchema = conversationSchema.extend({
  lastMessage: z
    .object({
      from: z.enum(["human", "agent"]),
      text: z.string().describe("Its first 280 characters"),
      createdAt: z.string(),
    })
    .nullable()
    .describe("The last message sent in the conversation (drafts aside); null when none was"),
});

const listQuery = z.object({
  agentId: z.string().min(1).max(200).optional().describe("Only this agent's conversations"),
  status: z.enum(STATUSES).optional().describe("Only the conversations in this status"),
  aiEnabled: z
    .enum(["true", "false"])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "true"))
    .describe("true: only the conversations the AI answers; false: only those a person handles"),
  channel: channelSchema.optional().describe("Only the conversations of this channel"),
  assigneeId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      `Only the conversations assigned to this member (a user id); \`${UNASSIGNED}\`: only those nobody is assigned to`,
    ),
  q: z
    .string()
    .max(500)
    .optional()
    .describe(
      "Only the conversations where this text appears, whatever its case: in a message " +
        "(drafts aside), or in the contact's name, e-mail or phone number. `%` and `_` are " +
        "plain characters; an empty or blank q filters nothing",
    ),
  sort: z
    .enum(["createdAt", "lastActivity"])
    .default("createdAt")
    .describe(
      "createdAt: the newest conversations first; lastActivity: the conversation with the " +
        "latest message or change of state (status, aiEnabled, assignee) first, by updatedAt",
    ),
  limit: z.coerce.number().int().min(1).max(100).default(50).describe("Conversations per page"),
  cursor: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe(
      "The nextCursor of the previous page. It holds a place in the order: it needs the same " +
        "sort (400 otherwise); with other filters the page starts after that place",
    ),
});

/** GET /api/conversations, GET and DELETE /api/conversations/{id} (extensions, docs/contracts.md). */
export function registerConversationRoutes(app: App, deps: ConversationRouteDeps): void {
  app.get(
    "/api/conversations",
    {
      config: { auth: "key", permission: "conversations:read" },
      schema: {
        operationId: "listConversations",
        tags: ["conversations"],
        "x-extension": true,
        summary:
          "Conversations of the organization, newest first, filtered, with their last message",
        description:
          "The inbox: every filter given must hold. `nextCursor` is null on the last page. A " +
          "conversation that moves in the order while a client pages (sort=lastActivity) shows " +
          "up again at the top of a new first page.",
        querystring: listQuery,
        response: {
          200: z.object({ data: z.array(listItemSchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    async (request) => deps.conversations.list(callerOf(request), request.query),
  );

  app.get(
    "/api/conversations/:id",
    {
      config: { auth: "key", permission: "conversations:read" },
      schema: {
        operationId: "getConversation",
        tags: ["conversations"],
        "x-extension": true,
        summary: "One conversation with its messages in the order they were written",
        params: conversationParams,
        querystring: conversationAgentQuery,
        response: {
          200: conversationSchema.extend({ messages: z.array(messageSchema) }),
        },
      },
    },
    async (request) =>
      deps.conversations.get(callerOf(request), request.params.id, request.query.agentId),
  );

  app.delete(
    "/api/conversations/:id",
    {
      config: { auth: "key", permission: "conversations:write" },
      schema: {
        operationId: "deleteConversation",
        tags: ["conversations"],
        "x-extension": true,
        summary:
          "Erase a conversation: its messages, annotations and webhook records; its consumption " +
          "events are kept without the conversation (docs/retention.md)",
        params: conversationParams,
        querystring: conversationAgentQuery,
        response: { 200: z.object({ success: z.literal(true) }) },
        errors: { 404: "No conversation with this id in the caller's organization" },
      },
    },
    async (request) =>
      deps.retention.deleteConversation(
        callerOf(request),
        request.params.id,
        request.query.agentId,
      ),
  );
}
