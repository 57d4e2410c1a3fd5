import { AppError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AgentRow } from "../agents/agent-repo.ts";
import type { AgentService } from "../agents/agent-service.ts";
import { type Caller, refuseOtherAgent } from "../caller.ts";
import type { Passage } from "../knowledge/knowledge-search.ts";
import type { Sampling } from "../query/answer-input.ts";
import type { RunOptions } from "../query/answer-pipeline.ts";
import type { QueryRequest, QueryResponse } from "../query/query-request.ts";
import type { PrepareOptions, QueryService } from "../query/query-service.ts";
import type { AnsweredMessageRepo } from "./answered-message-repo.ts";
import { invalidParam, modelNotFound, OpenAiError } from "./openai-error.ts";
import type { ChatCompletionRequest, ResponseRequest } from "./openai-requests.ts";
import { type CallerTurn, callerTurnOf } from "./openai-turn.ts";

/** An agent as OpenAI's `model` object. */
export type ModelView = { id: string; object: "model"; created: number; owned_by: string };

/** An answer checked, reserved and ready to run: every 4xx has been decided. */
export type PreparedOpenAiAnswer = {
  /** The agent (the `model` of the answer). */
  agentId: string;
  /** The id the answer will be stored under: response ids are made of it. */
  messageId: string;
  /** When the request was accepted, in unix seconds. */
  created: number;
  passages: readonly Passage[];
  run(options?: RunOptions): Promise<QueryResponse>;
};

export type OpenAiServiceDeps = {
  agents: Pick<AgentService, "requireAgent" | "list">;
  query: Pick<QueryService, "prepare">;
  answeredMessages: Pick<AnsweredMessageRepo, "findAgentMessage">;
};

const RESPONSE_ID_PREFIX = "resp_";

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

const toModelView = (agent: { name: string; organizationId: string; createdAt: Date }) =>
  ({
    id: agent.name,
    object: "model",
    created: unixSeconds(agent.createdAt),
    owned_by: agent.organizationId,
  }) satisfies ModelView;

/**
 * The name of an agent as a model: its handle when the handle leads to it (the first agent with
 * that handle, as `model` resolves it), else its id. Pickers such as Open WebUI's show the name;
 * the id keeps working as `model` either way.
 */
function modelNameOf(agents: readonly { id: string; handle: string | null }[], agentId: string) {
  const agent = agents.find((candidate) => candidate.id === agentId);
  const handle = agent?.handle;
  if (!handle) return agentId;
  return agents.find((candidate) => candidate.handle === handle)?.id === agentId ? handle : agentId;
}

/** The Responses API id of an answer: its message id, so the response needs no table. */
export const responseIdOf = (messageId: string) => `${RESPONSE_ID_PREFIX}${messageId}`;

/**
 * The OpenAI-compatible API over the one answer pipeline of POST /api/agents/{id}/query: an
 * agent is a model, a chat completion or a response is a query (same reservation, charge,
 * conversation and messages), with the caller's messages as the history.
 */
