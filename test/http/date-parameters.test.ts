import { describe, expect } from "vitest";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ orgName: "Dates" });

/** One date parameter of the API: where it goes and how to send it. */
type DateParameter = {
  name: string;
  /** The field `details` names, as the error handler spells it. */
  path: string;
  send(app: TestApp, org: TestOrganization, agentId: string, value: string): Promise<Sent>;
};
type Sent = { status: number; body: Record<string, unknown> };

const get = async (app: TestApp, url: string, headers: Record<string, string>) => {
  const response = await app.api.inject({ method: "GET", url, headers });
  // The exports answer CSV; every error is the JSON envelope.
  const json = String(response.headers["content-type"]).startsWith("application/json");
  return { status: response.statusCode, body: json ? response.json() : {} };
};
const admin = { authorization: "Bearer test-admin-token" };
const query = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

const parameters: DateParameter[] = [
  ...(["startDate", "endDate"] as const).flatMap((name) => [
    {
      name: `GET /api/consumption-events ${name}`,
      path: `querystring.${name}`,
      send: (app: TestApp, org: TestOrganization, _agentId: string, value: string) =>
        get(app, `/api/consumption-events?${query({ [name]: value })}`, org.auth),
    },
    {
      name: `GET /api/consumption-events/summary ${name}`,
      path: `querystring.${name}`,
      send: (app: TestApp, org: TestOrganization, _agentId: string, value: string) => {
        // The other bound at its extreme, so that only the value sent can be refused.
        const fields = { startDate: "1970-01-01", endDate: "9999-12-31", groupBy: "day" };
        return get(
          app,
          `/api/consumption-events/summary?${query({ ...fields, [name]: value })}`,
          org.auth,
        );
      },
    },
  ]),
  ...(["from", "to"] as const).map((name) => ({
    name: `GET /api/agents/{id}/conversations-export ${name}`,
    path: `querystring.${name}`,
    send: (app: TestApp, org: TestOrganization, agentId: string, value: string) =>
      get(app, `/api/agents/${agentId}/conversations-export?${query({ [name]: value })}`, org.auth),
  })),
  ...(["since", "until"] as const).flatMap((name) => [
    {
      name: `GET /api/admin/leads ${name}`,
      path: `querystring.${name}`,
      send: (app: TestApp, _org: TestOrganization, _agentId: string, value: string) =>
        get(app, `/api/admin/leads?${query({ [name]: value })}`, admin),
    },
    {
      name: `GET /api/admin/leads/export ${name}`,
      path: `querystring.${name}`,
      send: (app: TestApp, _org: TestOrganization, _agentId: string, value: string) =>
        get(app, `/api/admin/leads/export?${query({ [name]: value })}`, admin),
    },
  ]),
  {
    name: "POST /api/admin/organizations/{id}/credits expiresAt",
    path: "body.expiresAt",
    async send(app, org, _agentId, value) {
      const response = await app.api.inject({
        method: "POST",
        url: `/api/admin/organizations/${org.id}/credits`,
        headers: admin,
        payload: { amount: 1, expiresAt: value },
      });
      return { status: response.statusCode, body: response.json() };
    },
  },
];

/** Every parameter takes date-times; expiresAt takes nothing else, the others dates too. */
const dateTime = (date: string) => `${date}T00:00:00Z`;

describe("every date parameter accepts only the years 1970 to 9999", () => {
  test.for(parameters)(
    "$name: years 0000 and 10000 are 400 naming the field",
    async (parameter, { app, org, agent }) => {
      const refused = [
        dateTime("0000-01-01"),
        "0000-12-31T23:59:59.999Z",
        dateTime("1969-12-31").replace("00:00:00", "23:59:59"),
        dateTime("10000-01-01"),
        "+010000-01-01T00:00:00Z",
        // Written in 9999, but an instant of the year 10000 once its offset is applied.
        "9999-12-31T23:00:00-02:00",
        ...(parameter.path.startsWith("body") ? [] : ["0000-01-01", "10000-01-01", "1969-12-31"]),
      ];
      for (const value of refused) {
        const { status, body } = await parameter.send(app, org, agent.id, value);
        expect({ value, status, type: body.type }).toEqual({
          value,
          status: 400,
          type: "INVALID_REQUEST",
        });
        expect(body.details).toEqual([{ path: parameter.path, message: expect.any(String) }]);
        expect(body.error).toContain(parameter.path.split(".")[1]);
      }
    },
  );

  test.for(parameters)(
    "$name: the first and the last instant of the range are taken",
    async (parameter, { app, org, agent }) => {
      for (const value of [dateTime("1970-01-01"), "9999-12-31T23:59:59.999Z"]) {
        const { status, body } = await parameter.send(app, org, agent.id, value);
        expect({ value, status, body: status < 300 ? null : body }).toEqual({
          value,
          status: parameter.path.startsWith("body") ? 201 : 200,
          body: null,
        });
      }
    },
  );

  test("a date-only bound of 9999-12-31 covers that whole day", async ({ app, org, agent }) => {
    const list = await get(
      app,
      `/api/consumption-events?${query({ startDate: "1970-01-01", endDate: "9999-12-31" })}`,
      org.auth,
    );
    expect(list.status).toBe(200);
    const summary = await get(
      app,
      `/api/consumption-events/summary?${query({
        startDate: "9999-12-30",
        endDate: "9999-12-31",
        groupBy: "day",
      })}`,
      org.auth,
    );
    expect(summary).toMatchObject({
      status: 200,
      body: { startDate: "9999-12-30", endDate: "9999-12-31", data: [] },
    });
    const exported = await app.api.inject({
      method: "GET",
      url: `/api/agents/${agent.id}/conversations-export?to=9999-12-31`,
      headers: org.auth,
    });
    expect(exported.statusCode).toBe(200);
    expect((await get(app, "/api/admin/leads?until=9999-12-31", admin)).status).toBe(200);
  });
});
