import { readFileSync, writeFileSync } from "node:fs";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import { describe, expect } from "vitest";
import { appTest } from "../harness/fixtures.ts";

const test = appTest();

const SCHEMA_FILE = new URL("../../console/src/api/schema.ts", import.meta.url);
const HEADER =
  "// Generated from the served OpenAPI document (GET /api/openapi.json) by openapi-typescript:\n" +
  "// do not edit. After a change of the API: npm run console:api\n";

/**
 * The console is typed from the API it calls: its generated types are those of the document the
 * service serves now, so a change of the API that breaks a page fails its type check.
 */
describe("the console's API types", () => {
  test("are generated from the served OpenAPI document", async ({ app }) => {
    const document = (await app.api.inject({ url: "/api/openapi.json" })).json() as OpenAPI3;
    const generated = `${HEADER}${astToString(await openapiTS(document))}`;
    if (process.env.UPDATE_CONSOLE_API === "1") {
      writeFileSync(SCHEMA_FILE, generated);
      return;
    }
    expect(readFileSync(SCHEMA_FILE, "utf8")).toBe(generated);
  });
});
