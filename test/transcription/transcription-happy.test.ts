import { describe, expect } from "vitest";
import { balanceOf, grantCredits } from "../billing/billing-helpers.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai-server.ts";
import { oggOpusFile, wavFile, webmFile } from "./audio-builders.ts";
import {
  insertAgent,
  multipartBody,
  startTranscriptionApp,
  transcribe,
  transcriptionEvents,
  transcriptionTest,
} from "./transcription-helpers.ts";

const test = transcriptionTest({ orgName: "Voices" });

const lastUpload = (fake: FakeOpenAI) => {
  const request = fake.requests.at(-1);
  if (!request?.form) throw new Error("the fake received no multipart request");
  return request;
};

describe("POST /api/transcribe-audio", () => {
  test("transcribes a WAV for a public agent without any API key and charges its seconds", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    fake.scriptTranscription({ text: "Hello, I would like to book a table." });
    const audio = wavFile({ seconds: 2.5 });
    const response = await transcribe(app, {
      agentId: publicAgentId,
      file: { bytes: audio, name: "note.wav", type: "audio/wav" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ text: "Hello, I would like to book a table." });

    const upload = lastUpload(fake);
    expect(upload.path).toBe("/v1/audio/transcriptions");
    expect(upload.headers.authorization).toBe("Bearer sk-test");
    expect(upload.form?.fields.model).toBe("whisper-1");
    expect(upload.form?.file?.bytes.equals(audio)).toBe(true);
    expect(upload.form?.file?.type).toBe("audio/wav");

    const [event] = await transcriptionEvents(app, org);
    expect(event).toMatchObject({
      agentId: publicAgentId,
      feature: "transcription",
      provider: "openai",
      modelName: "whisper-1",
      inputTokens: 0,
      outputTokens: 0,
      units: 2.5,
      metadata: { format: "wav", durationSource: "wav-data-chunk", bytes: audio.length },
    });
  });

  test("transcribes a WebM, with the file before the agentId, billed by its Duration", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    fake.scriptTranscription({ text: "webm speech" });
    const audio = webmFile({ frames: 150, durationMs: 3000 });
    const response = await transcribe(app, {
      agentId: publicAgentId,
      file: { bytes: audio, name: "voice.webm", type: "audio/webm" },
      fileFirst: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ text: "webm speech" });
    expect(lastUpload(fake).form?.file).toMatchObject({ name: "audio.webm", type: "audio/webm" });
    const [event] = await transcriptionEvents(app, org);
    expect(event).toMatchObject({
      units: 3,
      metadata: { format: "webm", durationSource: "webm-segment-duration" },
    });
  });

  test("transcribes an Ogg Opus voice note, sent to the provider as audio.ogg", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    fake.scriptTranscription({ text: "a voice note from a phone" });
    const audio = oggOpusFile({ packets: 150, finalGranule: BigInt(312 + 150 * 960 - 480) });
    const response = await transcribe(app, {
      agentId: publicAgentId,
      file: { bytes: audio, name: "voice.oga", type: "audio/ogg; codecs=opus" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ text: "a voice note from a phone" });
    const upload = lastUpload(fake);
    expect(upload.form?.file).toMatchObject({ name: "audio.ogg", type: "audio/ogg" });
    expect(upload.form?.file?.bytes.equals(audio)).toBe(true);
    const [event] = await transcriptionEvents(app, org);
    expect(event).toMatchObject({
      agentId: publicAgentId,
      feature: "transcription",
      units: 2.99,
      metadata: { format: "ogg", durationSource: "ogg-granule-position", bytes: audio.length },
    });
  });

  test("bills a live recording without Duration to its last audio block", async ({
    app,
    org,
    publicAgentId,
  }) => {
    const audio = webmFile({ frames: 100, live: true, durationMs: null });
    const response = await transcribe(app, {
      agentId: publicAgentId,
      file: { bytes: audio, name: "blob", type: "application/octet-stream" },
    });
    expect(response.statusCode).toBe(200);
    const [event] = await transcriptionEvents(app, org);
    expect(event).toMatchObject({ units: 1.98, metadata: { durationSource: "webm-last-block" } });
  });

  test("trusts the bytes over the name and type: WebM sent as recording.wav goes as WebM", async ({
    app,
    fake,
    publicAgentId,
  }) => {
    const audio = webmFile({ frames: 50, durationMs: 1000 });
    const response = await transcribe(app, {
      agentId: publicAgentId,
      file: { bytes: audio, name: "recording.wav", type: "audio/wav" },
    });
    expect(response.statusCode).toBe(200);
    expect(lastUpload(fake).form?.file).toMatchObject({ name: "audio.webm", type: "audio/webm" });
  });

  test("answers silence with an empty text, and still charges the seconds sent", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    fake.scriptTranscription({ text: "" });
    const before = (await transcriptionEvents(app, org)).length;
    const response = await transcribe(app, {
      agentId: publicAgentId,
      file: { bytes: wavFile({ seconds: 0.75 }) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ text: "" });
    const events = await transcriptionEvents(app, org);
    expect(events).toHaveLength(before + 1);
    expect(events[0]?.units).toBe(0.75);
  });

  test("debits whisper-1 at 0.006 credits per minute from the agent's organization", async ({
    app,
    org,
    publicAgentId,
  }) => {
    const funded = await app.createOrganization("Funded");
    const fundedAgent = await insertAgent(app, funded, "public");
    await grantCredits(app, funded.id, 1);
    const response = await transcribe(app, {
      agentId: fundedAgent,
      file: { bytes: wavFile({ seconds: 60, sampleRate: 8_000 }) },
    });
    expect(response.statusCode).toBe(200);
    const [event] = await transcriptionEvents(app, funded);
    expect(event).toMatchObject({ units: 60, creditsCharged: 0.006, agentId: fundedAgent });
    expect((await balanceOf(app, funded)).credits).toEqual({
      total: 1,
      used: 0.006,
      remaining: 0.994,
    });
    // The other organization's ledger is untouched by this charge.
    const own = await transcriptionEvents(app, org);
    expect(own.every((row) => row.agentId === publicAgentId)).toBe(true);
  });
});