export function createOpenAiService(deps: OpenAiServiceDeps) {
  /**
   * The organization's agent with this id, or else the oldest with this handle; 403 for one
   * outside the agents of a key made for some.
   */
  async function resolveModel(caller: Caller, model: string): Promise<AgentRow> {
    const agent = await findModel(caller, model);
    refuseOtherAgent(caller, agent.id);
    return agent;
  }

  async function findModel(caller: Caller, model: string): Promise<AgentRow> {
    try {
      return await deps.agents.requireAgent(caller.organizationId, model);
    } catch (error) {
      if (!(error instanceof AppError) || error.type !== "NOT_FOUND") throw error;
    }
    const byHandle = (await deps.agents.list(caller)).find((agent) => agent.handle === model);
    if (!byHandle) throw modelNotFound(model);
    return deps.agents.requireAgent(caller.organizationId, byHandle.id);
  }

  /** The conversation a previous response belongs to; 404 for one of another agent or org. */
  async function conversationOfResponse(caller: Caller, agent: AgentRow, responseId: string) {
    const messageId = responseId.startsWith(RESPONSE_ID_PREFIX)
      ? responseId.slice(RESPONSE_ID_PREFIX.length)
      : "";
    const found = messageId
      ? await deps.answeredMessages.findAgentMessage(caller.organizationId, messageId)
      : null;
    if (!found || found.agentId !== agent.id) {
      throw new OpenAiError(
        "NOT_FOUND",
        `Previous response with id '${responseId}' not found.`,
        "previous_response_id",
        "previous_response_not_found",
      );
    }
    return found.conversationId;
  }

  async function prepareAnswer(
    caller: Caller,
    agent: AgentRow,
    turn: CallerTurn,
    fields: { conversationId?: string; visitorId?: string; sampling: Sampling },
  ): Promise<PreparedOpenAiAnswer> {
    const request: QueryRequest = {
      query: turn.question,
      streaming: false,
      ...(fields.conversationId ? { conversationId: fields.conversationId } : {}),
      ...(fields.visitorId ? { visitorId: fields.visitorId } : {}),
      ...(turn.systemPrompt ? { systemPrompt: turn.systemPrompt } : {}),
    };
    const messageId = newId();
    const options: PrepareOptions = {
      inline: true,
      messageId,
      sampling: fields.sampling,
      // Messages sent before the question are the history; none sent: the stored conversation's.
      ...(turn.history.length > 0 ? { history: turn.history } : {}),
    };
    const created = unixSeconds(new Date());
    const prepared = await deps.query.prepare(caller, agent.id, request, options);
    if (prepared.kind !== "answer") throw new Error("an inline query was queued");
    return {
      agentId: agent.id,
      messageId,
      created,
      passages: prepared.passages,
      run: prepared.run,
    };
  }

  const samplingOf = (temperature?: number | null, maxOutputTokens?: number | null) => ({
    ...(temperature !== null && temperature !== undefined ? { temperature } : {}),
    ...(maxOutputTokens ? { maxOutputTokens } : {}),
  });

  return {
    /** The agents as models, each named as a model picker should show it (`modelNameOf`). */
    async listModels(caller: Caller): Promise<ModelView[]> {
      const agents = await deps.agents.list(caller);
      return agents.map((agent) =>
        toModelView({
          name: modelNameOf(agents, agent.id),
          organizationId: caller.organizationId,
          createdAt: new Date(agent.createdAt),
        }),
      );
    },

    async getModel(caller: Caller, model: string): Promise<ModelView> {
      const agent = await resolveModel(caller, model);
      const name = modelNameOf(await deps.agents.list(caller), agent.id);
      return toModelView({ ...agent, name });
    },

    async prepareChatCompletion(
      caller: Caller,
      body: ChatCompletionRequest,
    ): Promise<PreparedOpenAiAnswer> {
      const agent = await resolveModel(caller, body.model);
      return prepareAnswer(caller, agent, callerTurnOf(body.messages, "messages"), {
        conversationId: body.metadata?.conversation_id,
        visitorId: body.user,
        sampling: samplingOf(body.temperature, body.max_completion_tokens ?? body.max_tokens),
      });
    },

    async prepareResponse(caller: Caller, body: ResponseRequest): Promise<PreparedOpenAiAnswer> {
      const agent = await resolveModel(caller, body.model);
      const messages =
        typeof body.input === "string"
          ? [{ role: "user" as const, content: body.input }]
          : body.input;
      const turn = callerTurnOf(messages, "input", body.instructions);
      const named = body.metadata?.conversation_id;
      if (named && body.previous_response_id) {
        throw invalidParam(
          "previous_response_id",
          "Send either previous_response_id or metadata.conversation_id, not both",
        );
      }
      const conversationId = body.previous_response_id
        ? await conversationOfResponse(caller, agent, body.previous_response_id)
        : named;
      return prepareAnswer(caller, agent, turn, {
        conversationId,
        visitorId: body.user,
        sampling: samplingOf(body.temperature, body.max_output_tokens),
      });
    },
  };
}

export type OpenAiService = ReturnType<typeof createOpenAiService>;
