import type { InjectOptions, LightMyRequestResponse as InjectResponse } from "fastify";
import type { z } from "zod";
import type * as annotationRequest from "../../src/domain/annotations/annotation-request.ts";
import type { summaryQuery } from "../../src/domain/billing/consumption-summary-request.ts";
import type * as evalRequest from "../../src/domain/evaluation/eval-request.ts";
import type { EvalResultView, EvalRunView } from "../../src/domain/evaluation/eval-run-service.ts";
import type { EvalCaseView, EvalSetView } from "../../src/domain/evaluation/eval-set-service.ts";
import type * as datasourceRequest from "../../src/domain/knowledge/datasource-request.ts";
import type * as datastoreRequest from "../../src/domain/knowledge/datastore-request.ts";
import type { App } from "../../src/http/app-types.ts";
import type { ErrorBody } from "../../src/http/plugins/api-errors.ts";
import type * as agentSchemas from "../../src/http/routes/agents/agent-schemas.ts";
import type * as querySchemas from "../../src/http/routes/agents/query-schemas.ts";
import type * as annotationSchemas from "../../src/http/routes/annotations/annotation-schemas.ts";
import type * as eventSchemas from "../../src/http/routes/consumption-events/consumption-event-schemas.ts";
import type * as datastoreSchemas from "../../src/http/routes/datastores/datastore-schemas.ts";

/** An answer of the app: its status, its headers, its JSON body and the same bytes as text. */
export type Reply<Body> = {
  status: number;
  headers: InjectResponse["headers"];
  /** The JSON body, typed as the route's success answer. */
  body: Body;
  /** The same JSON body read as the error envelope `{error, type, requestId, details?}`. */
  error: ErrorBody;
  text: string;
  raw: InjectResponse;
};

/**
 * The JSON of a route whose zod schemas live inside its routes file (not exported from src):
 * as loose as `JSON.parse`.
 */
export type Untyped = ReturnType<typeof JSON.parse>;
type UntypedBody = Record<string, unknown>;

export type Headers = Record<string, string | undefined>;
/** Everything `app.inject` takes: the escape hatch for malformed bodies and headers. */
export type RawRequest = InjectOptions;
export type Query = Record<string, string | number | boolean | undefined>;

type Agent = z.infer<typeof agentSchemas.agentSchema>;
type AgentVersion = z.infer<typeof agentSchemas.agentVersionSchema>;
type QueryReply = z.infer<typeof querySchemas.queryResponse>;
type Answered = Extract<QueryReply, { answer: string }>;
type Queued = Extract<QueryReply, { status: "queued" }>;
export type Annotation = z.infer<typeof annotationSchemas.annotationResponse>;
type Datastore = z.infer<typeof datastoreRequest.datastoreResponse>;
export type Datasource = z.infer<typeof datasourceRequest.datasourceResponse>;

export type ApiClient = ReturnType<typeof createClient>;

function reply<Body>(response: InjectResponse): Reply<Body> {
  const json = () => (response.body === "" ? undefined : response.json());
  return {
    status: response.statusCode,
    headers: response.headers,
    get body() {
      return json() as Body;
    },
    get error() {
      return json() as ErrorBody;
    },
    text: response.body,
    raw: response,
  };
}

