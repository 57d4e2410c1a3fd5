import { eq, inArray, sql } from "drizzle-orm";
import { annotations, messages } from "../../src/db/schema/index.ts";
import { newId } from "../../src/lib/ids.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { type Annotation, type Reply, type Untyped, unchecked } from "../harness/client.ts";
import { type AppTestOptions, appTest } from "../harness/fixtures.ts";

export type AnnotationTestOptions = AppTestOptions & {
  /** The email of the `org` fixture's owner (the admin API's default unless given). */
  ownerEmail?: string;
};

/**
 * The `test` of a file about annotations: `appTest` without a model provider key (`offline`: the
 * offline responder answers the seeded questions) and with an `org` without credits, as the admin
 * API creates it, unless the options say otherwise; and, each set up once per file when asked for,
 * - `seed`: the seeder of agents, conversations and messages of this app (`createSeeder`);
 * - `client`: requests to the annotation endpoints of this app (`annotationClient`).
 */
export function annotationTest({ ownerEmail, ...options }: AnnotationTestOptions = {}) {
  const test = appTest({ offline: true, funded: false, ...options })
    .extend("seed", { scope: "file" }, ({ app }) => createSeeder(app))
    .extend("client", { scope: "file" }, ({ app }) => annotationClient(app));
  return ownerEmail === undefined
    ? test
    : test.override("org", { scope: "file" }, ({ app }) =>
        app.createOrganization(options.orgName, { ownerEmail }),
      );
}

export type SeededExchange = {
  agentId: string;
  conversationId: string;
  humanMessageId: string;
  agentMessageId: string;
  contactId: string | null;
};

type Credentials = TestOrganization | { authorization: string };

async function expectJson(response: Reply<unknown>, status: number): Promise<Untyped> {
  if (response.status !== status) {
    throw new Error(`seed: expected ${status}, got ${response.status}: ${response.text}`);
  }
  return response.body;
}

/**
 * Agents, conversations and messages through the real endpoints (POST /api/agents, the query
 * path with the offline responder, query-agent, GET /api/conversations/{id}). Only what the API
 * cannot produce goes to the tables directly: an agent message without an agent, and exact
 * annotation timestamps to force ties.
 */
