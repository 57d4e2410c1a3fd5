import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { StatementPart } from "../../src/db/statement-parts.ts";
import { createDatastoreRepo } from "../../src/domain/knowledge/datastore-repo.ts";
import { questionLexemes } from "../../src/retrieval/text-query.ts";
import { createDatastore, knowledgeTest } from "./knowledge-helpers.ts";

const test = knowledgeTest();

/** A part of the same statement, read whether or not any datastore is readable. */
const along: StatementPart<string> = {
  row: sql`select ${"read alongside"}::text as along_note`,
  read: (row) => String(row?.along_note),
};

describe("the datastores an agent reads, with the question's lexemes and another part", () => {
  test("returns the readable datastores and the lexemes the full-text side searches for", async ({
    app,
  }) => {
    const owner = await app.createOrganization("Owner");
    const other = await app.createOrganization("Other");
    const own = await createDatastore(app, owner, { name: "Own" });
    const shared = await createDatastore(app, other, { name: "Shared", visibility: "public" });
    const hidden = await createDatastore(app, other, { name: "Hidden", visibility: "private" });
    const repo = createDatastoreRepo(app.database.db);
    const question = "How do I reset the hubs' Wi-Fi, café and 2FA?";

    const read = await repo.listReadableForQuestion(
      owner.id,
      [own.id, shared.id, hidden.id, "unknown"],
      question,
      along,
    );
    expect(read.along).toBe("read alongside");
    expect(read.stores.map((store) => store.id).sort()).toEqual([own.id, shared.id].sort());
    expect(read.stores.find((store) => store.id === own.id)).toMatchObject({
      organizationId: owner.id,
      name: "Own",
    });
    expect(read.questionLexemes).toEqual(await questionLexemes(app.database.db, question));
    expect(read.questionLexemes).toEqual(expect.arrayContaining(["hub", "reset", "café"]));

    expect(await repo.listReadableForQuestion(owner.id, [hidden.id], question, along)).toEqual({
      stores: [],
      questionLexemes: null,
      along: "read alongside",
    });
    expect(await repo.listReadableForQuestion(owner.id, [], question, along)).toEqual({
      stores: [],
      questionLexemes: null,
      along: "read alongside",
    });
  });
});
