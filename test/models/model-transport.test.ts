import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { generateText } from "ai";
import { test as base, describe, expect } from "vitest";
import { toModelProviderError } from "../../src/models/model-failure.ts";
import { createModelRegistry } from "../../src/models/model-registry.ts";
import { createModelTransport } from "../../src/models/model-transport.ts";

type Seen = { method: string; url: string; headers: IncomingMessage["headers"]; body: string };
type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

/** A model provider's server as the transport meets it, set up once per file. */
type Provider = {
  base: string;
  /** How it answers, set by each test. */
  handler: Handler;
  /** The requests of the current test, and the URLs whose client left before the answer ended. */
  seen: Seen[];
  closedByClient: string[];
};

const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("server", { scope: "file" }, async ({}, { onCleanup }) => {
    const provider: Provider = { base: "", handler: () => {}, seen: [], closedByClient: [] };
    const server = createServer(async (request, response) => {
      let body = "";
      for await (const chunk of request) body += chunk;
      provider.seen.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body,
      });
      response.on("close", () => {
        if (!response.writableFinished) provider.closedByClient.push(request.url ?? "");
      });
      provider.handler(request, response, body);
    });
    onCleanup(async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    provider.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return provider;
  })
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it.
  .extend("transport", { scope: "file" }, ({}, { onCleanup }) => {
    const transport = createModelTransport();
    onCleanup(() => transport.close());
    return transport;
  })
  .extend("serverReset", { auto: true }, ({ server }) => {
    server.seen.length = 0;
    server.closedByClient.length = 0;
    return true;
  });

describe("the model transport", () => {
  test("sends method, headers and body, and answers like fetch", async ({ server, transport }) => {
    server.handler = (_, response) => {
      response.setHeader("set-cookie", ["a=1", "b=2"]);
      response.writeHead(201, { "content-type": "application/json", "x-request-id": "r1" });
      response.end('{"ok":true}');
    };
    const response = await transport.fetch(`${server.base}/v1/chat?x=1`, {
      method: "post",
      headers: new Headers({ authorization: "Bearer sk-1", "content-type": "application/json" }),
      body: '{"q":"hi"}',
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.statusText).toBe("Created");
    expect(response.headers.get("x-request-id")).toBe("r1");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.json()).toEqual({ ok: true });
    expect(server.seen[0]).toMatchObject({
      method: "POST",
      url: "/v1/chat?x=1",
      body: '{"q":"hi"}',
      headers: { authorization: "Bearer sk-1", "content-type": "application/json" },
    });
  });

  test("hands an event stream over as it arrives, not when it ends", async ({
    server,
    transport,
  }) => {
    let finish = () => {};
    server.handler = (_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n");
      finish = () => response.end("data: [DONE]\n\n");
    };
    const response = await transport.fetch(`${server.base}/stream`, { method: "POST", body: "{}" });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
    finish();
    let rest = "";
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      rest += new TextDecoder().decode(part.value);
    }
    expect(rest).toBe("data: [DONE]\n\n");
  });

  test("decodes a compressed body and drops the encoding headers", async ({
    server,
    transport,
  }) => {
    const packed = gzipSync('{"answer":"unpacked"}');
    server.handler = (_, response) => {
      response.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "content-length": packed.length,
      });
      response.end(packed);
    };
    const response = await transport.fetch(`${server.base}/packed`);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.json()).toEqual({ answer: "unpacked" });
  });

  test("rejects a body that does not decode instead of waiting for it", async ({
    server,
    transport,
  }) => {
    server.handler = (_, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end("not gzip at all");
    };
    await expect(transport.fetch(`${server.base}/corrupt`)).rejects.toMatchObject({
      code: "Z_DATA_ERROR",
    });
  });

  test("follows redirects as fetch does: the body again after a 307, a GET after a 303", async ({
    server,
    transport,
  }) => {
    server.handler = (request, response) => {
      if (request.url === "/old") response.writeHead(307, { location: "/moved" }).end();
      else if (request.url === "/moved")
        response.writeHead(303, { location: `${server.base}/done` }).end();
      else response.writeHead(200, { "content-type": "application/json" }).end('{"moved":true}');
    };
    const response = await transport.fetch(`${server.base}/old`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "payload",
    });
    expect(await response.json()).toEqual({ moved: true });
    expect(server.seen.map((request) => [request.method, request.url, request.body])).toEqual([
      ["POST", "/old", "payload"],
      ["POST", "/moved", "payload"],
      ["GET", "/done", ""],
    ]);
    expect(server.seen[2]?.headers["content-type"]).toBeUndefined();
  });

  test("gives a bodiless status a null body", async ({ server, transport }) => {
    server.handler = (_, response) => response.writeHead(204).end();
    const response = await transport.fetch(`${server.base}/empty`, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  test("leaves a multipart upload to the platform's fetch", async ({ server, transport }) => {
    server.handler = (_, response) => response.writeHead(200).end("stored");
    const form = new FormData();
    form.append("file", new Blob(["RIFF"], { type: "audio/wav" }), "a.wav");
    const response = await transport.fetch(`${server.base}/upload`, { method: "POST", body: form });
    expect(await response.text()).toBe("stored");
    expect(server.seen[0]?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(server.seen[0]?.body).toContain('filename="a.wav"');
  });

  test("rejects with the signal's reason and closes the connection when it fires", async ({
    server,
    transport,
  }) => {
    server.handler = () => {};
    const failure = await transport
      .fetch(`${server.base}/hang`, {
        method: "POST",
        body: "{}",
        signal: AbortSignal.timeout(100),
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: "TimeoutError" });
    await expect.poll(() => server.closedByClient).toEqual(["/hang"]);
  });

  test("lets the AI SDK see an unreachable model as a retryable failure", async ({ transport }) => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const model = createModelRegistry({
      providerKeys: { openai: "sk-test" },
      openaiBaseUrl: `http://127.0.0.1:${port}/v1`,
      fetch: transport.fetch,
    }).resolveLanguageModel("gpt_4o").model;
    const failure = await generateText({ model, prompt: "hi", maxRetries: 0 }).catch(
      (error: unknown) => error,
    );
    expect(toModelProviderError(failure, "gpt_4o")).toMatchObject({
      message: "The model gpt_4o could not be reached",
      retryable: true,
    });
  });
});
