import { agents } from "../../src/db/schema/index.ts";
import { newId } from "../../src/lib/ids.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai-server.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import { type AppTestOptions, appTest } from "../harness/fixtures.ts";

export type TranscriptionHarness = { app: TestApp; fake: FakeOpenAI; close(): Promise<void> };

/** The app with OpenAI pointed at a fake that speaks the audio API on 127.0.0.1. */
export async function startTranscriptionApp(
  env: Record<string, string> = {},
): Promise<TranscriptionHarness> {
  const fake = await startFakeOpenAI();
  const app = await startTestApp({
    env: { OPENAI_API_KEY: "sk-test-openai", OPENAI_BASE_URL: fake.url, ...env },
  });
  return {
    app,
    fake,
    async close() {
      await app.close();
      await fake.close();
    },
  };
}

/** The fixtures of `transcriptionTest` that the helpers of a file take. */
export type TranscriptionFixtures = { app: TestApp; org: TestOrganization; fake: FakeOpenAI };

/**
 * The `test` of a file about transcription: `appTest` (OpenAI's audio API is the fake's) with an
 * `org` without credits, as an organization the admin API creates; and, each set up once per
 * file when asked for, the ids of agent rows of `org` (`publicAgentId`, `privateAgentId`).
 */
export function transcriptionTest(options: Omit<AppTestOptions, "agent"> = {}) {
  return appTest({ funded: false, ...options })
    .extend("publicAgentId", { scope: "file" }, ({ app, org }) => insertAgent(app, org, "public"))
    .extend("privateAgentId", { scope: "file" }, ({ app, org }) =>
      insertAgent(app, org, "private"),
    );
}

/** Agents belong to the agents module; transcription only needs a row to look up. */
export async function insertAgent(
  app: TestApp,
  organization: Pick<TestOrganization, "id">,
  visibility: "public" | "private",
): Promise<string> {
  const id = newId();
  await app.database.db.insert(agents).values({
    id,
    organizationId: organization.id,
    name: `${visibility} agent`,
    modelName: "gpt_4o_mini",
    visibility,
  });
  return id;
}

export type FormFile = { bytes: Uint8Array; name?: string; type?: string; field?: string };

/**
 * A multipart/form-data body serialised by the WHATWG FormData encoder, as a browser would send
 * it; fields are appended in the given order.
 */
export async function multipartBody(
  fields: Array<[string, string] | ["file", FormFile]>,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (typeof value === "string") form.append(name, value);
    else {
      const blob = new Blob([value.bytes], { type: value.type ?? "audio/wav" });
      form.append(value.field ?? name, blob, value.name ?? "recording.wav");
    }
  }
  const request = new Request("http://form.invalid/", { method: "POST", body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { "content-type": request.headers.get("content-type") ?? "" },
  };
}

/** POST /api/transcribe-audio through app.inject, from `remoteAddress` (default 127.0.0.1). */
export async function transcribe(
  app: TestApp,
  input: { agentId?: string; file?: FormFile; remoteAddress?: string; fileFirst?: boolean },
  headers: Record<string, string> = {},
) {
  const agentField: Array<[string, string]> =
    input.agentId === undefined ? [] : [["agentId", input.agentId]];
  const fileField: Array<["file", FormFile]> = input.file ? [["file", input.file]] : [];
  const body = await multipartBody(
    input.fileFirst ? [...fileField, ...agentField] : [...agentField, ...fileField],
  );
  return app.api.inject({
    method: "POST",
    url: "/api/transcribe-audio",
    headers: { ...body.headers, ...headers },
    payload: body.payload,
    remoteAddress: input.remoteAddress ?? "127.0.0.1",
  });
}

/** The organization's transcription events, newest first, through the ledger API. */
export async function transcriptionEvents(app: TestApp, organization: TestOrganization) {
  const response = await app
    .client(organization.auth)
    .consumptionEvents.list({ feature: "transcription" });
  if (response.status !== 200) throw new Error(`events: ${response.text}`);
  return response.body.data as Array<{
    agentId: string | null;
    feature: string;
    provider: string;
    modelName: string;
    inputTokens: number;
    outputTokens: number;
    units: number | null;
    creditsCharged: number;
    metadata: Record<string, unknown>;
  }>;
}
