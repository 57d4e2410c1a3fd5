import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect } from "vitest";
import { conversations, messages } from "../../src/db/schema/index.ts";
import { createAgent } from "../harness/agents.ts";
import { appTest } from "../harness/fixtures.ts";

const test = appTest({ offline: true, orgName: "Round trip", funded: false });

// Any text PostgreSQL can hold (no NUL, no lone surrogates): quotes, commas, CR, LF, tabs, emoji,
// and cells that start like formulas.
const cellText = fc
  .oneof(
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.string({
      unit: fc.constantFrom('"', ",", "\r", "\n", "\t", "=", "+", "-", "@", "'", "a", " "),
      maxLength: 12,
    }),
  )
  .map((text) => text.replaceAll("\u0000", ""));

describe("CSV export round trip", () => {
  test("gives back every message text exactly, with only formula-like cells prefixed by '", async ({
    app,
    org,
    api,
  }) => {
    await fc.assert(
      fc.asyncProperty(fc.array(cellText, { minLength: 1, maxLength: 30 }), async (texts) => {
        const agent = await createAgent(app, org, { name: "Round trip" });
        const conversationId = `rt-${agent.id}`;
        await app.database.db.insert(conversations).values({
          id: conversationId,
          externalId: conversationId,
          organizationId: org.id,
          agentId: agent.id,
          visitorId: "v",
        });
        await app.database.db.insert(messages).values(
          texts.map((text, index) => ({
            id: `${conversationId}-${String(index).padStart(3, "0")}`,
            organizationId: org.id,
            conversationId,
            agentId: agent.id,
            from: index % 2 === 0 ? ("human" as const) : ("agent" as const),
            text,
            createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, index)),
          })),
        );
        const response = await api.agents.exportConversations(agent.id);
        expect(response.status).toBe(200);
        const [header, ...rows] = parse(response.text) as string[][];
        expect(header).toEqual([
          "conversation_id",
          "message_from",
          "message_text",
          "message_created_at",
        ]);
        expect(rows.map((row) => row[2])).toEqual(
          texts.map((text) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text)),
        );
        expect(rows.map((row) => row[0])).toEqual(texts.map(() => conversationId));
      }),
      { numRuns: 25 },
    );
  });
});
