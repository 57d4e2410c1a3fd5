import type { ModelRegistry } from "../../models/model-registry.ts";
import type { ProviderFactoryOptions } from "../../models/provider-factory.ts";
import type { AgentRepo } from "../agents/agent-repo.ts";
import type { Billing } from "../billing/billing-port.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import { resolveFollowUpModel } from "./follow-up-model.ts";
import { createFollowUpService } from "./follow-up-service.ts";

// As the query path: the AI SDK's two retries of a failed first request.
const MODEL_MAX_RETRIES = 2;

/** The follow-up agent with its fixed model (FOLLOW_UP_MODEL), resolved once at boot. */
export function createFollowUpModule(deps: {
  agents: AgentRepo;
  conversations: ConversationRepo;
  models: Pick<ModelRegistry, "catalog" | "resolveLanguageModel">;
  billing: Billing;
  followUpModel: string;
  providerOptions: ProviderFactoryOptions;
  modelTimeoutMs: number;
  modelMaxOutputTokens: number;
}) {
  return {
    followUps: createFollowUpService({
      agents: deps.agents,
      conversations: deps.conversations,
      billing: deps.billing,
      model: resolveFollowUpModel(deps.followUpModel, deps.models, deps.providerOptions),
      settings: {
        timeoutMs: deps.modelTimeoutMs,
        maxRetries: MODEL_MAX_RETRIES,
        maxOutputTokens: deps.modelMaxOutputTokens,
      },
    }),
  };
}
