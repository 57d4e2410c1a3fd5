import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { FetchFailedError, UnsafeUrlError } from "../../src/lib/safe-fetch.ts";
import { failure, useFakeSite } from "./safe-fetch-site.ts";

const site = useFakeSite();

describe("safe fetch in production (private networks refused)", () => {
  const literalTargets = [
    ["http://127.0.0.1:PORT/ok", "loopback", "127.0.0.1"],
    ["http://0x7f000001:PORT/ok", "loopback", "127.0.0.1"],
    ["http://2130706433:PORT/ok", "loopback", "127.0.0.1"],
    ["http://017700000001:PORT/ok", "loopback", "127.0.0.1"],
    ["http://127.1:PORT/ok", "loopback", "127.0.0.1"],
    ["http://[::1]:PORT/ok", "loopback", "::1"],
    ["http://[::ffff:127.0.0.1]:PORT/ok", "loopback", "::ffff:7f00:1"],
    ["http://0.0.0.0:PORT/ok", "unspecified", "0.0.0.0"],
    ["http://10.0.0.1/", "private", "10.0.0.1"],
    ["http://169.254.169.254/latest/meta-data", "cloud metadata", "169.254.169.254"],
  ] as const;

  test.each(literalTargets)(
    "refuses %s before connecting, without saying why",
    async (target, label) => {
      const url = target.replace("PORT", String(site.port));
      const error = await failure(site.fetcher({ allowPrivateNetworks: false }).fetch(url));
      expect(error).toBeInstanceOf(UnsafeUrlError);
      expect((error as UnsafeUrlError).reason).toBe("blocked_address");
      expect(error.message).toBe(`${new URL(url).origin} refused: the address is not public`);
      expect(error.message).not.toContain(label);
      expect(site.seen).toEqual([]);
    },
  );

  test("names the URL, never what kind of address it is", async () => {
    const error = await failure(
      site.fetcher({ allowPrivateNetworks: false }).check("http://10.0.0.1/"),
    );
    expect(error.message).toBe("http://10.0.0.1 refused: the address is not public");
  });

  test("refuses a host name that the system resolver maps to loopback, without the address", async () => {
    const error = await failure(
      site.fetcher({ allowPrivateNetworks: false }).fetch(`http://localhost:${site.port}/ok`),
    );
    expect((error as UnsafeUrlError).reason).toBe("blocked_address");
    expect(error.message).toBe("localhost refused: the address is not public");
    expect(error.message).not.toMatch(/127\.0\.0\.1|::1|loopback/);
    expect(site.seen).toEqual([]);
  });

  test("keeps the address and its kind for the debug log only", async () => {
    const lines: string[] = [];
    const safe = site.fetcher({
      allowPrivateNetworks: false,
      resolve: async () => ["10.20.30.40"],
      logger: pino({ level: "debug" }, { write: (line: string) => lines.push(line) }),
    });
    const error = await failure(safe.check("https://vm.internal.test/"));
    expect(error.message).toBe("https://vm.internal.test refused: the address is not public");
    expect(error.message).not.toMatch(/10\.20\.30\.40|private/);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        level: 20,
        msg: "outbound request refused: the address is not public",
        target: "https://vm.internal.test",
        address: "10.20.30.40",
        kind: "private",
      }),
    ]);
  });

  test("refuses cloud metadata host names without resolving them", async () => {
    const resolved: string[] = [];
    const safe = site.fetcher({
      allowPrivateNetworks: false,
      resolve: async (host) => {
        resolved.push(host);
        return ["93.184.216.34"];
      },
    });
    const error = await failure(safe.check("http://metadata.google.internal/computeMetadata/v1/"));
    expect((error as UnsafeUrlError).reason).toBe("blocked_host");
    expect(error.message).toBe(
      "http://metadata.google.internal refused: the address is not public",
    );
    expect(resolved).toEqual([]);
  });

  test("refuses a name when any of its addresses is private", async () => {
    const safe = site.fetcher({
      allowPrivateNetworks: false,
      resolve: async () => ["93.184.216.34", "10.1.2.3"],
    });
    const checked = await failure(safe.check("https://mixed.test/hook"));
    expect(checked.message).toBe("https://mixed.test refused: the address is not public");
    const fetched = await failure(safe.fetch("http://mixed.test/"));
    expect((fetched as UnsafeUrlError).reason).toBe("blocked_address");
  });

  test("checks the address at connect time, so a rebinding DNS answer after check is refused", async () => {
    let calls = 0;
    const safe = site.fetcher({
      allowPrivateNetworks: false,
      resolve: async () => (calls++ === 0 ? ["93.184.216.34"] : ["127.0.0.1"]),
    });
    await expect(safe.check(`http://rebind.test:${site.port}/ok`)).resolves.toBeUndefined();
    const error = await failure(safe.fetch(`http://rebind.test:${site.port}/ok`));
    expect((error as UnsafeUrlError).reason).toBe("blocked_address");
    expect(calls).toBe(2);
    expect(site.seen).toEqual([]);
  });

  test("reports a name that does not resolve as a dns failure", async () => {
    const safe = site.fetcher({
      allowPrivateNetworks: false,
      resolve: async () => {
        throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
      },
    });
    const error = await failure(safe.check("https://nowhere.test/"));
    expect(error).toBeInstanceOf(FetchFailedError);
    expect((error as FetchFailedError).reason).toBe("dns");
    expect(error.message).toBe("Could not resolve nowhere.test");
  });
});

describe("probe", () => {
  test("succeeds on a live server with a HEAD request, whatever the status", async () => {
    await site.fetcher({ allowPrivateNetworks: true }).probe(`${site.base}/not-found`);
    expect(site.seen.map((request) => [request.method, request.url])).toEqual([
      ["HEAD", "/not-found"],
    ]);
  });

  test("fails with unreachable on a closed port", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const closedPort = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, "close");
    const error = await failure(
      site.fetcher({ allowPrivateNetworks: true }).probe(`http://127.0.0.1:${closedPort}/hook`),
    );
    expect(error).toBeInstanceOf(FetchFailedError);
    expect((error as FetchFailedError).reason).toBe("unreachable");
    expect(error.message).toBe(`Connection to http://127.0.0.1:${closedPort} was refused`);
  });

  test("fails with timeout when the server never answers", async () => {
    const error = await failure(
      site.fetcher({ allowPrivateNetworks: true }).probe(`${site.base}/never`, 200),
    );
    expect((error as FetchFailedError).reason).toBe("timeout");
  });

  test("refuses a private target in production", async () => {
    const error = await failure(
      site.fetcher({ allowPrivateNetworks: false }).probe(`${site.base}/ok`),
    );
    expect((error as UnsafeUrlError).reason).toBe("blocked_address");
    expect(site.seen).toEqual([]);
  });
});
