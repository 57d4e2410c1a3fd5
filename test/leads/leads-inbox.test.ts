import { parse } from "csv-parse/sync";
import { inArray, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { leads } from "../../src/db/schema/index.ts";
import { newId } from "../../src/lib/ids.ts";
import { instanceAdminOf, memberOf } from "../harness/accounts.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import type { Headers, Query } from "../harness/client.ts";
import { appTest } from "../harness/fixtures.ts";
import { IMPOSSIBLE_CURSORS } from "../harness/page-cursors.ts";

const test = appTest({ offline: true, env: { LEAD_RATE_LIMIT_PER_MINUTE: "1000" } });

type StoredLead = typeof leads.$inferInsert;

/** Stores leads as the site would, at the given times (SQL text keeps microseconds). */
async function insertLeads(
  app: TestApp,
  rows: (Partial<StoredLead> & { at?: string })[],
): Promise<string[]> {
  const values = rows.map(({ at, ...row }) => ({
    id: newId(),
    name: "Lead",
    email: "lead@example.com",
    ...row,
    ...(at ? { createdAt: sql`${at}::timestamptz` as unknown as Date } : {}),
  }));
  await app.database.db.insert(leads).values(values);
  return values.map((row) => row.id);
}

/** Every page of the list, following nextCursor, with the ids in the order received. */
async function allPages(app: TestApp, query: Query): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const response = await app.admin.admin.listLeads({ ...query, cursor });
    expect(response.status).toBe(200);
    ids.push(...response.body.data.map((lead: { id: string }) => lead.id));
    cursor = response.body.nextCursor ?? undefined;
    pages += 1;
  } while (cursor);
  return { ids, pages };
}

const postLead = (app: TestApp, payload: Record<string, unknown>) =>
  app.site.inject({
    method: "POST",
    url: "/api/leads",
    headers: { "content-type": "application/json", "user-agent": "inbox-test/1.0" },
    payload: JSON.stringify(payload),
    remoteAddress: "203.0.113.9",
  });

