import { z } from "zod";

export { chatCompletionBody, responseBody } from "../../../domain/openai/openai-requests.ts";

export const modelParams = z.object({
  model: z.string().min(1).max(200).describe("An agent id, or an agent's handle"),
});

export const modelSchema = z.object({
  id: z.string().describe("The agent's id"),
  object: z.literal("model"),
  created: z.number().int().describe("When the agent was created, in unix seconds"),
  owned_by: z.string().describe("The organization's id"),
});

export const modelListSchema = z.object({ object: z.literal("list"), data: z.array(modelSchema) });

/** What agentdesk adds to OpenAI's objects; standard clients ignore it. */
const extensionSchema = z
  .object({
    sources: z.array(z.object({ source: z.string(), chunk: z.string() })),
    conversationId: z.string(),
    messageId: z.string(),
    visitorId: z.string(),
    requestHuman: z.boolean(),
    status: z.string().describe("The conversation's status: UNRESOLVED, RESOLVED, HUMAN_REQUESTED"),
    cost: z.number().describe("Credits charged for the answer"),
  })
  .describe("agentdesk's extension: what POST /api/agents/{id}/query answers besides the text");

export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  system_fingerprint: z.null(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal("assistant"),
        content: z.string(),
        refusal: z.null(),
      }),
      logprobs: z.null(),
      finish_reason: z.literal("stop"),
    }),
  ),
  usage: z.object({
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
    total_tokens: z.number().int(),
  }),
  agentdesk: extensionSchema,
});

const span = { start_index: z.number().int(), end_index: z.number().int() };

const annotationSchema = z.union([
  z.object({ type: z.literal("url_citation"), url: z.string(), title: z.string(), ...span }),
  z.object({
    type: z.literal("file_citation"),
    file_id: z.string().describe("The datasource's id"),
    filename: z.string().describe("The datasource's name"),
    index: z.number().int(),
    ...span,
  }),
]);

export const responseSchema = z.object({
  id: z.string().describe("resp_<messageId>: continue with previous_response_id"),
  object: z.literal("response"),
  created_at: z.number().int(),
  status: z.enum(["in_progress", "completed", "failed"]),
  model: z.string(),
  output: z.array(
    z.object({
      type: z.literal("message"),
      id: z.string(),
      status: z.enum(["in_progress", "completed"]),
      role: z.literal("assistant"),
      content: z.array(
        z.object({
          type: z.literal("output_text"),
          text: z.string(),
          annotations: z.array(annotationSchema),
        }),
      ),
    }),
  ),
  usage: z
    .object({
      input_tokens: z.number().int(),
      input_tokens_details: z.object({ cached_tokens: z.number().int() }),
      output_tokens: z.number().int(),
      output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
      total_tokens: z.number().int(),
    })
    .nullable(),
  instructions: z.string().nullable(),
  previous_response_id: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  temperature: z.number().nullable(),
  max_output_tokens: z.number().int().nullable(),
  top_p: z.null(),
  parallel_tool_calls: z.boolean(),
  tool_choice: z.literal("none"),
  tools: z.array(z.never()),
  error: z.null(),
  incomplete_details: z.null(),
  agentdesk: extensionSchema.optional(),
});

export type ResponseObject = z.infer<typeof responseSchema>;
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;
