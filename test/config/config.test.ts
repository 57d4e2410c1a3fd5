import { describe, expect, test } from "vitest";
import { ConfigError, parseConfig } from "../../src/config/index.ts";

describe("configuration", () => {
  test("works with zero configuration", () => {
    const config = parseConfig({});
    expect(config.server).toMatchObject({ port: 3000, sitePort: 3001, host: "127.0.0.1" });
    expect(config.database).toMatchObject({ dataDir: "./data", databaseUrl: undefined });
    expect(config.leads.rateLimitPerMinute).toBe(5);
    expect(config.server.production).toBe(false);
  });

  test("reads every documented variable", () => {
    const config = parseConfig({
      PORT: "8080",
      SITE_PORT: "8081",
      HOST: "0.0.0.0",
      DATA_DIR: "/var/lib/agentdesk",
      DATABASE_URL: "postgres://u@db:5432/agentdesk",
      REDIS_URL: "redis://cache:6379",
      ADMIN_TOKEN: "s3cret",
      NODE_ENV: "production",
      TRUST_PROXY: "2",
      LEAD_RATE_LIMIT_PER_MINUTE: "12",
      LEAD_NOTIFY_URL: "https://crm.example.com/hook",
      SITE_ALLOWED_ORIGINS: "https://a.example, https://b.example",
    });
    expect(config.server).toMatchObject({
      port: 8080,
      sitePort: 8081,
      host: "0.0.0.0",
      production: true,
      trustProxy: 2,
      adminToken: "s3cret",
    });
    expect(config.database.redisUrl).toBe("redis://cache:6379");
    expect(config.leads.allowedOrigins).toEqual(["https://a.example", "https://b.example"]);
  });

  test.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["SITE_PORT", "-1"],
    ["DATABASE_URL", "mysql://x"],
    ["REDIS_URL", "http://redis"],
    ["NODE_ENV", "staging"],
    ["TRUST_PROXY", "yes"],
    ["LEAD_RATE_LIMIT_PER_MINUTE", "0"],
    ["LEAD_NOTIFY_URL", "not a url"],
    ["BOOTSTRAP_DEFAULT_ORG", "maybe"],
    ["KNOWLEDGE_EXACT_CACHE_MB", "-1"],
    ["KNOWLEDGE_EXACT_CACHE_MB", "lots"],
  ])("a bad %s (%s) stops boot with a message naming it", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe("LOG_FORMAT", () => {
  test("is json or pretty, and unset (or empty) leaves the choice to whether stdout is a terminal", () => {
    expect(parseConfig({ LOG_FORMAT: "json" }).server.logFormat).toBe("json");
    expect(parseConfig({ LOG_FORMAT: "pretty" }).server.logFormat).toBe("pretty");
    expect(parseConfig({}).server.logFormat).toBeUndefined();
    expect(parseConfig({ LOG_FORMAT: " " }).server.logFormat).toBeUndefined();
  });

  test.each(["text", "JSON", "pretty,json"])("refuses %s, naming the variable", (value) => {
    expect(() => parseConfig({ LOG_FORMAT: value })).toThrow(ConfigError);
    expect(() => parseConfig({ LOG_FORMAT: value })).toThrow(
      `LOG_FORMAT: Invalid option: expected one of "json"|"pretty" (got ${JSON.stringify(value)})`,
    );
  });
});

describe("KNOWLEDGE_EXACT_CACHE_MB", () => {
  test("gives 256 MiB by default and 0 turns the in-application scorer off", () => {
    expect(parseConfig({}).knowledge.exactCacheBytes).toBe(256 * 1024 * 1024);
    expect(parseConfig({ KNOWLEDGE_EXACT_CACHE_MB: "0" }).knowledge.exactCacheBytes).toBe(0);
  });
});

describe("FETCH_ALLOWED_HOSTS", () => {
  test("is empty by default and lists host names and IP addresses as URLs spell them", () => {
    expect(parseConfig({}).knowledge.fetchAllowedHosts).toEqual([]);
    const config = parseConfig({
      FETCH_ALLOWED_HOSTS: " Wiki.Intranet, 10.0.0.5,,[::1],0x7f000001 ",
    });
    expect(config.knowledge.fetchAllowedHosts).toEqual([
      "wiki.intranet",
      "10.0.0.5",
      "::1",
      "127.0.0.1",
    ]);
  });

  test.each(["https://wiki.intranet", "wiki.intranet:8080", "wiki.intranet/docs", "a b"])(
    "refuses %s, naming the variable and the entry",
    (value) => {
      expect(() => parseConfig({ FETCH_ALLOWED_HOSTS: value })).toThrow(ConfigError);
      expect(() => parseConfig({ FETCH_ALLOWED_HOSTS: value })).toThrow(
        /FETCH_ALLOWED_HOSTS: ".+" is not a host name or IP address/,
      );
    },
  );
});

describe("model configuration", () => {
  test("maps provider keys and endpoints", () => {
    const config = parseConfig({
      OPENAI_API_KEY: "sk-test",
      GROQ_API_KEY: "gq-test",
      LLM_BASE_URL: "http://127.0.0.1:11434/v1",
    });
    expect(config.models.registry.providerKeys).toEqual({ openai: "sk-test", groq: "gq-test" });
    expect(config.models.registry.llmBaseUrl).toBe("http://127.0.0.1:11434/v1");
    expect(config.models.followUpModel).toBe("openai:gpt-4o-mini");
    expect(config.models.transcriptionModel).toBe("openai:whisper-1");
  });

  test.each([
    ["FOLLOW_UP_MODEL", "gpt-4o-mini"],
    ["LLM_BASE_URL", "localhost:11434"],
    ["MODELS_FILE", "/nonexistent/models.json"],
    ["MODEL_TIMEOUT_MS", "10"],
  ])("a bad %s stops boot with its name", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  test("never prints the value of a secret variable", () => {
    expect(() => parseConfig({ ADMIN_TOKEN: "x", PORT: "nope" })).not.toThrow(/"x"/);
  });
});
