import { type QueryClient, useQuery } from "@tanstack/react-query";
import { type ApiData, api, unwrap } from "../../api/client.ts";
import type { paths } from "../../api/schema.ts";

export type ConversationDetail = ApiData<"/api/conversations/{id}", "get">;
export type Message = ConversationDetail["messages"][number];
export type ConversationStatus = ConversationDetail["status"];
export type Person = NonNullable<ConversationDetail["assignee"]>;
export type Contact = NonNullable<ConversationDetail["contact"]>;
export type ConversationChange =
  paths["/api/conversations/{id}"]["patch"]["requestBody"]["content"]["application/json"];

/** Query keys of the area: every one starts with "conversations". */
export const conversationKeys = {
  all: ["conversations"] as const,
  lists: ["conversations", "list"] as const,
  agents: ["conversations", "agents"] as const,
  members: (organizationId: string) => ["conversations", "members", organizationId] as const,
  details: ["conversations", "detail"] as const,
  /** `agentId` as the address gives it (empty when it does not). */
  detail: (agentId: string, id: string) => ["conversations", "detail", agentId, id] as const,
};

/**
 * Changes the cached conversation after a PATCH or a reply, whichever key it was read under
 * (with or without the agent in the address), and reads it again.
 */
export function updateCachedConversation(
  queryClient: QueryClient,
  target: { id: string; agentId: string },
  change: (old: ConversationDetail) => ConversationDetail,
) {
  queryClient.setQueriesData<ConversationDetail>({ queryKey: conversationKeys.details }, (old) =>
    old && old.id === target.id && old.agentId === target.agentId ? change(old) : old,
  );
  void queryClient.invalidateQueries({ queryKey: conversationKeys.details });
  void queryClient.invalidateQueries({ queryKey: conversationKeys.lists });
}

/**
 * The organization's agents: names for the inbox's rows and its agent filter. Not `enabled`, it
 * only reads what the inbox already loaded.
 */
export function useAgents(enabled = true) {
  return useQuery({
    queryKey: conversationKeys.agents,
    queryFn: () => unwrap(api.GET("/api/agents")),
    enabled,
    staleTime: 60_000,
  });
}

/**
 * The organization's members who can answer (owners, admins, members), read only once `enabled`:
 * a list of people is asked for when someone reaches for a control that needs it.
 */
export function useAnswerers(organizationId: string, enabled: boolean) {
  return useQuery({
    queryKey: conversationKeys.members(organizationId),
    queryFn: async () => {
      const { data } = await unwrap(
        api.GET("/api/organizations/{id}/members", { params: { path: { id: organizationId } } }),
      );
      return data.filter((member) => member.role !== "viewer");
    },
    enabled,
    staleTime: 60_000,
  });
}

/** The conversation with every message, oldest first. */
export function useConversation(id: string, agentId: string | null) {
  return useQuery({
    queryKey: conversationKeys.detail(agentId ?? "", id),
    queryFn: () =>
      unwrap(
        api.GET("/api/conversations/{id}", {
          params: { path: { id }, query: agentId ? { agentId } : {} },
        }),
      ),
  });
}

/** The console page of a conversation (the link the service mails to operators). */
export const conversationPath = (conversation: { id: string; agentId: string }) =>
  `/conversations/${encodeURIComponent(conversation.id)}?agentId=${encodeURIComponent(
    conversation.agentId,
  )}`;
