import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect } from "vitest";
import { type Permission, ROLES, roleMay } from "../../src/domain/accounts/permissions.ts";
import type { TestApp } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

type Operation = { "x-permission"?: Permission; security?: Array<Record<string, string[]>> };

const test = appTest({ offline: true });

/** The roles table docs/accounts.md must hold, made from the routes' declarations. */
async function rolesTable(app: TestApp): Promise<string> {
  const document = (await app.api.inject({ url: "/api/openapi.json" })).json() as {
    paths: Record<string, Record<string, Operation>>;
  };
  const rows: string[] = [];
  for (const path of Object.keys(document.paths).sort()) {
    for (const [method, operation] of Object.entries(document.paths[path]!)) {
      const permission = operation["x-permission"];
      if (!permission) continue;
      const cells = ROLES.map((role) => (roleMay(role, permission) ? "yes" : "—"));
      rows.push(
        `| \`${method.toUpperCase()} ${path}\` | \`${permission}\` | ${cells.join(" | ")} |`,
      );
    }
  }
  return [
    "| endpoint | permission | owner | admin | member | viewer |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

describe("docs/accounts.md", () => {
  test("holds the roles table of every route that takes a key or a session, as declared", async ({
    app,
  }) => {
    const file = new URL("../../docs/accounts.md", import.meta.url);
    const text = readFileSync(file, "utf8");
    const start = text.indexOf("| endpoint | permission |");
    expect(start, "docs/accounts.md has the roles table").toBeGreaterThan(0);
    const documented = text.slice(start).split("\n\n")[0]!.trim();
    const expected = await rolesTable(app);
    // On a change of routes: UPDATE_DOCS=1 npx vitest run test/accounts/accounts-docs.test.ts
    if (process.env.UPDATE_DOCS === "1") {
      writeFileSync(file, text.replace(documented, expected));
      return;
    }
    expect(documented).toBe(expected);
  });
});
