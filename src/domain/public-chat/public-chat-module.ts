import { createPublicChatService, type PublicChatDeps } from "./public-chat-service.ts";

/** The public chat of public agents: their visitors' messages, through the query path. */
export function createPublicChatModule(deps: PublicChatDeps) {
  return { publicChat: createPublicChatService(deps) };
}