describe("GET /api/admin/leads", () => {
  test("returns every stored field of a lead posted by the site", async ({ app }) => {
    const lead = {
      name: "Jane Doe",
      email: "jane@fields.example",
      phone: "+1 555 010 2030",
      source: "fields",
      postSlug: "ai-agents",
      company: "Acme",
      industry: "Retail",
      companySize: "11-50",
      area: "Support",
      hoursPerWeek: "10-20",
      aiToday: "ChatGPT",
      score: 420.5,
      levelLabel: "Advanced",
      recommendedAgent: "Support agent",
    };
    const posted = await postLead(app, lead);
    expect(posted.statusCode).toBe(201);
    const response = await app.admin.admin.listLeads({ source: "fields" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [
        {
          id: posted.json().id,
          ...lead,
          ipHash: expect.stringMatching(/^[0-9a-f]{64}$/),
          userAgent: "inbox-test/1.0",
          createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        },
      ],
      nextCursor: null,
    });
    expect(JSON.stringify(response.body)).not.toContain("203.0.113.9");
  });

  test("pages newest first through every lead, without duplicates or gaps, also on equal times", async ({
    app,
  }) => {
    const source = "paging";
    const ids = await insertLeads(app, [
      ...Array.from({ length: 9 }, (_, index) => ({
        source,
        at: `2024-03-0${index + 1} 10:00:00+00`,
      })),
      // Five at the same instant, and two a microsecond apart: the cursor keeps microseconds.
      ...Array.from({ length: 5 }, () => ({ source, at: "2024-03-05 12:00:00+00" })),
      { source, at: "2024-03-06 09:00:00.000001+00" },
      { source, at: "2024-03-06 09:00:00.000002+00" },
    ]);
    const { ids: listed, pages } = await allPages(app, { source, limit: 3 });
    expect(pages).toBe(6);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...ids].sort());

    const stored = await app.database.db
      .select({ id: leads.id, at: sql<string>`${leads.createdAt}::text` })
      .from(leads)
      .where(inArray(leads.id, ids))
      .orderBy(sql`${leads.createdAt} desc, ${leads.id} desc`);
    expect(listed).toEqual(stored.map((row) => row.id));
  });

  test("keeps its place when newer leads arrive between pages", async ({ app }) => {
    const source = "concurrent";
    const ids = await insertLeads(
      app,
      Array.from({ length: 6 }, (_, index) => ({ source, at: `2024-04-0${index + 1}T08:00Z` })),
    );
    const first = await app.admin.admin.listLeads({ source, limit: 2 });
    const newer = await insertLeads(app, [{ source }, { source }]);
    const seen: string[] = first.body.data.map((lead: { id: string }) => lead.id);
    let cursor = first.body.nextCursor;
    while (cursor) {
      const page = await app.admin.admin.listLeads({ source, limit: 2, cursor });
      seen.push(...page.body.data.map((lead: { id: string }) => lead.id));
      cursor = page.body.nextCursor;
    }
    expect(seen).toEqual([...ids].reverse());
    expect(seen).not.toContain(newer[0]);
    const fresh = await app.admin.admin.listLeads({ source, limit: 2 });
    expect(fresh.body.data.map((lead: { id: string }) => lead.id).sort()).toEqual(
      [...newer].sort(),
    );
  });

  test("filters by since, until (a date includes its whole day), source and email", async ({
    app,
  }) => {
    const source = "filters";
    const [early, dayStart, dayEnd, nextDay] = await insertLeads(app, [
      { source, email: "a@filters.example", at: "2024-05-01T23:59:59Z" },
      { source, email: "B@Filters.example", at: "2024-05-02T00:00:00Z" },
      { source, email: "a@filters.example", at: "2024-05-02T23:59:59.999999Z" },
      { source, email: "a@filters.example", at: "2024-05-03T00:00:00Z" },
    ]);
    await insertLeads(app, [
      { source: "other", email: "a@filters.example", at: "2024-05-02T12:00Z" },
    ]);
    const ids = async (query: Query) => (await allPages(app, { source, ...query })).ids;

    expect(await ids({ since: "2024-05-02", until: "2024-05-02" })).toEqual([dayEnd, dayStart]);
    expect(await ids({ since: "2024-05-02T00:00:00Z" })).toEqual([nextDay, dayEnd, dayStart]);
    expect(await ids({ until: "2024-05-02T00:00:00Z" })).toEqual([early]);
    // Without an offset, a date-time is UTC; with one, it is converted (01:00+02:00 is 23:00Z).
    expect(await ids({ until: "2024-05-02T00:00:00" })).toEqual([early]);
    expect(
      await ids({ since: "2024-05-02T01:00:00+02:00", until: "2024-05-02T01:00:00Z" }),
    ).toEqual([dayStart, early]);
    expect(await ids({ email: "b@filters.EXAMPLE" })).toEqual([dayStart]);
    expect(await ids({ email: "a@filters.example", since: "2024-05-02" })).toEqual([
      nextDay,
      dayEnd,
    ]);
    const otherSource = await app.admin.admin.listLeads({ source: "other" });
    expect(otherSource.body.data).toHaveLength(1);
  });

  test.for<[string, Query, string]>([
    ["limit 0", { limit: 0 }, "querystring.limit"],
    ["limit 1001", { limit: 1001 }, "querystring.limit"],
    ["a limit that is not a number", { limit: "ten" }, "querystring.limit"],
    ["a cursor it never returned", { cursor: "bm90LWEtY3Vyc29y" }, "querystring.cursor"],
    [
      "a cursor with a forged id",
      { cursor: Buffer.from("2024-01-01 00:00:00+00|x' or 1=1").toString("base64url") },
      "querystring.cursor",
    ],
    ...IMPOSSIBLE_CURSORS.map(([name, cursor]): [string, Query, string] => [
      name,
      { cursor },
      "querystring.cursor",
    ]),
    ["since that is not a date", { since: "yesterday" }, "querystring.since"],
    ["until that is not a date", { until: "2024-13-01" }, "querystring.until"],
    [
      "since after until",
      { since: "2024-05-02", until: "2024-05-01T00:00:00Z" },
      "querystring.since",
    ],
    [
      "since equal to until",
      { since: "2024-05-01T00:00Z", until: "2024-05-01T00:00Z" },
      "querystring.since",
    ],
    ["a source of 51 characters", { source: "s".repeat(51) }, "querystring.source"],
    ["an email of 255 characters", { email: "e".repeat(255) }, "querystring.email"],
  ])("answers %s with 400 naming the parameter", async ([, query, path], { app }) => {
    const response = await app.admin.admin.listLeads(query);
    expect(response.status).toBe(400);
    expect(response.error.type).toBe("INVALID_REQUEST");
    expect(response.error.details?.map((detail) => detail.path)).toContain(path);
  });
});

