import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { rowsOf } from "../../src/db/client.ts";
import {
  createConversationRepo,
  type RecordedTurn,
} from "../../src/domain/conversations/conversation-repo.ts";
import { createAgent } from "../harness/agents.ts";
import type { TestApp, TestOrganization } from "../harness/app.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({
  offline: true,
  orgName: "Owner",
  funded: false,
  agent: { name: "Support" },
})
  .extend("repo", { scope: "file" }, ({ app }) => createConversationRepo(app.database.db))
  // A turn of `org`'s `agent` in the conversation, unless `overrides` say otherwise.
  .extend(
    "turn",
    { scope: "file" },
    ({ org, agent }) =>
      (conversationId: string, overrides: Partial<RecordedTurn> = {}): RecordedTurn => ({
        organizationId: org.id,
        agentId: agent.id,
        conversation: {
          id: conversationId,
          externalId: conversationId,
          visitorId: "visitor-1",
          channel: "website",
          channelExternalId: null,
          startedAnonymously: false,
        },
        status: "reopen",
        messages: [
          { id: `${conversationId}-q`, from: "human", text: "Where is my order?" },
          {
            id: `${conversationId}-a`,
            from: "agent",
            text: "It ships today.",
            sources: [{ source: "faq.md", chunk: "Orders ship the same day." }],
            usage: { promptTokens: 10, completionTokens: 4, totalTokens: 14, cost: 0.5 },
            metadata: { model: "fake" },
            createdAt: new Date("2030-01-01T00:00:01.000Z"),
          },
        ],
        ...overrides,
      }),
  );

let other: TestOrganization;
let siblingAgentId: string;
let otherAgentId: string;
test.beforeAll(async ({ app, org }) => {
  other = await app.createOrganization("Other");
  siblingAgentId = (await createAgent(app, org, { name: "Sales" })).id;
  otherAgentId = (await createAgent(app, other, { name: "Theirs" })).id;
});

async function messagesOf(app: TestApp, conversationId: string) {
  return rowsOf<Record<string, unknown>>(
    await app.database.db.execute(
      sql`select id, organization_id, agent_id, "from", text, sources, usage, attachments,
                 metadata, is_draft
          from messages where conversation_id = ${conversationId} order by id`,
    ),
  );
}

