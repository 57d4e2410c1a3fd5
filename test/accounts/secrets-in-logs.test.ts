import { describe, expect } from "vitest";
import { createLogger } from "../../src/lib/logger.ts";
import { ownOrigin, sessionCookieOf } from "../harness/accounts.ts";
import { appTest } from "../harness/fixtures.ts";

/** Every line the app logs, as production writes it (JSON, level debug, redaction on). */
const written: string[] = [];
const logger = createLogger("debug", "json", { write: (line: string) => written.push(line) });

const test = appTest({ offline: true, logger });

describe("the logs of the account flows", () => {
  test("never hold a password, a setup or reset token, or a session cookie", async ({ app }) => {
    await app.createOrganization("Default");
    const link = (await app.runtime.services.accounts.setupLink())!;
    const token = new URL(link).searchParams.get("token")!;
    const password = "logged-never password";
    const setup = await app.api.inject({
      method: "POST",
      url: "/api/auth/setup",
      payload: { token, email: "root@example.com", name: "Root", password },
    });
    expect(setup.statusCode, setup.body).toBe(200);
    const cookie = sessionCookieOf(setup);
    await app.api.inject({ url: "/api/agents", headers: { cookie } });
    await app.api.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "root@example.com", password: "a wrong secret guess" },
    });
    await app.api.inject({
      method: "POST",
      url: `/api/auth/password-reset/${token}`,
      payload: { password: "another secret value" },
    });
    await app.api.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { cookie, origin: ownOrigin(app) },
    });
    const text = written.join("");
    expect(written.length).toBeGreaterThan(5);
    for (const secret of [
      password,
      "a wrong secret guess",
      "another secret value",
      token,
      cookie.split("=")[1]!,
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
