import { count } from "drizzle-orm";
import { describe, expect } from "vitest";
import { datasourceUploads } from "../../src/db/schema/index.ts";
import { UNSTORABLE_TEXT_MESSAGE } from "../../src/http/plugins/json-body.ts";
import { MALFORMED_MULTIPART_MESSAGE } from "../../src/http/plugins/multipart-form.ts";
import type { TestApp } from "../harness/app.ts";
import type { Reply } from "../harness/client.ts";
import { type KnowledgeFixtures, knowledgeTest, multipartBody } from "./knowledge-helpers.ts";

const test = knowledgeTest({ orgName: "Multipart" });

const post = (
  { app, org }: Pick<KnowledgeFixtures, "app" | "org">,
  contentType: string,
  payload: string | Buffer,
) =>
  app.client().request({
    method: "POST",
    url: "/api/datasources",
    headers: { ...org.auth, "content-type": contentType },
    payload,
  });

/** A well-formed upload of `hours.txt` into the datastore, delimited by `boundary`. */
const form = (datastoreId: string, boundary: string, extraParts = "") =>
  [
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nfile\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="datastoreId"\r\n\r\n${datastoreId}\r\n`,
    extraParts,
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="hours.txt"\r\n`,
    "Content-Type: text/plain\r\n\r\nWe are open Monday to Friday.\r\n",
    `--${boundary}--\r\n`,
  ].join("");

const field = (boundary: string, name: string, value: string, contentType?: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n` +
  `${contentType ? `Content-Type: ${contentType}\r\n` : ""}\r\n${value}\r\n`;

const listed = async ({ app, org, datastore }: KnowledgeFixtures) =>
  (await app.client(org.auth).datastores.datasources(datastore.id)).body;

async function uploadCount(app: TestApp) {
  const [row] = await app.database.db.select({ total: count() }).from(datasourceUploads);
  return row?.total ?? 0;
}

function expectInvalid(response: Reply<unknown>, message: string) {
  expect(response.status).toBe(400);
  expect(response.body).toEqual({
    error: message,
    type: "INVALID_REQUEST",
    requestId: expect.any(String),
  });
}

describe("POST /api/datasources with a malformed multipart body", () => {
  const long = "b".repeat(200);
  const tooLong = "b".repeat(300);
  test.for<[string, string, (id: string) => string | Buffer]>([
    ["no boundary", "multipart/form-data", () => "xx"],
    ["an empty boundary", "multipart/form-data; boundary=", () => "xx"],
    [
      "a 200-character boundary the body does not use",
      `multipart/form-data; boundary=${long}`,
      () => "xx",
    ],
    [
      "a 300-character boundary (the parser takes at most 252)",
      `multipart/form-data; boundary=${tooLong}`,
      (id: string) => form(id, tooLong),
    ],
    [
      "garbage",
      "multipart/form-data; boundary=abc",
      () => Buffer.from([0, 255, 13, 10, 45, 45, 7]),
    ],
    [
      "a part cut short",
      "multipart/form-data; boundary=abc",
      (id: string) => form(id, "abc").slice(0, -30),
    ],
    [
      "no closing boundary",
      "multipart/form-data; boundary=abc",
      (id: string) => form(id, "abc").slice(0, -9),
    ],
    ["the wrong boundary", "multipart/form-data; boundary=abc", (id: string) => form(id, "xyz")],
  ])(
    "%s → 400 INVALID_REQUEST, nothing stored",
    async ([, contentType, payload], { app, org, datastore }) => {
      // Built in the test, into the datastore of the `datastore` fixture.
      const response = await post({ app, org }, contentType, payload(datastore.id));
      expectInvalid(response, MALFORMED_MULTIPART_MESSAGE);
      expect(await listed({ app, org, datastore })).toEqual([]);
      expect(await uploadCount(app)).toBe(0);
    },
  );

  test.for<[string, string, string]>([
    [
      "a field sent as JSON",
      field("abc", "custom_id", '{"toString": 1}', "application/json"),
      "The form field custom_id must be plain text, not JSON",
    ],
    [
      "a field sent as JSON that is not JSON",
      field("abc", "custom_id", "{nope", "application/json"),
      "A form field sent as application/json is not valid JSON",
    ],
    [
      "a field named __proto__",
      field("abc", "__proto__", "x"),
      "A form field is named like an Object.prototype property (__proto__, constructor…)",
    ],
    [
      "two files",
      '--abc\r\nContent-Disposition: form-data; name="extra"; filename="b.txt"\r\n\r\nb\r\n',
      "The form has more files than this endpoint reads",
    ],
    [
      "21 fields",
      Array.from({ length: 19 }, (_, index) => field("abc", `f${index}`, "x")).join(""),
      "The form has more fields than this endpoint reads",
    ],
  ])(
    "%s → 400 INVALID_REQUEST, nothing stored",
    async ([, extraParts, message], { app, org, datastore }) => {
      const response = await post(
        { app, org },
        "multipart/form-data; boundary=abc",
        form(datastore.id, "abc", extraParts),
      );
      expectInvalid(response, message);
      expect(await listed({ app, org, datastore })).toEqual([]);
      expect(await uploadCount(app)).toBe(0);
    },
  );

  test.for<[string, (id: string) => string]>([
    [
      "a NUL in a field",
      (id: string) => form(id, "abc", field("abc", "custom_id", "customer\u00001")),
    ],
    [
      "a NUL in the file's name",
      (id: string) => form(id, "abc").replace('filename="hours.txt"', 'filename="a\u0000.txt"'),
    ],
  ])("%s → 400 INVALID_REQUEST, nothing stored", async ([, payload], { app, org, datastore }) => {
    const response = await post(
      { app, org },
      "multipart/form-data; boundary=abc",
      payload(datastore.id),
    );
    expectInvalid(response, UNSTORABLE_TEXT_MESSAGE);
    expect(await listed({ app, org, datastore })).toEqual([]);
    expect(await uploadCount(app)).toBe(0);
  });

  test("accepts the same form delimited by a 200-character boundary", async ({
    app,
    org,
    datastore,
  }) => {
    const response = await post(
      { app, org },
      `multipart/form-data; boundary=${long}`,
      form(datastore.id, long),
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ type: "file", name: "hours.txt" });
    expect(await uploadCount(app)).toBe(1);
  });

  test("asks for the key before reading the form", async ({ app }) => {
    const { payload, headers } = multipartBody([{ name: "type", value: "file" }]);
    const response = await app.client().request({
      method: "POST",
      url: "/api/datasources",
      headers,
      payload: payload.subarray(0, 20),
    });
    expect(response.status).toBe(401);
    expect(response.body.type).toBe("UNAUTHORIZED");
  });
});