describe("OpenAPI", () => {
  test("documents the multipart form, without security, and the {text} answer", async ({ app }) => {
    const response = await app.client().request({ method: "GET", url: "/api/openapi.json" });
    const operation = response.body.paths["/api/transcribe-audio"].post;
    expect(operation.security).toEqual([]);
    expect(operation.requestBody.content["multipart/form-data"].schema).toMatchObject({
      properties: { file: { type: "string", format: "binary" }, agentId: { type: "string" } },
      required: ["file", "agentId"],
    });
    expect(operation.responses["200"].content["application/json"].schema).toMatchObject({
      properties: { text: { type: "string" } },
    });
  });
});

describe("a client that goes away", () => {
  test("stops the provider call and is not charged", async ({ app, org, fake, publicAgentId }) => {
    // TRANSCRIBE_TIMEOUT_MS is two minutes here: only the client's leaving can close it.
    fake.requests.length = 0;
    fake.scriptTranscription({ hang: true });
    const before = (await transcriptionEvents(app, org)).length;
    const base = await app.listen("api");
    const body = await multipartBody([
      ["agentId", publicAgentId],
      ["file", { bytes: wavFile({ seconds: 1 }) }],
    ]);
    const client = new AbortController();
    const pending = fetch(`${base}/api/transcribe-audio`, {
      method: "POST",
      headers: body.headers,
      body: body.payload,
      signal: client.signal,
    }).catch((error: unknown) => error);
    await fake.waitFor((recorded) => recorded.path === "/v1/audio/transcriptions");
    client.abort();
    expect(await pending).toBeInstanceOf(Error);
    const request = await fake.waitFor((recorded) => recorded.closedByClient, 2_000);
    expect(request.closedByClient).toBe(true);
    expect(await transcriptionEvents(app, org)).toHaveLength(before);
  });
});

describe("a dedicated speech-to-text endpoint", () => {
  test("sends audio to TRANSCRIPTION_BASE_URL with TRANSCRIPTION_API_KEY, never the OpenAI key", async () => {
    const whisper = await startFakeOpenAI({ apiKey: "local-whisper-key" });
    const dedicated = await startTranscriptionApp({
      TRANSCRIPTION_BASE_URL: whisper.url,
      TRANSCRIPTION_API_KEY: "local-whisper-key",
    });
    try {
      const owner = await dedicated.app.createOrganization("Local");
      const publicAgent = await insertAgent(dedicated.app, owner, "public");
      whisper.scriptTranscription({ text: "from the local server" });
      const response = await transcribe(dedicated.app, {
        agentId: publicAgent,
        file: { bytes: wavFile({ seconds: 1 }) },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ text: "from the local server" });
      expect(whisper.requests).toHaveLength(1);
      expect(whisper.requests[0]?.headers.authorization).toBe("Bearer local-whisper-key");
      expect(dedicated.fake.requests).toHaveLength(0);
    } finally {
      await dedicated.close();
      await whisper.close();
    }
  });
});
