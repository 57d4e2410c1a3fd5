import { describe, expect } from "vitest";
import type { AgentTranscriptionRequest } from "../../src/domain/transcription/transcription-service.ts";
import { setBilling } from "../billing/billing-helpers.ts";
import type { TestApp } from "../harness/app.ts";
import { oggOpusFile, wavFile, webmFile } from "./audio-builders.ts";
import { insertAgent, transcriptionEvents, transcriptionTest } from "./transcription-helpers.ts";

const MAX_BYTES = 64 * 1024;

const test = transcriptionTest({
  orgName: "Channels",
  env: { TRANSCRIBE_MAX_BYTES: String(MAX_BYTES) },
});

// A channel answers for any agent of its organization, public or not: `privateAgentId`.

/** The method a messaging channel calls, on the service the running app was built with. */
const transcribeForAgent = (app: TestApp, request: AgentTranscriptionRequest) =>
  app.runtime.services.transcription.transcribeForAgent(request);

describe("transcribeForAgent (messaging channels)", () => {
  test("transcribes an Ogg Opus voice note for a private agent and charges its seconds", async ({
    app,
    org,
    fake,
    privateAgentId,
  }) => {
    fake.scriptTranscription({ text: "voice note from Telegram" });
    const audio = oggOpusFile({ packets: 250 });
    const result = await transcribeForAgent(app, {
      organizationId: org.id,
      agentId: privateAgentId,
      audio,
      requestId: "telegram-update-1",
      metadata: { channel: "telegram", format: "mp3", bytes: 1 },
    });
    expect(result).toEqual({ text: "voice note from Telegram", durationSeconds: 5 });
    const upload = fake.requests.at(-1);
    expect(upload?.form?.file).toMatchObject({ name: "audio.ogg", type: "audio/ogg" });
    const [event] = await transcriptionEvents(app, org);
    // The audio's own facts win over whatever the caller's metadata says.
    expect(event).toMatchObject({
      agentId: privateAgentId,
      feature: "transcription",
      provider: "openai",
      modelName: "whisper-1",
      units: 5,
      metadata: {
        channel: "telegram",
        format: "ogg",
        durationSource: "ogg-granule-position",
        bytes: audio.length,
        requestId: "telegram-update-1",
      },
    });
  });

  test("takes WAV and WebM as the public endpoint does", async ({
    app,
    org,
    fake,
    privateAgentId,
  }) => {
    const samples: Array<[Uint8Array, number]> = [
      [wavFile({ seconds: 1.5 }), 1.5],
      [webmFile({ frames: 100, durationMs: 2000 }), 2],
    ];
    for (const [audio, seconds] of samples) {
      fake.scriptTranscription({ text: "heard" });
      const result = await transcribeForAgent(app, {
        organizationId: org.id,
        agentId: privateAgentId,
        audio,
        requestId: "whatsapp-message-1",
      });
      expect(result).toEqual({ text: "heard", durationSeconds: seconds });
      const [event] = await transcriptionEvents(app, org);
      expect(event?.units).toBe(seconds);
    }
  });

  test("refuses bad or oversized audio before the provider and the ledger", async ({
    app,
    org,
    fake,
    privateAgentId,
  }) => {
    const requests = fake.requests.length;
    const events = (await transcriptionEvents(app, org)).length;
    const refusals: Array<[Uint8Array, object]> = [
      [
        oggOpusFile({ packets: 20 }).subarray(0, 100),
        { type: "INVALID_REQUEST", message: expect.stringMatching(/^Invalid audio file: The Ogg/) },
      ],
      [
        Buffer.from("not audio"),
        { type: "INVALID_REQUEST", message: expect.stringMatching(/neither WAV, WebM nor Ogg/) },
      ],
      [
        oggOpusFile({ packets: 10, tagsPadding: MAX_BYTES }),
        { type: "PAYLOAD_TOO_LARGE", message: "The audio file is larger than 64 KiB" },
      ],
    ];
    for (const [audio, error] of refusals) {
      await expect(
        transcribeForAgent(app, {
          organizationId: org.id,
          agentId: privateAgentId,
          audio,
          requestId: "bad",
        }),
      ).rejects.toMatchObject(error);
    }
    expect(fake.requests).toHaveLength(requests);
    expect(await transcriptionEvents(app, org)).toHaveLength(events);
  });

  test("refuses with USAGE_LIMIT when the organization cannot pay", async ({ app, fake }) => {
    const overdue = await app.createOrganization("Overdue channel");
    const overdueAgent = await insertAgent(app, overdue, "private");
    await setBilling(app, overdue.id, { subscriptionStatus: "past_due" });
    const requests = fake.requests.length;
    await expect(
      transcribeForAgent(app, {
        organizationId: overdue.id,
        agentId: overdueAgent,
        audio: oggOpusFile({ packets: 50 }),
        requestId: "overdue",
      }),
    ).rejects.toMatchObject({ type: "USAGE_LIMIT" });
    expect(fake.requests).toHaveLength(requests);
    expect(await transcriptionEvents(app, overdue)).toHaveLength(0);
  });
});