describe("GET /api/admin/leads/export", () => {
  test("streams every field as CSV, quoted, with formulas neutralized", async ({ app }) => {
    const source = "csv";
    const [plain, tricky] = await insertLeads(app, [
      { source, name: "Plain", email: "plain@csv.example", at: "2024-06-01T10:00:00.123456Z" },
      {
        source,
        name: '=cmd|" /C calc"!A0',
        email: "+tricky@csv.example",
        phone: "-1 555 0100",
        company: 'Acme, "Inc"\nsecond line',
        industry: "@SUM(A1)",
        area: "\tTabbed",
        score: 12.5,
        userAgent: "=HYPERLINK()",
        ipHash: "abc123",
        at: "2024-06-02T10:00:00Z",
      },
    ]);
    const response = await app.admin.admin.exportLeads({ source });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="leads-\d{8}T\d{6}Z\.csv"$/,
    );
    const text = response.text;
    expect(text.split("\r\n")[0]).toBe(
      "id,created_at,name,email,phone,source,post_slug,company,industry,company_size,area," +
        "hours_per_week,ai_today,score,level_label,recommended_agent,ip_hash,user_agent",
    );
    // Every cell quoted, inner quotes doubled.
    expect(text).toContain(`"'=cmd|"" /C calc""!A0"`);
    expect(text).toContain(`"Acme, ""Inc""\nsecond line"`);
    const [header, ...rows] = parse(text) as string[][];
    const records = rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]])));
    expect(records.map((record) => record.id)).toEqual([tricky, plain]);
    expect(records[0]).toMatchObject({
      name: `'=cmd|" /C calc"!A0`,
      email: "'+tricky@csv.example",
      phone: "'-1 555 0100",
      company: 'Acme, "Inc"\nsecond line',
      industry: "'@SUM(A1)",
      area: "'\tTabbed",
      score: "12.5",
      user_agent: "'=HYPERLINK()",
      ip_hash: "abc123",
      created_at: "2024-06-02T10:00:00.000Z",
      post_slug: "",
    });
    expect(records[1]).toMatchObject({
      name: "Plain",
      email: "plain@csv.example",
      phone: "",
      score: "",
      created_at: "2024-06-01T10:00:00.123Z",
    });
  });

  test("exports more leads than one database page, in order, once each", async ({ app }) => {
    const source = "bulk";
    const ids: string[] = [];
    for (let batch = 0; batch < 3; batch++) {
      ids.push(
        ...(await insertLeads(
          app,
          Array.from({ length: 400 }, (_, index) => ({
            source,
            // 1,200 leads on 600 distinct instants: pairs share a time, across the page bounds.
            at: new Date(Date.UTC(2023, 0, 1) + (batch * 400 + index) * 500).toISOString(),
          })),
        )),
      );
    }
    const response = await app.admin.admin.exportLeads({ source });
    expect(response.status).toBe(200);
    const exported = (parse(response.text) as string[][]).slice(1).map((row) => row[0]);
    expect(exported).toHaveLength(1_200);
    expect(new Set(exported).size).toBe(1_200);
    const stored = await app.database.db
      .select({ id: leads.id })
      .from(leads)
      .where(inArray(leads.id, ids))
      .orderBy(sql`${leads.createdAt} desc, ${leads.id} desc`);
    expect(exported).toEqual(stored.map((row) => row.id));
  });

  test("applies the list's filters and answers bad ones with 400", async ({ app }) => {
    const source = "export-filter";
    const [, kept] = await insertLeads(app, [
      { source, at: "2024-07-01T00:00Z" },
      { source, at: "2024-07-02T00:00Z" },
    ]);
    const response = await app.admin.admin.exportLeads({ source, since: "2024-07-02" });
    expect((parse(response.text) as string[][]).slice(1).map((row) => row[0])).toEqual([kept]);

    const empty = await app.admin.admin.exportLeads({ source: "no-such-source" });
    expect(empty.status).toBe(200);
    expect(empty.text.split("\r\n")).toHaveLength(2);

    for (const query of [{ since: "soon" }, { until: "2024-07-01", since: "2024-07-03" }]) {
      const bad = await app.admin.admin.exportLeads(query);
      expect(bad.status).toBe(400);
      expect(bad.headers["content-type"]).toContain("application/json");
    }
  });
});

