import { describe, expect } from "vitest";
import { oggOpusFile, oggPageOffset, wavFile, webmFile } from "./audio-builders.ts";
import {
  multipartBody,
  type TranscriptionFixtures,
  transcribe,
  transcriptionEvents,
  transcriptionTest,
} from "./transcription-helpers.ts";

const MAX_BYTES = 64 * 1024;

// The per-IP limit has its own test file; every request here comes from 127.0.0.1.
const test = transcriptionTest({
  orgName: "Bad input",
  env: {
    TRANSCRIBE_MAX_BYTES: String(MAX_BYTES),
    TRANSCRIBE_RATE_LIMIT_PER_MINUTE: "1000",
  },
});

/** Nothing reached the provider and nothing was charged. */
async function expectNoSideEffects({ app, org, fake }: TranscriptionFixtures) {
  expect(fake.requests).toHaveLength(0);
  expect(await transcriptionEvents(app, org)).toHaveLength(0);
}

function expectError(
  response: { statusCode: number; json(): unknown },
  status: number,
  type: string,
  message: RegExp,
) {
  expect(response.statusCode).toBe(status);
  const body = response.json() as Record<string, unknown>;
  expect(body).toMatchObject({ type, requestId: expect.any(String) });
  expect(body.error).toMatch(message);
}

describe("400: no file or not WAV/WebM/Ogg Opus", () => {
  test("refuses a form without a file", async ({ app, org, fake, publicAgentId }) => {
    const response = await transcribe(app, { agentId: publicAgentId });
    expectError(response, 400, "INVALID_REQUEST", /^file is required/);
    await expectNoSideEffects({ app, org, fake });
  });

  test("refuses an empty file, and audio under another field name", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    const empty = await transcribe(app, {
      agentId: publicAgentId,
      file: { bytes: new Uint8Array() },
    });
    expectError(empty, 400, "INVALID_REQUEST", /^file is required/);
    const elsewhere = await transcribe(app, {
      agentId: publicAgentId,
      file: { bytes: wavFile({ seconds: 1 }), field: "audio" },
    });
    expectError(elsewhere, 400, "INVALID_REQUEST", /^file is required/);
    await expectNoSideEffects({ app, org, fake });
  });

  test("refuses a text file whose name and MIME type claim WAV", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    const response = await transcribe(app, {
      agentId: publicAgentId,
      file: {
        bytes: Buffer.from("Not audio at all, just words in a file.\n"),
        name: "recording.wav",
        type: "audio/wav",
      },
    });
    expectError(response, 400, "INVALID_REQUEST", /neither WAV, WebM nor Ogg Opus/);
    await expectNoSideEffects({ app, org, fake });
  });

  test("refuses other audio and containers dressed as WAV or WebM", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    const riffAvi = Buffer.from(wavFile({ seconds: 1 }));
    riffAvi.write("AVI ", 8, "ascii");
    const impostors = [
      { bytes: Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x0fmp3 frames", "latin1"), name: "a.wav" },
      { bytes: Buffer.from("fLaC\x00\x00\x00\x22 flac frames", "latin1"), name: "a.webm" },
      { bytes: riffAvi, name: "a.wav" },
    ];
    for (const file of impostors) {
      const response = await transcribe(app, { agentId: publicAgentId, file });
      expectError(response, 400, "INVALID_REQUEST", /neither WAV, WebM nor Ogg Opus/);
    }
    await expectNoSideEffects({ app, org, fake });
  });

  test("says what is wrong with a damaged or non-audio WAV/WebM", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    const cases: Array<[Uint8Array, RegExp]> = [
      [wavFile({ seconds: 1 }).subarray(0, 36), /WAV file has no data chunk/],
      [wavFile({ seconds: 0 }), /no audio samples/],
      [webmFile({ frames: 20, docType: "matroska" }), /Matroska file but not WebM/],
      [webmFile({ frames: 20, trackType: 1 }), /no audio track/],
    ];
    for (const [bytes, message] of cases) {
      const response = await transcribe(app, {
        agentId: publicAgentId,
        file: { bytes, type: "audio/webm" },
      });
      expectError(response, 400, "INVALID_REQUEST", message);
    }
    await expectNoSideEffects({ app, org, fake });
  });

  test("refuses Vorbis, truncated or damaged Ogg with 400, naming the formats it takes", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    const file = oggOpusFile({ packets: 100 });
    const damaged = Buffer.from(file);
    damaged.write("Oggs", oggPageOffset(file, 3), "ascii");
    const cases: Array<[Uint8Array, RegExp]> = [
      [
        oggOpusFile({ packets: 20, identification: Buffer.from("\x01vorbis\x00\x00", "latin1") }),
        /^Invalid audio file: Ogg audio must be Opus\./,
      ],
      [file.subarray(0, file.length - 3), /Ogg file is truncated: page \d+ ends past the end/],
      [file.subarray(0, 40), /Ogg file is truncated/],
      [damaged, /Ogg file is damaged/],
      [Buffer.concat([file, oggOpusFile({ packets: 100 })]), /more than one stream/],
    ];
    for (const [bytes, message] of cases) {
      const response = await transcribe(app, {
        agentId: publicAgentId,
        file: { bytes, name: "voice.ogg", type: "audio/ogg" },
      });
      expectError(response, 400, "INVALID_REQUEST", message);
      expect(response.json().error).toMatch(
        / Send audio\/wav, audio\/webm or audio\/ogg \(Opus\)\.$/,
      );
    }
    await expectNoSideEffects({ app, org, fake });
  });

  test("refuses a body that is not multipart/form-data", async ({ app, publicAgentId }) => {
    const response = await app.api.inject({
      method: "POST",
      url: "/api/transcribe-audio",
      payload: { agentId: publicAgentId, file: "UklGRg==" },
    });
    expectError(response, 400, "INVALID_REQUEST", /multipart\/form-data/);
  });

  test("refuses two files and a malformed multipart body", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    const twoFiles = await multipartBody([
      ["agentId", publicAgentId],
      ["file", { bytes: wavFile({ seconds: 0.5 }) }],
      ["file", { bytes: wavFile({ seconds: 0.5 }) }],
    ]);
    const two = await app.api.inject({
      method: "POST",
      url: "/api/transcribe-audio",
      ...twoFiles,
    });
    expectError(two, 400, "INVALID_REQUEST", /exactly one audio file/);

    const valid = await multipartBody([
      ["agentId", publicAgentId],
      ["file", { bytes: wavFile({ seconds: 0.5 }) }],
    ]);
    const cut = await app.api.inject({
      method: "POST",
      url: "/api/transcribe-audio",
      headers: valid.headers,
      payload: valid.payload.subarray(0, valid.payload.length - 60),
    });
    expectError(cut, 400, "INVALID_REQUEST", /could not be read/);
    await expectNoSideEffects({ app, org, fake });
  });
});

