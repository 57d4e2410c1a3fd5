import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { AnnotationService } from "../../../domain/annotations/annotation-service.ts";
import type { LiveEvents } from "../../../domain/events/event-module.ts";
import {
  publicAgentResponse,
  publicChatBody,
  publicConversationResponse,
} from "../../../domain/public-chat/public-chat-request.ts";
import type { PublicChatService } from "../../../domain/public-chat/public-chat-service.ts";
import type { App } from "../../app-types.ts";
import type { RouteLimit } from "../../plugins/declared-limits.ts";
import type { SsePingSettings } from "../../sse.ts";
import { streamAnswer } from "../agents/query-stream.ts";
import { registerPublicEventRoutes } from "../events/event-routes.ts";
import {
  clientGone,
  documentationOnly,
  type TranscriptionRouteDeps,
  type TranscriptionSettings,
} from "../transcription/transcription-routes.ts";
import { readAudioUpload } from "../transcription/transcription-upload.ts";
import { registerPublicChatCors } from "./public-chat-origin.ts";
import {
  publicAgentParams,
  publicAnnotationBody,
  publicAnnotationResponse,
  publicAnswerParams,
  publicChatResponse,
  publicConversationParams,
  toPublicAnswer,
  visitorQuery,
} from "./public-chat-schemas.ts";

export type PublicChatRouteDeps = {
  publicChat: PublicChatService;
  /** The spec's annotation, for a visitor's verdict on an answer. */
  annotations: Pick<AnnotationService, "upsert">;
  /** The spec's transcription, for a visitor's voice message. */
  transcription: TranscriptionRouteDeps["transcription"];
  /** The live events of a visitor's conversation (an operator's replies). */
  liveEvents: Pick<LiveEvents, "visitor">;
};

/** The settings of the public chat: its own, and those of what it shares with the API. */
export type PublicChatSettings = {
  agents: SsePingSettings;
  publicChat: {
    maxQuestionChars: number;
    visitorRateLimitPerMinute: number;
    ipRateLimitPerMinute: number;
  };
  transcription: Pick<TranscriptionSettings, "maxBytes">;
  /** PUBLIC_URL's origin: the service's own chat page is always allowed. */
  accounts: { publicOrigin: string };
};

/** What an annotation says when the visitor wrote nothing. */
const VERDICTS = { good: "Helpful (site visitor)", bad: "Not helpful (site visitor)" } as const;

const NOT_FOUND = "No public agent with this id (a private agent answers the same)";

const visitorIdOf = (request: FastifyRequest) => (request.body as { visitorId: string }).visitorId;

/**
 * The public chat's two counters, shared by the chat and its twins: per client IP, then per
 * visitorId, read from the validated body. A multipart body is read by the handler, so a
 * voice message counts by its address only.
 */
function publicChatLimits(rate: PublicChatSettings["publicChat"]) {
  const address: RouteLimit = {
    name: "public-chat:ip",
    key: (request) => request.ip,
    max: rate.ipRateLimitPerMinute,
    per: "minute",
    refusal: "Too many messages from this address",
  };
  const visitor: RouteLimit = {
    name: "public-chat:visitor",
    key: visitorIdOf,
    max: rate.visitorRateLimitPerMinute,
    per: "minute",
    refusal: "Too many messages from this visitor",
  };
  return { ofVisitor: [address, visitor], ofAddress: [address] };
}

/**
 * The public chat under /api/public, for a site's visitors without an API key (the widget): a
 * public agent's profile, its chat (the query endpoint's answer, JSON or SSE) and a visitor's
 * own conversation. In its own scope: its CORS applies to nothing else.
 */
