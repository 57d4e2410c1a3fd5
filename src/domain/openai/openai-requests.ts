import { z } from "zod";
import { clientIdSchema } from "../conversations/message-fields.ts";

// The request bodies of the OpenAI-compatible API: the fields agentdesk reads, as OpenAI names
// them. Fields it does not read (top_p, tools, response_format…) are accepted and ignored.

const MESSAGE_CHARS = 100_000;
const MAX_MESSAGES = 500;
const MAX_PARTS = 100;

const modelField = z
  .string()
  .min(1)
  .max(200)
  .describe("The id of an agent of the organization, or its handle");

const roles = z.enum(["system", "developer", "user", "assistant"], {
  error: "must be system, developer, user or assistant (tool messages are not supported)",
});

const metadataField = z
  .object({
    conversation_id: clientIdSchema
      .optional()
      .describe("Continues this conversation of the agent (created with this id when unknown)"),
  })
  .catchall(z.string().max(512))
  .refine(
    (metadata) =>
      Object.keys(metadata).length <= 16 && Object.keys(metadata).every((key) => key.length <= 64),
    "must have at most 16 keys of at most 64 characters",
  )
  .nullish();

const temperatureField = z.number().min(0).max(2).nullish();
const tokenLimit = z.number().int().min(1).max(1_000_000).nullish();

const chatContent = z.union(
  [
    z.string().max(MESSAGE_CHARS),
    z
      .array(z.object({ type: z.literal("text"), text: z.string().max(MESSAGE_CHARS) }))
      .max(MAX_PARTS),
  ],
  { error: "must be a string or a list of text parts ({type: 'text', text})" },
);

/** The body of POST /v1/chat/completions. */
export const chatCompletionBody = z.object({
  model: modelField,
  messages: z
    .array(z.object({ role: roles, content: chatContent, name: z.string().max(64).optional() }))
    .min(1)
    .max(MAX_MESSAGES),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  temperature: temperatureField,
  max_tokens: tokenLimit,
  max_completion_tokens: tokenLimit,
  n: z.literal(1, { error: "only one choice (n = 1) is supported" }).nullish(),
  user: clientIdSchema.optional().describe("Stored as the conversation's visitorId"),
  metadata: metadataField,
});

export type ChatCompletionRequest = z.infer<typeof chatCompletionBody>;

const responseContent = z.union(
  [
    z.string().max(MESSAGE_CHARS),
    z
      .array(
        z.object({
          type: z.enum(["input_text", "output_text", "text"]),
          text: z.string().max(MESSAGE_CHARS),
        }),
      )
      .max(MAX_PARTS),
  ],
  { error: "must be a string or a list of text parts ({type: 'input_text', text})" },
);

/** The body of POST /v1/responses. */
export const responseBody = z.object({
  model: modelField,
  input: z.union(
    [
      z.string().max(MESSAGE_CHARS),
      z
        .array(
          z.object({
            type: z.literal("message").optional(),
            role: roles,
            content: responseContent,
          }),
        )
        .min(1)
        .max(MAX_MESSAGES),
    ],
    { error: "must be a string or a list of messages ({role, content})" },
  ),
  instructions: z.string().max(MESSAGE_CHARS).nullish(),
  previous_response_id: z.string().max(300).nullish(),
  stream: z.boolean().nullish(),
  temperature: temperatureField,
  max_output_tokens: tokenLimit,
  user: clientIdSchema.optional().describe("Stored as the conversation's visitorId"),
  metadata: metadataField,
});

export type ResponseRequest = z.infer<typeof responseBody>;
