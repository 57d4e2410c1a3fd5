import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { datasourceUploads } from "../../src/db/schema/index.ts";
import { UNSTORABLE_TEXT_MESSAGE } from "../../src/http/plugins/json-body.ts";
import { MALFORMED_MULTIPART_MESSAGE } from "../../src/http/plugins/multipart-form.ts";
import { startTestApp, type TestApp, type TestOrganization } from "../harness/app.ts";
import type { Reply } from "../harness/client.ts";
import { createDatastore, multipartBody } from "./knowledge-helpers.ts";

let app: TestApp;
let org: TestOrganization;
let datastoreId: string;
beforeAll(async () => {
  app = await startTestApp();
  org = await app.createOrganization("Multipart");
  datastoreId = (await createDatastore(app, org)).id;
});
afterAll(() => app.close());

const post = (contentType: string, payload: string | Buffer) =>
  app.client().request({
    method: "POST",
    url: "/api/datasources",
    headers: { ...org.auth, "content-type": contentType },
    payload,
  });

/** A well-formed upload of `hours.txt` into the datastore, delimited by `boundary`. */
const form = (boundary: string, extraParts = "") =>
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

const listed = async () => (await app.client(org.auth).datastores.datasources(datastoreId)).body;

async function uploadCount() {
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
  test.each([
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
      () => form(tooLong),
    ],
    [
      "garbage",
      "multipart/form-data; boundary=abc",
      () => Buffer.from([0, 255, 13, 10, 45, 45, 7]),
    ],
    ["a part cut short", "multipart/form-data; boundary=abc", () => form("abc").slice(0, -30)],
    ["no closing boundary", "multipart/form-data; boundary=abc", () => form("abc").slice(0, -9)],
    ["the wrong boundary", "multipart/form-data; boundary=abc", () => form("xyz")],
  ])("%s → 400 INVALID_REQUEST, nothing stored", async (_label, contentType, payload) => {
    // Built in the test: the datastore's id exists only once beforeAll has run.
    const response = await post(contentType, payload());
    expectInvalid(response, MALFORMED_MULTIPART_MESSAGE);
    expect(await listed()).toEqual([]);
    expect(await uploadCount()).toBe(0);
  });

  test.each([
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
  ])("%s → 400 INVALID_REQUEST, nothing stored", async (_label, extraParts, message) => {
    const response = await post("multipart/form-data; boundary=abc", form("abc", extraParts));
    expectInvalid(response, message);
    expect(await listed()).toEqual([]);
    expect(await uploadCount()).toBe(0);
  });

  test.each([
    ["a NUL in a field", () => form("abc", field("abc", "custom_id", "customer\u00001"))],
    [
      "a NUL in the file's name",
      () => form("abc").replace('filename="hours.txt"', 'filename="a\u0000.txt"'),
    ],
  ])("%s → 400 INVALID_REQUEST, nothing stored", async (_label, payload) => {
    const response = await post("multipart/form-data; boundary=abc", payload());
    expectInvalid(response, UNSTORABLE_TEXT_MESSAGE);
    expect(await listed()).toEqual([]);
    expect(await uploadCount()).toBe(0);
  });

  test("accepts the same form delimited by a 200-character boundary", async () => {
    const response = await post(`multipart/form-data; boundary=${long}`, form(long));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ type: "file", name: "hours.txt" });
    expect(await uploadCount()).toBe(1);
  });

  test("asks for the key before reading the form", async () => {
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
