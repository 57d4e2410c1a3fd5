/** The widget's calls to its own origin, all under /api/public/agents/{agentId} (no API key). */

export type Source = { source: string; chunk?: string };
export type Answer = {
  answer: string;
  sources: Source[];
  messageId: string;
  conversationId: string;
};
export type StoredMessage = {
  id: string;
  from: "human" | "agent";
  text: string;
  sources: Source[] | null;
};

/** A message of the visitor's conversation as its live stream tells it. */
export type LiveMessage = {
  id: string;
  from: "human" | "agent";
  text: string;
  /** A person's reply: who wrote it. */
  operator: { name: string } | null;
};

/** An answer of the API other than 2xx: the status says which message the visitor sees. */
export class ApiError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new ApiError(response.status);
  return (await response.json()) as T;
}

export function createApi(base: string, agentId: string) {
  const agentUrl = `${base}/api/public/agents/${encodeURIComponent(agentId)}`;
  return {
    profile: () => fetch(agentUrl).then((r) => json<{ name: string }>(r)),

    /**
     * Follows the visitor's conversation as it happens (operators' replies); the browser's
     * EventSource reconnects by itself, resuming after the last event it got.
     */
    follow(
      conversationId: string,
      visitorId: string,
      onMessage: (message: LiveMessage) => void,
    ): () => void {
      const source = new EventSource(
        `${agentUrl}/conversations/${encodeURIComponent(conversationId)}/events?visitorId=${encodeURIComponent(visitorId)}`,
      );
      source.addEventListener("message.created", (event) => {
        onMessage(
          (JSON.parse((event as MessageEvent<string>).data) as { message: LiveMessage }).message,
        );
      });
      return () => source.close();
    },

    conversation: (conversationId: string, visitorId: string) =>
      fetch(
        `${agentUrl}/conversations/${encodeURIComponent(conversationId)}?visitorId=${encodeURIComponent(visitorId)}`,
      ).then((r) => json<{ messages: StoredMessage[] }>(r)),

    /** Streams the answer: `onText` gets each fragment, the promise the full answer. */
    async ask(
      body: { query: string; visitorId: string; conversationId?: string },
      onText: (fragment: string) => void,
    ): Promise<Answer> {
      const response = await fetch(`${agentUrl}/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...body, streaming: true }),
      });
      if (!response.ok || !response.body) throw new ApiError(response.status);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      let answer: Answer | null = null;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, "\n");
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
          let event = "message";
          const data: string[] = [];
          for (const line of frame.split("\n")) {
            if (line.startsWith("event:")) event = line.slice(6).trim();
            else if (line.startsWith("data:")) data.push(line.slice(line[5] === " " ? 6 : 5));
          }
          const text = data.join("\n");
          if (event === "answer") onText(text);
          else if (event === "endpoint_response") answer = JSON.parse(text) as Answer;
          else if (text.startsWith("[ERROR]")) throw new ApiError(500);
        }
      }
      if (!answer) throw new ApiError(500);
      return answer;
    },

    /** "Helpful" / "Not helpful": the annotation of an answer in the visitor's conversation. */
    annotate: (
      answer: { conversationId: string; messageId: string; visitorId: string },
      sentiment: "good" | "bad",
      comment: string,
    ) =>
      fetch(
        `${agentUrl}/conversations/${encodeURIComponent(answer.conversationId)}/messages/${encodeURIComponent(answer.messageId)}/annotation`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ visitorId: answer.visitorId, sentiment, comment }),
        },
      ).then((r) => json<unknown>(r)),

    transcribe(audio: Blob): Promise<{ text: string }> {
      const form = new FormData();
      form.append("file", audio, "voice-message.webm");
      return fetch(`${agentUrl}/transcribe-audio`, { method: "POST", body: form }).then((r) =>
        json<{ text: string }>(r),
      );
    },
  };
}

export type Api = ReturnType<typeof createApi>;
