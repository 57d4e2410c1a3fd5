import { z } from "zod";
import {
  CHANNEL_TYPES,
  channelChangesSchema,
  channelCreationSchema,
} from "../../../domain/channels/channel-request.ts";
import type { ChannelService } from "../../../domain/channels/channel-service.ts";
import type { App } from "../../app-types.ts";
import { callerOf } from "../../plugins/auth.ts";

export type ChannelRouteDeps = { channels: ChannelService };

const channelSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  type: z.enum(CHANNEL_TYPES),
  name: z.string(),
  enabled: z.boolean(),
  status: z.enum(["active", "error"]),
  webhookUrl: z
    .string()
    .describe("Where the platform sends events: PUBLIC_URL/channels/{type}/{id}"),
  config: z
    .record(z.string(), z.union([z.string(), z.record(z.string(), z.string())]))
    .describe('The settings; credentials masked as "••••" and their last 4 characters'),
  inboundToken: z
    .string()
    .optional()
    .describe(
      "Mail only, in the answer to creating the channel: the bearer token of webhookUrl, never shown again",
    ),
  lastError: z.string().nullable().describe("What the platform said when it last refused us"),
  lastEventAt: z.string().nullable().describe("When the platform last reached this channel"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const agentParams = z.object({ agentId: z.string().min(1).max(200) });
const channelParams = z.object({ id: z.string().min(1).max(200) });

/** Channels of agents (DESIGN.md §11, docs/channels.md). */
export function registerChannelRoutes(app: App, deps: ChannelRouteDeps): void {
  app.post(
    "/api/agents/:agentId/channels",
    {
      config: { auth: "key", permission: "channels:write", agentParam: "agentId" },
      schema: {
        operationId: "createChannel",
        tags: ["channels"],
        "x-extension": true,
        summary: "Connect the agent to a messaging platform",
        params: agentParams,
        body: channelCreationSchema,
        response: { 201: channelSchema },
      },
    },
    async (request, reply) => {
      const created = await deps.channels.create(
        callerOf(request),
        request.params.agentId,
        request.body,
      );
      reply.code(201);
      return created;
    },
  );

  app.get(
    "/api/agents/:agentId/channels",
    {
      config: { auth: "key", permission: "channels:read", agentParam: "agentId" },
      schema: {
        operationId: "listChannels",
        tags: ["channels"],
        "x-extension": true,
        summary: "The agent's channels",
        params: agentParams,
        response: { 200: z.object({ data: z.array(channelSchema) }) },
      },
    },
    async (request) => deps.channels.list(callerOf(request), request.params.agentId),
  );

  app.get(
    "/api/channels/:id",
    {
      config: { auth: "key", permission: "channels:read" },
      schema: {
        operationId: "getChannel",
        tags: ["channels"],
        "x-extension": true,
        summary: "One channel, with its status, last error and last event",
        params: channelParams,
        response: { 200: channelSchema },
      },
    },
    async (request) => deps.channels.get(callerOf(request), request.params.id),
  );

  app.patch(
    "/api/channels/:id",
    {
      config: { auth: "key", permission: "channels:write" },
      schema: {
        operationId: "updateChannel",
        tags: ["channels"],
        "x-extension": true,
        summary: "Rename, enable or disable a channel, or change its settings",
        params: channelParams,
        body: channelChangesSchema,
        response: { 200: channelSchema },
      },
    },
    async (request) => deps.channels.update(callerOf(request), request.params.id, request.body),
  );

  app.delete(
    "/api/channels/:id",
    {
      config: { auth: "key", permission: "channels:write" },
      schema: {
        operationId: "deleteChannel",
        tags: ["channels"],
        "x-extension": true,
        summary: "Delete a channel and remove its webhook from the platform",
        params: channelParams,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await deps.channels.delete(callerOf(request), request.params.id);
      reply.code(204);
      return null;
    },
  );
}
