import { test } from "vitest";
import { createModelTransport, type ModelTransport } from "../../src/models/model-transport.ts";
import {
  type FakeOpenAI,
  type FakeOpenAIOptions,
  startFakeOpenAI,
} from "../fakes/openai-server.ts";

/** The fixtures of `modelTest` that the helpers of a file take. */
export type ModelFixtures = { fake: FakeOpenAI; transport: ModelTransport };

/**
 * The `test` of a file that calls a model provider without the app, each fixture set up once per
 * file when asked for:
 * - `fake`: a fake OpenAI server on 127.0.0.1 (`options`); its recorded `requests` start empty in
 *   every test;
 * - `transport`: the model transport the service uses, its connections closed at the end.
 */
export function modelTest(options: FakeOpenAIOptions = {}) {
  return (
    test
      // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
      .extend("fake", { scope: "file" }, async ({}, { onCleanup }) => {
        const fake = await startFakeOpenAI(options);
        onCleanup(() => fake.close());
        return fake;
      })
      // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
      .extend("transport", { scope: "file" }, ({}, { onCleanup }) => {
        const transport = createModelTransport();
        onCleanup(() => transport.close());
        return transport;
      })
      .extend("fakeRequestsCleared", { auto: true }, ({ fake }) => {
        fake.requests.length = 0;
        return true;
      })
  );
}
