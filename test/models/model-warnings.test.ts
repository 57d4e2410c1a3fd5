import { generateText, tool, zodSchema } from "ai";
import { describe, expect, type MockInstance, vi } from "vitest";
import { z } from "zod";
import { createLogger } from "../../src/lib/logger.ts";
import { createOfflineResponder } from "../../src/models/offline-responder.ts";
import { appTest } from "../harness/fixtures.ts";
import { postSse, summarize } from "../harness/sse-client.ts";

/** Every line the app logs, as production writes it (JSON, at debug). */
const written: string[] = [];
const logger = createLogger("debug", "json", { write: (line: string) => written.push(line) });

// No provider key: the offline responder answers. The app, started before the first test, installs
// the hook that sends the AI SDK's warnings to the log: every test runs with it.
const test = appTest({ logger, offline: true });

/** What reached the console (where the AI SDK prints its warnings without a hook) while `run` ran. */
async function printedDuring(run: () => Promise<void>): Promise<string> {
  const spies: MockInstance[] = [
    vi.spyOn(console, "warn"),
    vi.spyOn(console, "info"),
    vi.spyOn(console, "log"),
  ];
  try {
    await run();
    return spies.flatMap((spy) => spy.mock.calls.flat()).join("\n");
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

const logged = () => written.map((line) => JSON.parse(line) as Record<string, unknown>);

describe("an offline answer", () => {
  test("leaves the log JSON lines only, with no warning: no tools are offered to it", async ({
    app,
    org,
    agent,
  }) => {
    const base = await app.listen("api");
    written.length = 0;
    const printed = await printedDuring(async () => {
      const answered = await app.client(org.auth).agents.query(agent.id, { query: "Hello?" });
      expect(answered.status).toBe(200);
      const streamed = summarize(
        await postSse(`${base}/api/agents/${agent.id}/query`, org.auth, {
          query: "Hello again?",
          streaming: true,
        }),
      );
      expect(streamed.response?.answer).toMatch(/^No language model is configured/);
    });
    expect(printed).toBe("");
    expect(written.length).toBeGreaterThan(0);
    expect(logged().filter((line) => line.msg === "model warnings")).toEqual([]);
  });
});

describe("the AI SDK's warnings", () => {
  test("go to the app's JSON log at debug, never to the console as plain text", async () => {
    written.length = 0;
    // A tool offered to a model that calls none: the SDK warns, through the app's hook.
    const printed = await printedDuring(async () => {
      await generateText({
        model: createOfflineResponder(),
        prompt: "Hello?",
        tools: {
          lookup: tool({ inputSchema: zodSchema(z.object({})), execute: async () => ({}) }),
        },
      });
    });
    expect(printed).not.toContain("AI SDK Warning");
    expect(logged().find((line) => line.msg === "model warnings")).toMatchObject({
      level: 20,
      provider: "local",
      model: "local-extractive",
    });
  });
});