export function createSeeder(app: TestApp) {
  const unmetered = new Set<string>();

  /** The query path meters messages: an active subscription keeps the free plan out of the way. */
  async function unmeter(organization: TestOrganization) {
    if (unmetered.has(organization.id)) return;
    await expectJson(
      await app.admin.admin.updateBilling(organization.id, { subscriptionStatus: "active" }),
      200,
    );
    unmetered.add(organization.id);
  }

  async function agent(
    organization: TestOrganization,
    options: { visibility?: "public" | "private"; name?: string; iconUrl?: string | null } = {},
  ): Promise<string> {
    await unmeter(organization);
    const created = await expectJson(
      await app.client(organization.auth).agents.create({
        name: options.name ?? "Support agent",
        visibility: options.visibility ?? "private",
        ...(options.iconUrl ? { iconUrl: options.iconUrl } : {}),
      }),
      201,
    );
    return created.id;
  }

  async function conversationMessages(organization: TestOrganization, conversationId: string) {
    const conversation = await expectJson(
      await app.client(organization.auth).conversations.get(conversationId),
      200,
    );
    return conversation as {
      contact: { id: string } | null;
      messages: Array<{ id: string; from: "human" | "agent" }>;
    };
  }

  /** A customer question and the agent's answer, through POST /api/agents/{id}/query. */
  async function exchange(
    organization: TestOrganization,
    agentId: string,
    options: { conversationId?: string; contact?: { email?: string; phoneNumber?: string } } = {},
  ): Promise<SeededExchange> {
    const answered = await expectJson(
      await app
        .client(organization.auth)
        .agents.query(agentId, { query: `question ${newId()}`, ...options }),
      200,
    );
    const conversation = await conversationMessages(organization, answered.conversationId);
    const answerIndex = conversation.messages.findIndex(
      (message) => message.id === answered.messageId,
    );
    const question = conversation.messages
      .slice(0, answerIndex)
      .findLast((message) => message.from === "human");
    if (!question) throw new Error("seed: the query stored no human message");
    return {
      agentId,
      conversationId: answered.conversationId,
      humanMessageId: question.id,
      agentMessageId: answered.messageId,
      contactId: conversation.contact?.id ?? null,
    };
  }

  /** Agent messages in one conversation through POST /api/agents/{id}/query-agent. */
  async function agentMessages(
    credentials: Credentials,
    agentId: string,
    count: number,
  ): Promise<string[]> {
    const headers = "auth" in credentials ? credentials.auth : credentials;
    const ids: string[] = [];
    let conversationId: string | undefined;
    for (let index = 0; index < count; index += 1) {
      const appended = await expectJson(
        await app
          .client(headers)
          .agents.queryAgent(agentId, { query: `answer ${index}`, conversationId }),
        200,
      );
      conversationId = appended.conversationId;
      ids.push(appended.messageId);
    }
    return ids;
  }

  /**
   * An agent message whose agent is gone (agent_id null), as imports or deletions leave behind.
   * No endpoint writes one, so it goes straight into the table.
   */
  async function orphanAgentMessage(
    organization: TestOrganization,
    conversationId: string,
  ): Promise<string> {
    const id = newId();
    await app.database.db.insert(messages).values({
      id,
      organizationId: organization.id,
      conversationId,
      agentId: null,
      from: "agent",
      text: "orphaned answer",
    });
    return id;
  }

  /** Gives annotations one exact creation time (microseconds included), to force ties. */
  async function setAnnotationCreatedAt(annotationIds: string[], timestamp: string) {
    await app.database.db
      .update(annotations)
      .set({ createdAt: sql`${timestamp}::timestamptz` })
      .where(inArray(annotations.id, annotationIds));
  }

  async function storedAnnotation(annotationId: string) {
    const [row] = await app.database.db
      .select()
      .from(annotations)
      .where(eq(annotations.id, annotationId));
    return row ?? null;
  }

  return {
    agent,
    exchange,
    agentMessages,
    orphanAgentMessage,
    setAnnotationCreatedAt,
    storedAnnotation,
  };
}

export type AnnotationClient = ReturnType<typeof annotationClient>;

/** Requests to the annotation endpoints, with a key, a raw header, or anonymously. */
export function annotationClient(app: TestApp) {
  const headersOf = (credentials?: Credentials) => {
    if (!credentials) return {};
    return "auth" in credentials ? credentials.auth : credentials;
  };
  return {
    create(body: Record<string, unknown>, credentials?: Credentials, remoteAddress?: string) {
      return app.client(headersOf(credentials)).request<Annotation>({
        method: "POST",
        url: "/api/annotations",
        payload: body,
        ...(remoteAddress ? { remoteAddress } : {}),
      });
    },
    list(query: Record<string, string>, credentials?: Credentials) {
      return app.client(headersOf(credentials)).annotations.list(unchecked(query));
    },
    get(id: string, credentials?: Credentials) {
      return app.client(headersOf(credentials)).annotations.get(encodeURIComponent(id));
    },
    patch(id: string, body: unknown, credentials?: Credentials) {
      return app
        .client(headersOf(credentials))
        .annotations.setStatus(encodeURIComponent(id), unchecked(body));
    },
    remove(id: string, credentials?: Credentials) {
      return app.client(headersOf(credentials)).annotations.delete(encodeURIComponent(id));
    },
    async createTag(name: string, organization: TestOrganization) {
      return expectJson(
        await app.client(organization.auth).annotationTags.create({ name }),
        201,
      ) as Promise<{ id: string; name: string }>;
    },
  };
}
