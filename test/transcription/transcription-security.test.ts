import { describe, expect } from "vitest";
import { balanceOf, grantCredits, setBilling } from "../billing/billing-helpers.ts";
import { wavFile } from "./audio-builders.ts";
import {
  insertAgent,
  transcribe,
  transcriptionEvents,
  transcriptionTest,
} from "./transcription-helpers.ts";

const RATE_LIMIT = 4;

const test = transcriptionTest({
  orgName: "Owner",
  env: { TRANSCRIBE_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) },
});

let nextAddress = 1;
/** A fresh client address per test, so the per-IP rate limit only matters where it is tested. */
const freshAddress = () => `10.0.0.${nextAddress++}`;

const audio = () => ({ bytes: wavFile({ seconds: 1 }) });

describe("401: agentId missing, unknown or not public", () => {
  test("refuses a missing or blank agentId", async ({ app }) => {
    for (const agentId of [undefined, "", "   "]) {
      const response = await transcribe(app, {
        file: audio(),
        remoteAddress: freshAddress(),
        ...(agentId === undefined ? {} : { agentId }),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({
        type: "UNAUTHORIZED",
        error: "agentId is required: agentId must be the id of a public agent",
      });
    }
  });

  test("answers an unknown and a private agent alike, so private ids cannot be probed", async ({
    app,
    privateAgentId,
  }) => {
    const unknown = await transcribe(app, {
      agentId: "ckunknownagent000000000000",
      file: audio(),
      remoteAddress: freshAddress(),
    });
    const hidden = await transcribe(app, {
      agentId: privateAgentId,
      file: audio(),
      remoteAddress: freshAddress(),
    });
    for (const response of [unknown, hidden]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({
        type: "UNAUTHORIZED",
        error: "agentId must be the id of a public agent",
      });
    }
  });

  test("ignores API keys: even the owner's key does not open a private agent", async ({
    app,
    org,
    privateAgentId,
  }) => {
    const response = await transcribe(
      app,
      { agentId: privateAgentId, file: audio(), remoteAddress: freshAddress() },
      org.auth,
    );
    expect(response.statusCode).toBe(401);
  });

  test("checks the agent before the file, and nothing reaches the provider", async ({
    app,
    org,
    fake,
    privateAgentId,
  }) => {
    const response = await transcribe(app, {
      agentId: privateAgentId,
      file: { bytes: Buffer.from("not audio"), name: "x.wav" },
      remoteAddress: freshAddress(),
    });
    expect(response.statusCode).toBe(401);
    expect(fake.requests).toHaveLength(0);
    expect(await transcriptionEvents(app, org)).toHaveLength(0);
  });
});

describe("402: the agent's organization cannot run", () => {
  test("refuses while the subscription is past due, before calling the provider", async ({
    app,
    fake,
  }) => {
    const overdue = await app.createOrganization("Overdue");
    const agentId = await insertAgent(app, overdue, "public");
    await setBilling(app, overdue.id, { subscriptionStatus: "past_due" });
    const response = await transcribe(app, {
      agentId,
      file: audio(),
      remoteAddress: freshAddress(),
    });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ type: "USAGE_LIMIT" });
    expect(fake.requests).toHaveLength(0);
    expect(await transcriptionEvents(app, overdue)).toHaveLength(0);
  });

  test("spends the last credits, then refuses the next transcription", async ({ app, fake }) => {
    const nearlyEmpty = await app.createOrganization("Nearly empty");
    const agentId = await insertAgent(app, nearlyEmpty, "public");
    // 0.0001 credits is one second of whisper-1; two seconds are asked, what remains is taken.
    await grantCredits(app, nearlyEmpty.id, 0.0001);
    const address = freshAddress();
    const first = await transcribe(app, {
      agentId,
      file: { bytes: wavFile({ seconds: 2 }) },
      remoteAddress: address,
    });
    expect(first.statusCode).toBe(200);
    const [event] = await transcriptionEvents(app, nearlyEmpty);
    expect(event).toMatchObject({ units: 2, creditsCharged: 0.0001 });
    expect(await balanceOf(app, nearlyEmpty)).toMatchObject({
      canRun: false,
      blockReason: "no_credits",
    });

    const second = await transcribe(app, {
      agentId,
      file: audio(),
      remoteAddress: address,
    });
    expect(second.statusCode).toBe(402);
    expect(await transcriptionEvents(app, nearlyEmpty)).toHaveLength(1);
    expect(fake.requests).toHaveLength(1);
    fake.requests.length = 0;
  });
});

describe("429: per client IP", () => {
  test(`allows ${RATE_LIMIT} calls a minute from one address, then refuses; others still pass`, async ({
    app,
    publicAgentId,
    privateAgentId,
  }) => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let call = 0; call <= RATE_LIMIT; call += 1) {
      // Refused calls count too: the limit protects the endpoint, not only the provider.
      const response = await transcribe(app, {
        agentId: call % 2 ? publicAgentId : privateAgentId,
        file: audio(),
        remoteAddress: address,
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.json()).toMatchObject({ type: "RATE_LIMITED" });
        expect(response.json().error).toMatch(/^Too many transcriptions from this address/);
        expect(response.headers["retry-after"]).toBeDefined();
      }
    }
    expect(statuses).toEqual([401, 200, 401, 200, 429]);

    const elsewhere = await transcribe(app, {
      agentId: publicAgentId,
      file: audio(),
      remoteAddress: freshAddress(),
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});
