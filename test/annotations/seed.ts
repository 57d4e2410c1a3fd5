import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../src/db/client.ts";
import {
  agents,
  annotations,
  contacts,
  conversations,
  messages,
} from "../../src/db/schema/index.ts";
import { newId } from "../../src/lib/ids.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";

export type SeededExchange = {
  agentId: string;
  conversationId: string;
  humanMessageId: string;
  agentMessageId: string;
};

/**
 * Agents, conversations and messages straight into the tables, scoped to an organization like
 * the real rows. The agents API does not exist yet in this tree; annotations only read these.
 */
export function createSeeder(db: Db) {
  let clock = Date.parse("2026-01-01T00:00:00.000Z");
  /** Strictly increasing message times, so conversation order is known in advance. */
  const nextTime = () => {
    clock += 1_000;
    return new Date(clock);
  };

  async function agent(
    organization: Pick<TestOrganization, "id">,
    options: { visibility?: "public" | "private"; name?: string; iconUrl?: string | null } = {},
  ): Promise<string> {
    const id = newId();
    await db.insert(agents).values({
      id,
      organizationId: organization.id,
      name: options.name ?? "Support agent",
      modelName: "gpt_4o_mini",
      visibility: options.visibility ?? "private",
      iconUrl: options.iconUrl ?? null,
    });
    return id;
  }

  async function conversation(
    organization: Pick<TestOrganization, "id">,
    agentId: string,
    contact?: { email?: string; phoneNumber?: string },
  ): Promise<{ conversationId: string; contactId: string | null }> {
    let contactId: string | null = null;
    if (contact) {
      contactId = newId();
      await db.insert(contacts).values({
        id: contactId,
        organizationId: organization.id,
        email: contact.email ?? null,
        phoneNumber: contact.phoneNumber ?? null,
      });
    }
    const conversationId = newId();
    await db.insert(conversations).values({
      id: conversationId,
      organizationId: organization.id,
      agentId,
      visitorId: newId(),
      contactId,
    });
    return { conversationId, contactId };
  }

  async function message(
    organization: Pick<TestOrganization, "id">,
    input: {
      conversationId: string;
      from: "human" | "agent";
      agentId: string | null;
      text?: string;
      createdAt?: Date;
    },
  ): Promise<string> {
    const id = newId();
    await db.insert(messages).values({
      id,
      organizationId: organization.id,
      conversationId: input.conversationId,
      agentId: input.agentId,
      from: input.from,
      text: input.text ?? `${input.from} says ${id}`,
      createdAt: input.createdAt ?? nextTime(),
    });
    return id;
  }

  /** A conversation with one question and one answer of the agent. */
  async function exchange(
    organization: Pick<TestOrganization, "id">,
    agentId: string,
    conversationId?: string,
  ): Promise<SeededExchange> {
    const inConversation =
      conversationId ?? (await conversation(organization, agentId)).conversationId;
    const humanMessageId = await message(organization, {
      conversationId: inConversation,
      from: "human",
      agentId,
    });
    const agentMessageId = await message(organization, {
      conversationId: inConversation,
      from: "agent",
      agentId,
    });
    return { agentId, conversationId: inConversation, humanMessageId, agentMessageId };
  }

  /** Agent messages in one conversation, many at once (for paging). */
  async function agentMessages(
    organization: Pick<TestOrganization, "id">,
    agentId: string,
    count: number,
  ): Promise<string[]> {
    const { conversationId } = await conversation(organization, agentId);
    const rows = Array.from({ length: count }, () => ({
      id: newId(),
      organizationId: organization.id,
      conversationId,
      agentId,
      from: "agent" as const,
      text: "answer",
      createdAt: nextTime(),
    }));
    await db.insert(messages).values(rows);
    return rows.map((row) => row.id);
  }

  /** Gives annotations one exact creation time (microseconds included), to force ties. */
  async function setAnnotationCreatedAt(annotationIds: string[], timestamp: string) {
    await db
      .update(annotations)
      .set({ createdAt: sql`${timestamp}::timestamptz` })
      .where(inArray(annotations.id, annotationIds));
  }

  async function storedAnnotation(annotationId: string) {
    const [row] = await db.select().from(annotations).where(eq(annotations.id, annotationId));
    return row ?? null;
  }

  return {
    agent,
    conversation,
    message,
    exchange,
    agentMessages,
    setAnnotationCreatedAt,
    storedAnnotation,
  };
}

export type Seeder = ReturnType<typeof createSeeder>;

/** Helpers every annotation test file uses: requests with or without a key. */
export function annotationClient(app: TestApp) {
  const headersOf = (organization?: TestOrganization | { authorization: string }) => {
    if (!organization) return {};
    return "auth" in organization ? organization.auth : organization;
  };
  return {
    create(
      body: Record<string, unknown>,
      organization?: TestOrganization | { authorization: string },
      remoteAddress?: string,
    ) {
      return app.api.inject({
        method: "POST",
        url: "/api/annotations",
        headers: headersOf(organization),
        payload: body,
        ...(remoteAddress ? { remoteAddress } : {}),
      });
    },
    list(
      query: Record<string, string>,
      organization?: TestOrganization | { authorization: string },
    ) {
      return app.api.inject({
        method: "GET",
        url: "/api/annotations",
        headers: headersOf(organization),
        query,
      });
    },
    get(id: string, organization?: TestOrganization | { authorization: string }) {
      return app.api.inject({
        method: "GET",
        url: `/api/annotations/${encodeURIComponent(id)}`,
        headers: headersOf(organization),
      });
    },
    patch(id: string, body: unknown, organization?: TestOrganization | { authorization: string }) {
      return app.api.inject({
        method: "PATCH",
        url: `/api/annotations/${encodeURIComponent(id)}`,
        headers: headersOf(organization),
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
    },
    remove(id: string, organization?: TestOrganization | { authorization: string }) {
      return app.api.inject({
        method: "DELETE",
        url: `/api/annotations/${encodeURIComponent(id)}`,
        headers: headersOf(organization),
      });
    },
    async createTag(name: string, organization: TestOrganization) {
      const response = await app.api.inject({
        method: "POST",
        url: "/api/annotation-tags",
        headers: organization.auth,
        payload: { name },
      });
      if (response.statusCode !== 201) throw new Error(`createTag: ${response.body}`);
      return response.json() as { id: string; name: string };
    },
  };
}