export function registerPublicChatRoutes(
  app: App,
  deps: PublicChatRouteDeps,
  settings: PublicChatSettings,
): void {
  const limits = publicChatLimits(settings.publicChat);
  app.register(
    async (scope: App) => {
      await registerPublicChatCors(scope, deps.publicChat, settings.accounts.publicOrigin);

      scope.get(
        "/agents/:agentId",
        {
          config: { auth: "public" },
          schema: {
            operationId: "getPublicAgent",
            tags: ["public-chat"],
            summary: "What a site visitor may see of a public agent (no API key)",
            params: publicAgentParams,
            response: { 200: publicAgentResponse },
            errors: {
              403: "The request's Origin is not in the agent's allowedOrigins",
              404: NOT_FOUND,
            },
          },
        },
        async (request) => deps.publicChat.profile(request.params.agentId),
      );

      scope.post(
        "/agents/:agentId/chat",
        {
          config: { auth: "public", limits: limits.ofVisitor },
          schema: {
            operationId: "publicChat",
            tags: ["public-chat"],
            summary: "A site visitor asks a public agent (no API key; JSON, or SSE with streaming)",
            description:
              "The query endpoint's answer and stream, charged to the agent's organization, on " +
              "the website channel. Rate limited per visitorId and per client IP.",
            params: publicAgentParams,
            body: publicChatBody(settings.publicChat.maxQuestionChars),
            response: { 200: publicChatResponse },
            eventStream: true,
            errors: {
              400: "Invalid body: an unknown field, a question too long or empty, a bad visitorId",
              402: "Usage limit: the agent's organization has no credits left, or its plan blocks it",
              403: "The request's Origin is not in the agent's allowedOrigins",
              404:
                `${NOT_FOUND}; or conversationId is not a conversation this visitor started ` +
                "here (type CONVERSATION_NOT_FOUND)",
              429: "Too many messages from this visitor or this address (Retry-After)",
              500: "The message could not be processed (the model provider failed)",
              502: "The embedding model of a datastore of the agent answered with an error",
              503: "The embedding model of a datastore of the agent is not available",
            },
          },
        },
        async (request, reply) => {
          const prepared = await deps.publicChat.prepare(request.params.agentId, request.body);
          if (!request.body.streaming) return toPublicAnswer(await prepared.run());
          await streamAnswer(request, reply, settings.agents.ssePingIntervalMs, async (options) =>
            toPublicAnswer(await prepared.run(options)),
          );
          return reply;
        },
      );

      scope.get(
        "/agents/:agentId/conversations/:conversationId",
        {
          config: { auth: "public" },
          schema: {
            operationId: "getPublicConversation",
            tags: ["public-chat"],
            summary: "A visitor's own conversation with a public agent, oldest message first",
            params: publicConversationParams,
            querystring: visitorQuery,
            response: { 200: publicConversationResponse },
            errors: {
              403: "The request's Origin is not in the agent's allowedOrigins",
              404:
                `${NOT_FOUND}; or the conversation was not started here by this visitorId ` +
                "(type CONVERSATION_NOT_FOUND)",
            },
          },
        },
        async (request) =>
          deps.publicChat.conversation(
            request.params.agentId,
            request.params.conversationId,
            request.query.visitorId,
          ),
      );

      registerPublicEventRoutes(scope, deps, settings.agents);

      scope.post(
        "/agents/:agentId/conversations/:conversationId/messages/:messageId/annotation",
        {
          config: { auth: "public", limits: limits.ofVisitor },
          schema: {
            operationId: "annotatePublicAnswer",
            tags: ["public-chat"],
            summary: "A visitor marks an answer helpful or not (the spec's annotation, no API key)",
            description:
              "Creates or replaces the annotation of an answer of the agent, in a conversation " +
              "this visitor started here, as POST /api/annotations does for a public agent.",
            params: publicAnswerParams,
            body: publicAnnotationBody,
            response: { 200: publicAnnotationResponse },
            errors: {
              400: "Invalid body: an unknown field, a bad visitorId or sentiment",
              403: "The request's Origin is not in the agent's allowedOrigins",
              404:
                `${NOT_FOUND}; or the conversation is not this visitor's (type ` +
                "CONVERSATION_NOT_FOUND); or the message is not an answer in it",
              429: "Too many requests from this visitor or this address (Retry-After)",
            },
          },
        },
        async (request) => {
          const { agentId, conversationId, messageId } = request.params;
          const { visitorId, sentiment, comment } = request.body;
          await deps.publicChat.requireOwnAnswer(agentId, conversationId, visitorId, messageId);
          return deps.annotations.upsert(null, {
            messageId,
            sentiment,
            comment: comment ?? VERDICTS[sentiment],
          });
        },
      );

      // The multipart parser in a scope of its own: the JSON routes beside it keep refusing
      // multipart bodies with 415.
      await scope.register(async (upload: App) => {
        await upload.register(multipart);
        upload.post(
          "/agents/:agentId/transcribe-audio",
          {
            config: { auth: "public", limits: limits.ofAddress },
            validatorCompiler: documentationOnly,
            schema: {
              operationId: "transcribePublicAudio",
              tags: ["public-chat"],
              summary: "A visitor's voice message as text (POST /api/transcribe-audio, no API key)",
              description:
                "multipart/form-data with `file` (audio/wav, audio/webm or Ogg Opus audio/ogg); " +
                "the agent is the one of the path. Charged to the agent's organization per second " +
                "of audio.",
              consumes: ["multipart/form-data"],
              params: publicAgentParams,
              body: z.object({
                file: z.file().describe("The audio: audio/wav, audio/webm or audio/ogg (Opus)"),
              }),
              response: { 200: z.object({ text: z.string() }) },
              errors: {
                400: "No file, a file that is not audio/wav, audio/webm or Ogg Opus, or a malformed form",
                402: "Usage limit: the agent's organization cannot pay for this audio",
                403: "The request's Origin is not in the agent's allowedOrigins",
                404: NOT_FOUND,
                413: "The audio file is larger than TRANSCRIBE_MAX_BYTES",
                429: "Too many requests from this address (Retry-After)",
                500: "Transcription failed, or speech-to-text is not configured",
              },
            },
          },
          async (request, reply) => {
            const { agentId } = request.params;
            await deps.publicChat.profile(agentId);
            const upload = await readAudioUpload(request, settings.transcription.maxBytes);
            return deps.transcription.transcribe({
              file: upload.file,
              agentId,
              requestId: request.id,
              signal: clientGone(reply),
            });
          },
        );
      });
    },
    { prefix: "/api/public" },
  );
}
