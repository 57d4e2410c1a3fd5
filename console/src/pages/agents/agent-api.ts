import { useQuery } from "@tanstack/react-query";
import { type ApiData, api, unwrap } from "../../api/client.ts";
import type { paths } from "../../api/schema.ts";

export type Agent = ApiData<"/api/agents/{id}", "get">;
export type AgentBody =
  paths["/api/agents/{id}"]["patch"]["requestBody"]["content"]["application/json"];
export type AgentCreateBody =
  paths["/api/agents"]["post"]["requestBody"]["content"]["application/json"];
export type Datastore = ApiData<"/api/datastores", "get">[number];
export type ModelName = Agent["modelName"];

/** Every cached answer of this area starts with "agents" (the shell drops them on a switch). */
export const agentKeys = {
  all: ["agents"] as const,
  list: ["agents", "list"] as const,
  detail: (id: string) => ["agents", "detail", id] as const,
  datastores: ["agents", "datastores"] as const,
  channels: (id: string) => ["agents", "channels", id] as const,
  versions: (id: string) => ["agents", "versions", id] as const,
};

export function useAgent(agentId: string) {
  return useQuery({
    queryKey: agentKeys.detail(agentId),
    queryFn: () => unwrap(api.GET("/api/agents/{id}", { params: { path: { id: agentId } } })),
  });
}

export function useDatastores() {
  return useQuery({
    queryKey: agentKeys.datastores,
    queryFn: () => unwrap(api.GET("/api/datastores")),
  });
}

/**
 * The model names the API accepts, in the spec's order. A record, so that the compiler names any
 * model the generated schema gains or loses.
 */
const MODEL_NOTES: Record<ModelName, string> = {
  gpt_4o: "",
  gpt_4o_mini: "",
  gpt_41: "",
  gpt_41_mini: "",
  gpt_41_nano: "",
  claude_3_7_sonnet: "",
  claude_4_sonnet: "",
  gemini_2_5_flash: "",
  gemini_2_5_pro: "",
  grok_3: "",
  grok_3_beta: "",
  grok_3_fast_beta: "",
  grok_3_mini_beta: "",
  grok_3_mini_fast_beta: "",
  sonar_pro: "",
  sonar: "",
  llama_3_3_70b: "",
  llama_4_maverick_17b: "",
  model_route: "a rule: picks a model by prompt length",
};

export const MODEL_NAMES = Object.keys(MODEL_NOTES) as ModelName[];

export function modelLabel(name: ModelName): string {
  const note = MODEL_NOTES[name];
  return note ? `${name} (${note})` : name;
}

export const isModelName = (value: unknown): value is ModelName =>
  typeof value === "string" && Object.hasOwn(MODEL_NOTES, value);

/** What a page says after the previous one created or deleted an agent (navigation state). */
export type AgentNotice = { notice?: string };