describe("ConversationRepo.recordTurn (one statement per turn)", () => {
  test("creates the conversation with the turn's fields and stores its messages", async ({
    app,
    org,
    agent,
    repo,
    turn,
  }) => {
    const conversation = await repo.recordTurn(turn("turn-new"));

    expect(conversation).toMatchObject({
      id: "turn-new",
      organizationId: org.id,
      agentId: agent.id,
      visitorId: "visitor-1",
      channel: "website",
      status: "UNRESOLVED",
      contactId: null,
    });
    expect(conversation?.createdAt).toBeInstanceOf(Date);
    expect(await messagesOf(app, "turn-new")).toEqual([
      {
        id: "turn-new-a",
        organization_id: org.id,
        agent_id: agent.id,
        from: "agent",
        text: "It ships today.",
        sources: [{ source: "faq.md", chunk: "Orders ship the same day." }],
        usage: { promptTokens: 10, completionTokens: 4, totalTokens: 14, cost: 0.5 },
        attachments: [],
        metadata: { model: "fake" },
        is_draft: false,
      },
      {
        id: "turn-new-q",
        organization_id: org.id,
        agent_id: agent.id,
        from: "human",
        text: "Where is my order?",
        sources: [],
        usage: null,
        attachments: [],
        metadata: {},
        is_draft: false,
      },
    ]);
  });

  test("applies a turn to the agent's existing conversation: status, contact kept, messages added", async ({
    app,
    repo,
    turn,
  }) => {
    await repo.recordTurn(turn("turn-existing"));
    await app.database.db.execute(
      sql`update conversations set status = 'RESOLVED' where id = 'turn-existing'`,
    );

    const reopened = await repo.recordTurn(
      turn("turn-existing", {
        conversation: {
          id: "turn-existing-other-key",
          externalId: "turn-existing",
          visitorId: "someone-else",
          channel: "api",
          channelExternalId: null,
          startedAnonymously: true,
        },
        messages: [{ id: "turn-existing-q2", from: "human", text: "And the invoice?" }],
      }),
    );
    expect(reopened).toMatchObject({
      id: "turn-existing",
      externalId: "turn-existing",
      status: "UNRESOLVED",
      visitorId: "visitor-1",
      channel: "website",
      startedAnonymously: false,
    });

    const kept = await repo.recordTurn(
      turn("turn-existing", {
        status: "keep",
        messages: [{ id: "turn-existing-draft", from: "agent", text: "Draft", isDraft: true }],
      }),
    );
    expect(kept?.status).toBe("UNRESOLVED");
    const handedOver = await repo.recordTurn(
      turn("turn-existing", {
        status: "human_requested",
        messages: [{ id: "turn-existing-q3", from: "human", text: "A person, please" }],
      }),
    );
    expect(handedOver?.status).toBe("HUMAN_REQUESTED");
    const stored = await messagesOf(app, "turn-existing");
    expect(stored.map((message) => message.id)).toEqual([
      "turn-existing-a",
      "turn-existing-draft",
      "turn-existing-q",
      "turn-existing-q2",
      "turn-existing-q3",
    ]);
    expect(stored.find((message) => message.id === "turn-existing-draft")?.is_draft).toBe(true);
  });

  test("keeps another organization's and another agent's conversation with the same id apart", async ({
    app,
    org,
    agent,
    repo,
    turn,
  }) => {
    const theirs = await repo.recordTurn(
      turn("turn-shared", {
        organizationId: other.id,
        agentId: otherAgentId,
        status: "keep",
      }),
    );
    const withRowKey = (rowId: string, overrides: Partial<RecordedTurn>) =>
      turn("turn-shared", {
        conversation: {
          id: rowId,
          externalId: "turn-shared",
          visitorId: "visitor-2",
          channel: "api",
          channelExternalId: null,
          startedAnonymously: false,
        },
        messages: [
          { id: `${rowId}-q`, from: "human", text: "Mine" },
          { id: `${rowId}-a`, from: "agent", text: "Yours" },
        ],
        ...overrides,
      });
    const mine = await repo.recordTurn(
      withRowKey("turn-shared-owner", { status: "human_requested" }),
    );
    const sibling = await repo.recordTurn(
      withRowKey("turn-shared-sibling", { agentId: siblingAgentId }),
    );

    expect(theirs).toMatchObject({
      id: "turn-shared",
      organizationId: other.id,
      status: "UNRESOLVED",
    });
    expect(mine).toMatchObject({
      id: "turn-shared-owner",
      externalId: "turn-shared",
      organizationId: org.id,
      agentId: agent.id,
      status: "HUMAN_REQUESTED",
    });
    expect(sibling).toMatchObject({
      id: "turn-shared-sibling",
      externalId: "turn-shared",
      agentId: siblingAgentId,
    });
    expect((await messagesOf(app, "turn-shared")).map((message) => message.text)).toEqual([
      "It ships today.",
      "Where is my order?",
    ]);
    expect((await messagesOf(app, "turn-shared-owner")).map((message) => message.text)).toEqual([
      "Yours",
      "Mine",
    ]);
  });

  test("stores nothing when a message cannot be stored, not even a new conversation", async ({
    app,
    repo,
    turn,
  }) => {
    await expect(
      repo.recordTurn(
        turn("turn-duplicate", {
          messages: [
            { id: "turn-duplicate-m", from: "human", text: "one" },
            { id: "turn-duplicate-m", from: "agent", text: "two" },
          ],
        }),
      ),
    ).rejects.toThrow();
    const [found] = rowsOf(
      await app.database.db.execute(sql`select id from conversations where id = 'turn-duplicate'`),
    );
    expect(found).toBeUndefined();
  });
});