function withQuery(url: string, query?: Query): string {
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${url}?${text}` : url;
}

/**
 * A typed client of the dashboard API over `app.inject`, sending `headers` (an organization's
 * `auth`, usually) with every request. Request bodies are the `z.input` of the routes' schemas,
 * so a schema change breaks the tests that no longer fit it.
 */
export function createClient(app: App, headers: Headers = {}) {
  const request = async <Body = Untyped>(options: RawRequest): Promise<Reply<Body>> =>
    reply<Body>(
      await app.inject({ ...options, headers: { ...headers, ...options.headers } } as RawRequest),
    );
  const get = <Body>(url: string, query?: Query) =>
    request<Body>({ method: "GET", url: withQuery(url, query) });
  const send = <Body>(method: "POST" | "PUT" | "PATCH" | "DELETE", url: string, body?: unknown) =>
    request<Body>(
      body === undefined
        ? { method, url }
        : { method, url, payload: body as InjectOptions["payload"] },
    );

  return {
    /** Any request, as `app.inject` takes it, with this client's headers under its own. */
    request,
    /** The same client with other headers, e.g. `client.as(stranger.auth)` or `client.as({})`. */
    as: (other: Headers) => createClient(app, other),

    agents: {
      list: () => get<Agent[]>("/api/agents"),
      create: (body: z.input<typeof agentSchemas.createAgentBody>) =>
        send<Agent>("POST", "/api/agents", body),
      get: (id: string) => get<Agent>(`/api/agents/${id}`),
      update: (id: string, body: z.input<typeof agentSchemas.agentFieldsSchema>) =>
        send<Agent>("PATCH", `/api/agents/${id}`, body),
      delete: (id: string) => send<Agent>("DELETE", `/api/agents/${id}`),
      versions: (id: string) => get<{ versions: AgentVersion[] }>(`/api/agents/${id}/versions`),
      version: (id: string, version: number | string) =>
        get<AgentVersion>(`/api/agents/${id}/versions/${version}`),
      restoreVersion: (id: string, version: number | string) =>
        send<Agent>("POST", `/api/agents/${id}/versions/${version}/restore`),
      query: (id: string, body: z.input<typeof querySchemas.queryBody>) =>
        send<Answered & Partial<Omit<Queued, keyof Answered>>>(
          "POST",
          `/api/agents/${id}/query`,
          body,
        ),
      queryAgent: (id: string, body: z.input<typeof querySchemas.queryAgentBody>) =>
        send<z.infer<typeof querySchemas.queryAgentResponse>>(
          "POST",
          `/api/agents/${id}/query-agent`,
          body,
        ),
      followUp: (id: string, body: UntypedBody) =>
        send<Untyped>("POST", `/api/agents/${id}/follow-up/query`, body),
      exportConversations: (id: string, query?: Query) =>
        get<Untyped>(`/api/agents/${id}/conversations-export`, query),
    },

    conversations: {
      list: (query?: Query) => get<Untyped>("/api/conversations", query),
      get: (id: string, query?: Query) => get<Untyped>(`/api/conversations/${id}`, query),
      webhookDeliveries: (id: string, query?: Query) =>
        get<Untyped>(`/api/conversations/${id}/webhook-deliveries`, query),
      delete: (id: string, query?: Query) =>
        send<{ success: true }>("DELETE", withQuery(`/api/conversations/${id}`, query)),
      /** PATCH: the handoff state `{status?, aiEnabled?, assigneeId?}`. */
      update: (id: string, body: UntypedBody) =>
        send<Untyped>("PATCH", `/api/conversations/${id}`, body),
      /** An operator's reply `{text}`. */
      reply: (id: string, body: UntypedBody) =>
        send<Untyped>("POST", `/api/conversations/${id}/messages`, body),
    },

    contacts: {
      delete: (id: string) => send<{ success: true }>("DELETE", `/api/contacts/${id}`),
    },

    datastores: {
      list: () => get<Datastore[]>("/api/datastores"),
      create: (body: z.input<typeof datastoreRequest.createDatastoreBody>) =>
        send<Datastore>("POST", "/api/datastores", body),
      get: (id: string) => get<Datastore>(`/api/datastores/${id}`),
      update: (id: string, body: z.input<typeof datastoreRequest.updateDatastoreBody>) =>
        send<z.infer<typeof datastoreSchemas.patchedDatastoreResponse>>(
          "PATCH",
          `/api/datastores/${id}`,
          body,
        ),
      delete: (id: string) => send<Datastore>("DELETE", `/api/datastores/${id}`),
      query: (id: string, body: z.input<typeof datastoreRequest.datastoreQueryBody>) =>
        send<Array<z.infer<typeof datastoreRequest.datastoreQueryResult>>>(
          "POST",
          `/api/datastores/${id}/query`,
          body,
        ),
      datasources: (id: string) => get<Datasource[]>(`/api/datastores/${id}/datasources`),
      updateText: (datastoreId: string, body: z.input<typeof datasourceRequest.textUpdateBody>) =>
        send<{ id: string }>("POST", `/api/datastores/update/${datastoreId}`, body),
    },

    datasources: {
      /** The JSON form (web pages and sites); files go as multipart through `upload`. */
      create: (body: z.input<typeof datasourceRequest.webDatasourceBody>) =>
        send<Datasource>("POST", "/api/datasources", body),
      upload: (form: { payload: Buffer; headers: Headers }) =>
        request<Datasource>({
          method: "POST",
          url: "/api/datasources",
          headers: form.headers,
          payload: form.payload,
        }),
      get: (id: string) => get<Datasource>(`/api/datasources/${id}`),
      update: (id: string, body: z.input<typeof datasourceRequest.updateDatasourceBody>) =>
        send<Datasource>("PATCH", `/api/datasources/${id}`, body),
      delete: (id: string) => send<Datasource>("DELETE", `/api/datasources/${id}`),
      sync: (id: string) => send<Datasource>("POST", `/api/datasources/${id}/synch`),
    },

    annotations: {
      create: (body: z.input<typeof annotationRequest.annotationBody>) =>
        send<Annotation>("POST", "/api/annotations", body),
      list: (query?: z.input<typeof annotationRequest.annotationListQuery>) =>
        get<Annotation[]>("/api/annotations", query),
      get: (id: string) =>
        get<z.infer<typeof annotationSchemas.annotationDetailResponse>>(`/api/annotations/${id}`),
      setStatus: (id: string, body: z.input<typeof annotationSchemas.statusBody>) =>
        send<Annotation>("PATCH", `/api/annotations/${id}`, body),
      delete: (id: string) => send<{ success: true }>("DELETE", `/api/annotations/${id}`),
      statuses: () => get<Untyped>("/api/annotation-statuses"),
      setStatuses: (body: z.input<typeof annotationSchemas.statusesBody>) =>
        send<Untyped>("PUT", "/api/annotation-statuses", body),
    },

    annotationTags: {
      create: (body: { name: string }) =>
        send<{ id: string; name: string; createdAt: string }>("POST", "/api/annotation-tags", body),
      list: () => get<{ id: string; name: string; createdAt: string }[]>("/api/annotation-tags"),
    },

    consumptionEvents: {
      list: (query?: z.input<typeof eventSchemas.eventListQuery>) =>
        get<z.infer<typeof eventSchemas.eventListResponse>>(
          "/api/consumption-events",
          query as Query,
        ),
      summary: (query: z.input<typeof summaryQuery>) =>
        get<z.infer<typeof eventSchemas.summaryResponse>>(
          "/api/consumption-events/summary",
          query as Query,
        ),
    },

    /** Eval sets, cases and runs (DESIGN.md §14). */
    evals: {
      createSet: (body: z.input<typeof evalRequest.evalSetBody>) =>
        send<EvalSetView>("POST", "/api/eval-sets", body),
      listSets: (query?: Query) => get<{ data: EvalSetView[] }>("/api/eval-sets", query),
      getSet: (id: string) => get<EvalSetView>(`/api/eval-sets/${id}`),
      deleteSet: (id: string) => send<null>("DELETE", `/api/eval-sets/${id}`),
      addCase: (setId: string, body: z.input<typeof evalRequest.evalCaseBody>) =>
        send<EvalCaseView>("POST", `/api/eval-sets/${setId}/cases`, body),
      listCases: (setId: string) => get<{ data: EvalCaseView[] }>(`/api/eval-sets/${setId}/cases`),
      deleteCase: (setId: string, caseId: string) =>
        send<null>("DELETE", `/api/eval-sets/${setId}/cases/${caseId}`),
      importCases: (setId: string, body: z.input<typeof evalRequest.evalImportBody>) =>
        send<{ imported: number; skipped: number; data: EvalCaseView[] }>(
          "POST",
          `/api/eval-sets/${setId}/import`,
          body,
        ),
      startRun: (body: z.input<typeof evalRequest.evalRunBody>) =>
        send<{ id: string; status: "queued"; cases: number }>("POST", "/api/eval-runs", body),
      getRun: (id: string) =>
        get<EvalRunView & { results: EvalResultView[] }>(`/api/eval-runs/${id}`),
      listRuns: (query?: Query) => get<{ data: EvalRunView[] }>("/api/eval-runs", query),
      compare: (id: string, baseline: string) =>
        get<Untyped>(`/api/eval-runs/${id}/comparison`, { baseline }),
    },

    credits: { balance: () => get<Untyped>("/api/credits/balance") },
    usage: {
      increment: (body: UntypedBody, extra: Headers = {}) =>
        request<Untyped>({
          method: "POST",
          url: "/api/usage/increment-agent-queries",
          headers: extra,
          payload: body,
        }),
    },
    account: { me: () => get<Untyped>("/api/me") },
    health: () => get<Untyped>("/api/health"),

    /** /api/admin/*: send with the admin token (`adminClient`). */
    admin: {
      createOrganization: (body: UntypedBody) =>
        send<Untyped>("POST", "/api/admin/organizations", body),
      issueApiKey: (organizationId: string, body?: UntypedBody) =>
        send<Untyped>("POST", `/api/admin/organizations/${organizationId}/api-keys`, body),
      revokeApiKey: (organizationId: string, keyId: string) =>
        send<Untyped>("DELETE", `/api/admin/organizations/${organizationId}/api-keys/${keyId}`),
      grantCredits: (organizationId: string, body: UntypedBody) =>
        send<Untyped>("POST", `/api/admin/organizations/${organizationId}/credits`, body),
      updateBilling: (organizationId: string, body: UntypedBody) =>
        send<Untyped>("PATCH", `/api/admin/organizations/${organizationId}/billing`, body),
      updateOrganization: (organizationId: string, body: UntypedBody) =>
        send<Untyped>("PATCH", `/api/admin/organizations/${organizationId}`, body),
      runRetention: () => send<Untyped>("POST", "/api/admin/retention/run"),
      listOrganizations: (query?: Query) => get<Untyped>("/api/admin/organizations", query),
      listApiKeys: (organizationId: string) =>
        get<Untyped>(`/api/admin/organizations/${organizationId}/api-keys`),
      listLeads: (query?: Query) => get<Untyped>("/api/admin/leads", query),
      exportLeads: (query?: Query) => get<Untyped>("/api/admin/leads/export", query),
      deleteLead: (leadId: string) => send<Untyped>("DELETE", `/api/admin/leads/${leadId}`),
    },
  };
}

/** A body sent as it is, past the route's request type: for tests of bad input. */
export const unchecked = (body: unknown) => body as never;
