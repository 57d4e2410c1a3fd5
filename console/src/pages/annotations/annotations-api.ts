import { useQuery } from "@tanstack/react-query";
import { type ApiData, api, unwrap } from "../../api/client.ts";

export type Annotation = ApiData<"/api/annotations", "get">[number];
export type Sentiment = "good" | "bad";

/** What GET /api/annotations filters on (the spec's list query). */
export type AnnotationQuery = {
  agentId?: string;
  conversationId?: string;
  messageId?: string;
  status?: string;
  sentiment?: string;
};

/** Query keys of the area: every one starts with "annotations". */
export const annotationKeys = {
  all: ["annotations"] as const,
  lists: ["annotations", "list"] as const,
  list: (query: AnnotationQuery) => ["annotations", "list", query] as const,
  ofConversation: (agentId: string, conversationId: string) =>
    ["annotations", "conversation", agentId, conversationId] as const,
  detail: (id: string) => ["annotations", "detail", id] as const,
  tags: ["annotations", "tags"] as const,
  statuses: ["annotations", "statuses"] as const,
};

export type AnnotationPage = { items: Annotation[]; nextCursor: string | null };

/**
 * One page of GET /api/annotations (20, the spec's size). The service names the next page's
 * cursor in its `x-next-cursor` header, so a full last page does not cost an empty request.
 */
export async function fetchAnnotationPage(
  query: AnnotationQuery,
  cursor: string | null,
): Promise<AnnotationPage> {
  const result = await api.GET("/api/annotations", {
    params: { query: { ...query, ...(cursor ? { cursor } : {}) } },
  });
  const items = await unwrap(Promise.resolve(result));
  return { items, nextCursor: result.response.headers.get("x-next-cursor") };
}

/** Every annotation of one conversation (pages of 20 read in turn: few conversations need two). */
export function useConversationAnnotations(agentId: string | null, conversationId: string) {
  return useQuery({
    queryKey: annotationKeys.ofConversation(agentId ?? "", conversationId),
    enabled: agentId !== null,
    queryFn: async () => {
      if (!agentId) return [];
      const all: Annotation[] = [];
      let cursor: string | null = null;
      do {
        const page = await fetchAnnotationPage({ agentId, conversationId }, cursor);
        all.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return all;
    },
  });
}

/** The organization's tags, by name (loaded when a rating form or the tag filter needs them). */
export function useAnnotationTags(enabled = true) {
  return useQuery({
    queryKey: annotationKeys.tags,
    queryFn: () => unwrap(api.GET("/api/annotation-tags")),
    enabled,
    staleTime: 60_000,
  });
}

export const SENTIMENT_LABELS: Record<Sentiment, string> = { good: "Good", bad: "Bad" };

/** The sentiment's word (the API may also return positive, negative or neutral). */
export const sentimentLabel = (sentiment: string) =>
  SENTIMENT_LABELS[sentiment.toLowerCase() as Sentiment] ?? sentiment;

export const sentimentBadge = (sentiment: string) => {
  const value = sentiment.toLowerCase();
  if (value === "good" || value === "positive") return "badge badge-ok";
  if (value === "bad" || value === "negative") return "badge badge-danger";
  return "badge";
};

/** The console page of the message an annotation is about, scrolled to it. */
export const messagePath = (
  annotation: Pick<Annotation, "agentId" | "conversationId" | "messageId">,
) =>
  `/conversations/${encodeURIComponent(annotation.conversationId)}?agentId=${encodeURIComponent(
    annotation.agentId,
  )}#message-${encodeURIComponent(annotation.messageId)}`;