describe("DELETE /api/admin/leads/{id}", () => {
  test("deletes the lead, then answers 404 for it", async ({ app }) => {
    const source = "delete";
    const [gone, kept] = await insertLeads(app, [{ source }, { source }]);
    const deleted = await app.admin.admin.deleteLead(gone!);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const listed = await app.admin.admin.listLeads({ source });
    expect(listed.body.data.map((lead: { id: string }) => lead.id)).toEqual([kept]);
    const again = await app.admin.admin.deleteLead(gone!);
    expect(again.status).toBe(404);
    expect(again.error.type).toBe("NOT_FOUND");
  });

  test("answers 404 for an unknown id and 400 for one too long", async ({ app }) => {
    expect((await app.admin.admin.deleteLead("doesnotexist")).status).toBe(404);
    const long = await app.admin.admin.deleteLead("x".repeat(65));
    expect(long.status).toBe(400);
  });
});

describe("access to the leads inbox", () => {
  const requests = (leadId: string) =>
    [
      { method: "GET", url: "/api/admin/leads" },
      { method: "GET", url: "/api/admin/leads/export" },
      { method: "DELETE", url: `/api/admin/leads/${leadId}` },
    ] as const;

  test.for<[string, Headers]>([
    ["no token", {}],
    ["a wrong admin token", { authorization: "Bearer not-the-admin-token" }],
    ["a token of another scheme", { authorization: "Basic dGVzdC1hZG1pbi10b2tlbg==" }],
  ])("refuses %s with 401 and leaves the lead in place", async ([, headers], { app }) => {
    const [leadId] = await insertLeads(app, [{ source: "auth" }]);
    for (const request of requests(leadId!)) {
      const response = await app.client(headers).request(request);
      expect(response.status).toBe(401);
      expect(response.error.type).toBe("UNAUTHORIZED");
    }
    const listed = await app.admin.admin.listLeads({ source: "auth" });
    expect(listed.body.data.map((lead: { id: string }) => lead.id)).toContain(leadId);
  });

  test("refuses an organization's API key: leads belong to the operator", async ({ app }) => {
    const org = await app.createOrganization("Leads Outsider");
    const [leadId] = await insertLeads(app, [{ source: "org-key" }]);
    for (const request of requests(leadId!)) {
      expect((await app.client(org.auth).request(request)).status).toBe(401);
    }
  });

  test("lets an instance administrator's session in, also without ADMIN_TOKEN; 403 for others", async ({
    app,
  }) => {
    const [leadId] = await insertLeads(app, [{ source: "session", email: "session@example.com" }]);
    const org = await app.createOrganization("Leads by session");
    const tokenless = await startTestApp({ env: { ADMIN_TOKEN: "" }, database: app.database });
    try {
      for (const server of [app, tokenless]) {
        const administrator = await instanceAdminOf(server, org);
        const listed = await server.api.inject({
          url: "/api/admin/leads?source=session",
          headers: administrator.headers,
        });
        expect(listed.statusCode).toBe(200);
        expect(listed.json().data.map((lead: { id: string }) => lead.id)).toEqual([leadId]);
        const exported = await server.api.inject({
          url: "/api/admin/leads/export?source=session",
          headers: administrator.headers,
        });
        expect(exported.statusCode).toBe(200);
        expect(exported.body).toContain("session@example.com");

        const owner = await memberOf(server, org, "owner");
        for (const request of requests(leadId!)) {
          const refused = await server.api.inject({ ...request, headers: owner.headers });
          expect(refused.statusCode, request.url).toBe(403);
          expect(refused.json()).toMatchObject({ type: "FORBIDDEN" });
        }
      }
      const withToken = await tokenless.api.inject({
        url: "/api/admin/leads",
        headers: { authorization: "Bearer test-admin-token" },
      });
      expect(withToken.statusCode).toBe(401);
    } finally {
      await tokenless.close();
    }
    const listed = await app.admin.admin.listLeads({ source: "session" });
    expect(listed.body.data).toHaveLength(1);
  });

  test("is not served by the marketing-site listener", async ({ app }) => {
    const response = await app.site.inject({
      method: "GET",
      url: "/api/admin/leads",
      headers: { authorization: "Bearer test-admin-token" },
    });
    expect(response.statusCode).toBe(404);
  });
});
