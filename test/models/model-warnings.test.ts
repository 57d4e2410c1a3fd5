import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/lib/logger.ts";
import { createAgent, createFundedOrganization } from "../harness/agents.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";

/** Every line the app logs, as production writes it (JSON, at debug). */
const written: string[] = [];
const logger = createLogger("debug", "json", { write: (line: string) => written.push(line) });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ logger });
}, 60_000);
afterAll(() => app.close());

describe("the AI SDK's warnings", () => {
  it("go to the JSON log at debug, never to the console as plain text", async () => {
    const warn = vi.spyOn(console, "warn");
    const info = vi.spyOn(console, "info");
    try {
      const org = await createFundedOrganization(app);
      // No provider key: the offline responder answers, and it supports no tools.
      const agent = await createAgent(app, org);
      const answered = await app.client(org.auth).agents.query(agent.id, { query: "Hello?" });
      expect(answered.status).toBe(200);
      const printed = [...warn.mock.calls, ...info.mock.calls].flat().join("\n");
      expect(printed).not.toContain("AI SDK Warning");
      const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.find((line) => line.msg === "model warnings")).toMatchObject({
        level: 20,
        provider: "local",
        model: "local-extractive",
      });
    } finally {
      warn.mockRestore();
      info.mockRestore();
    }
  });
});