describe("400: text PostgreSQL cannot store", () => {
  test("refuses a NUL in agentId or in the file's name before looking the agent up", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    const audio = { bytes: wavFile({ seconds: 0.5 }) };
    for (const input of [
      { agentId: "x\u0000y", file: audio },
      { agentId: `${publicAgentId}\u0000`, file: audio },
      { agentId: publicAgentId, file: { ...audio, name: "a\u0000.wav" } },
    ]) {
      const response = await transcribe(app, input);
      expectError(response, 400, "INVALID_REQUEST", /^Text must not contain NUL/);
    }
    await expectNoSideEffects({ app, org, fake });
  });
});

describe("413: over TRANSCRIBE_MAX_BYTES", () => {
  // 16 kHz 16-bit mono is 32,000 bytes a second: 2.04 s of it is just under 64 KiB with its header.
  const atCap = wavFile({ seconds: 2.04 });
  const overCap = wavFile({ seconds: 2.1 });

  test("accepts a file at the cap and refuses one over it, declared by Content-Length", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    expect(atCap.length).toBeLessThanOrEqual(MAX_BYTES);
    expect(overCap.length).toBeGreaterThan(MAX_BYTES);
    const big = await transcribe(app, { agentId: publicAgentId, file: { bytes: overCap } });
    expectError(big, 413, "PAYLOAD_TOO_LARGE", /^The audio file is larger than 64 KiB$/);
    const huge = await transcribe(app, {
      agentId: publicAgentId,
      file: { bytes: wavFile({ seconds: 30 }) },
    });
    expectError(huge, 413, "PAYLOAD_TOO_LARGE", /larger than/);
    expect(fake.requests).toHaveLength(0);

    const fits = await transcribe(app, { agentId: publicAgentId, file: { bytes: atCap } });
    expect(fits.statusCode).toBe(200);
    expect(fake.requests).toHaveLength(1);
    fake.requests.length = 0;
    const [event] = await transcriptionEvents(app, org);
    expect(event?.units).toBe(2.04);
  });

  test("refuses an Ogg Opus file over the cap as it refuses WAV", async ({
    app,
    org,
    fake,
    publicAgentId,
  }) => {
    const charged = (await transcriptionEvents(app, org)).length;
    const overCapOgg = oggOpusFile({ packets: 50, tagsPadding: MAX_BYTES });
    expect(overCapOgg.length).toBeGreaterThan(MAX_BYTES);
    const response = await transcribe(app, {
      agentId: publicAgentId,
      file: { bytes: overCapOgg, type: "audio/ogg" },
    });
    expectError(response, 413, "PAYLOAD_TOO_LARGE", /^The audio file is larger than 64 KiB$/);
    expect(fake.requests).toHaveLength(0);
    expect(await transcriptionEvents(app, org)).toHaveLength(charged);
  });

  // A stream body goes out chunked, so only the multipart parser's own file limit can stop it.
  test("refuses a chunked upload without Content-Length once it passes the cap", async ({
    app,
    fake,
    publicAgentId,
  }) => {
    const base = await app.listen("api");
    const body = await multipartBody([
      ["agentId", publicAgentId],
      ["file", { bytes: overCap }],
    ]);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < body.payload.length; at += 8192) {
          controller.enqueue(body.payload.subarray(at, at + 8192));
        }
        controller.close();
      },
    });
    const response = await fetch(`${base}/api/transcribe-audio`, {
      method: "POST",
      headers: body.headers,
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ type: "PAYLOAD_TOO_LARGE" });
    expect(fake.requests).toHaveLength(0);
  });
});
