import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai-server.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import { wavFile } from "./audio-builders.ts";
import { insertAgent, transcribe, transcriptionTest } from "./transcription-helpers.ts";

const redisUrl = process.env.TEST_REDIS_URL;
const LIMIT = 3;

const test = transcriptionTest({
  orgName: "Busy",
  env: { TRANSCRIBE_RATE_LIMIT_PER_MINUTE: String(LIMIT) },
});

/** A random documentation-range address, so runs sharing one Redis never collide. */
const randomIp = () => `198.18.${randomInt(0, 255)}.${randomInt(1, 254)}`;

const countStatuses = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});

describe("the rate limit under concurrency (in memory)", () => {
  test("lets exactly the configured number through when calls arrive together", async ({
    app,
    fake,
    publicAgentId,
  }) => {
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: 7 }, () =>
        transcribe(app, {
          agentId: publicAgentId,
          file: { bytes: wavFile({ seconds: 0.5 }) },
          remoteAddress: ip,
        }),
      ),
    );
    expect(countStatuses(responses.map((response) => response.statusCode))).toEqual({
      200: LIMIT,
      429: 7 - LIMIT,
    });
    expect(fake.requests).toHaveLength(LIMIT);
  });

  test("rejects a bad value of the settings at boot, naming them", async () => {
    await expect(startTestApp({ env: { TRANSCRIBE_RATE_LIMIT_PER_MINUTE: "0" } })).rejects.toThrow(
      /TRANSCRIBE_RATE_LIMIT_PER_MINUTE/,
    );
    await expect(startTestApp({ env: { TRANSCRIBE_MAX_BYTES: "25MB" } })).rejects.toThrow(
      /TRANSCRIBE_MAX_BYTES/,
    );
    await expect(startTestApp({ env: { TRANSCRIBE_TIMEOUT_MS: "-1" } })).rejects.toThrow(
      /TRANSCRIBE_TIMEOUT_MS/,
    );
    await expect(startTestApp({ env: { TRANSCRIPTION_MODEL: "acme:whisper-9" } })).rejects.toThrow(
      /^TRANSCRIPTION_MODEL: "acme:whisper-9" is not a model of the form provider:model/,
    );
  });
});

describe.skipIf(!redisUrl)("the rate limit shared through Redis", () => {
  let fake: FakeOpenAI;
  let first: TestApp;
  let second: TestApp;
  let agentId: string;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    const env = {
      REDIS_URL: redisUrl!,
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: fake.url,
      TRANSCRIBE_RATE_LIMIT_PER_MINUTE: String(LIMIT),
    };
    first = await startTestApp({ env });
    second = await startTestApp({ env, database: first.database });
    agentId = await insertAgent(first, await first.createOrganization("Shared"), "public");
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await fake?.close();
  });

  test("two API instances share one limit per IP", async () => {
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        transcribe(index % 2 ? first : second, {
          agentId,
          file: { bytes: wavFile({ seconds: 0.5 }) },
          remoteAddress: ip,
        }),
      ),
    );
    expect(countStatuses(responses.map((response) => response.statusCode))).toEqual({
      200: LIMIT,
      429: 8 - LIMIT,
    });
  });
});
