import { z } from "zod";

// The request bodies and the query answer are defined with the domain types they validate
// (QueryRequest, AgentMessageRequest, QueryResponse).
export { queryAgentBody } from "../../../domain/conversations/agent-message-request.ts";
export { clientIdSchema } from "../../../domain/conversations/message-fields.ts";
export { queryBody, queryResponse } from "../../../domain/query/query-request.ts";

export const queryAgentResponse = z.object({
  messageId: z.string(),
  conversationId: z.string(),
  visitorId: z.string(),
  status: z.string(),
});
