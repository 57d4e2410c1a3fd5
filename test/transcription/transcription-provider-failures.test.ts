import { describe, expect } from "vitest";
import { wavFile } from "./audio-builders.ts";
import {
  insertAgent,
  startTranscriptionApp,
  transcribe,
  transcriptionEvents,
  transcriptionTest,
} from "./transcription-helpers.ts";

// Long enough for a retried provider error on a loaded CI machine; the hang test waits it out.
const TIMEOUT_MS = 3_000;
const PROVIDER_SECRET = "upstream detail sk-live-abc123 at /internal/whisper-pool-7";

const test = transcriptionTest({
  orgName: "Failures",
  env: { TRANSCRIBE_TIMEOUT_MS: String(TIMEOUT_MS) },
});

const audio = () => ({ bytes: wavFile({ seconds: 1 }) });

/** 500 INTERNAL, a message that says transcription failed, nothing from the provider's body. */
function expectCleanFailure(response: { statusCode: number; body: string }, reason: RegExp) {
  expect(response.statusCode).toBe(500);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "requestId", "type"]);
  expect(body.type).toBe("INTERNAL");
  expect(body.error).toMatch(/^Transcription failed: /);
  expect(body.error).toMatch(reason);
  for (const leak of ["sk-live", "whisper-pool", "127.0.0.1", "stack", "at "]) {
    expect(response.body).not.toContain(leak);
  }
}

describe("500 when the provider fails", () => {
  test("reports a provider error after one retry, without its body, and charges nothing", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    fake.scriptTranscription(
      { status: 500, errorMessage: PROVIDER_SECRET, retryAfterMs: 10 },
      { status: 503, errorMessage: PROVIDER_SECRET, retryAfterMs: 10 },
    );
    const response = await transcribe(app, { agentId: publicAgentId, file: audio() });
    expectCleanFailure(response, /the provider had an internal error \(HTTP 503\)/);
    expect(fake.requests).toHaveLength(2);
    expect(await transcriptionEvents(app, org)).toHaveLength(0);
  });

  test("does not retry a refused key", async ({ app, fake, publicAgentId }) => {
    fake.requests.length = 0;
    fake.scriptTranscription({ status: 401, errorMessage: PROVIDER_SECRET });
    const response = await transcribe(app, { agentId: publicAgentId, file: audio() });
    expectCleanFailure(response, /refused the API key \(HTTP 401\)/);
    expect(fake.requests).toHaveLength(1);
  });

  test("gives up after TRANSCRIBE_TIMEOUT_MS and closes the provider request", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    fake.requests.length = 0;
    fake.scriptTranscription({ hang: true });
    const response = await transcribe(app, { agentId: publicAgentId, file: audio() });
    expectCleanFailure(response, /did not answer in time/);
    const request = await fake.waitFor((recorded) => recorded.closedByClient);
    expect(request.path).toBe("/v1/audio/transcriptions");
    expect(await transcriptionEvents(app, org)).toHaveLength(0);
  });

  test("recovers once the provider answers again", async ({ app, org, fake, publicAgentId }) => {
    fake.scriptTranscription({ text: "back to normal" });
    const response = await transcribe(app, { agentId: publicAgentId, file: audio() });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ text: "back to normal" });
    expect(await transcriptionEvents(app, org)).toHaveLength(1);
  });
});

describe("no speech-to-text configured", () => {
  test("answers 500 without naming the server's variables, and charges nothing", async () => {
    const bare = await startTranscriptionApp({ OPENAI_API_KEY: "" });
    try {
      const owner = await bare.app.createOrganization("No keys");
      const publicAgent = await insertAgent(bare.app, owner, "public");
      const response = await transcribe(bare.app, { agentId: publicAgent, file: audio() });
      expectCleanFailure(response, /speech-to-text is not configured$/);
      expect(response.body).not.toContain("OPENAI_API_KEY");
      expect(await transcriptionEvents(bare.app, owner)).toHaveLength(0);
      expect(bare.fake.requests).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });
});
