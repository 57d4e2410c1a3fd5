import { createParser, type EventSourceMessage } from "eventsource-parser";
import { describe, expect } from "vitest";
import type { FakeOpenAI } from "../fakes/openai-server.ts";
import { modelTest } from "./model-fixtures.ts";

const test = modelTest({ apiKey: "sk-fake" });

const post = (fake: FakeOpenAI, path: string, body: unknown, key = "sk-fake") =>
  fetch(`${fake.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });

type ChatCompletion = { choices: Array<{ message: { content: string | null } }> };
const contentOf = async (response: Response) =>
  ((await response.json()) as ChatCompletion).choices[0]?.message.content;

async function sseEvents(response: Response): Promise<string[]> {
  const events: string[] = [];
  const parser = createParser({ onEvent: (event: EventSourceMessage) => events.push(event.data) });
  parser.feed(await response.text());
  return events;
}

const chat = { model: "gpt-test", messages: [{ role: "user", content: "ping pong" }] };

describe("fake OpenAI server wire format", () => {
  test("streams SSE chunks, a finish chunk, the usage chunk only when asked, then [DONE]", async ({
    fake,
  }) => {
    const plain = await post(fake, "/chat/completions", { ...chat, stream: true });
    expect(plain.headers.get("content-type")).toBe("text/event-stream");
    const events = await sseEvents(plain);
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((data) => JSON.parse(data));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? null)).toEqual([
      "",
      "Answer: ",
      "ping ",
      "pong",
      null,
    ]);
    expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);

    const withUsage = await sseEvents(
      await post(fake, "/chat/completions", {
        ...chat,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const usageChunk = JSON.parse(withUsage.at(-2) ?? "{}");
    expect(usageChunk).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 },
    });
  });

  test("answers from a function of the request, in queue order, then falls back to the default", async ({
    fake,
  }) => {
    fake.script(
      (request) => ({
        text: `you sent ${(request.body?.messages as unknown[] | undefined)?.length} message(s)`,
      }),
      {
        text: "second",
      },
    );
    const replies = [];
    for (let index = 0; index < 3; index += 1) {
      replies.push(await contentOf(await post(fake, "/chat/completions", chat)));
    }
    expect(replies).toEqual(["you sent 1 message(s)", "second", "Answer: ping pong"]);
  });

  test("refuses a wrong key and unknown routes with OpenAI error bodies", async ({ fake }) => {
    const unauthorized = await post(fake, "/chat/completions", chat, "sk-wrong");
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toMatchObject({
      error: { message: "Incorrect API key provided" },
    });
    const missing = await post(fake, "/completions", chat);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: {
        message: "Unknown route POST /v1/completions",
        type: "invalid_request_error",
        code: null,
      },
    });
  });

  test("delays the reply and records the request until then", async ({ fake }) => {
    fake.script({ delayMs: 300, text: "late" });
    const pending = post(fake, "/chat/completions", chat);
    const seen = await fake.waitFor((request) => request.path === "/v1/chat/completions");
    expect(seen.body).toMatchObject(chat);
    expect(await contentOf(await pending)).toBe("late");
  });
});
