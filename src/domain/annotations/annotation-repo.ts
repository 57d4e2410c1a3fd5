import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  agents,
  annotations,
  annotationTagLinks,
  annotationTags,
  conversations,
  messages,
  users,
} from "../../db/schema/index.ts";

export type AnnotationRow = typeof annotations.$inferSelect;
type TagRef = { id: string; name: string };
/** An annotation with the id clients know its conversation by (`conversationId` is the row key). */
type AnnotationWithConversation = AnnotationRow & { conversationExternalId: string };
/** An annotation with what every response shows next to it. */
export type AnnotationRecord = AnnotationWithConversation & {
  createdByEmail: string | null;
  tags: TagRef[];
};

/** Who owns a message and which agent answers for it: the input of the access decision. */
export type MessageTarget = {
  messageId: string;
  organizationId: string;
  conversationId: string;
  from: "human" | "agent";
  /** The agent that wrote the message; null for human or orphaned messages. */
  authorAgentId: string | null;
  /** The agent the message belongs to: its author, else the conversation's agent. */
  ownerAgentVisibility: "public" | "private" | null;
};

export type AgentTarget = { organizationId: string; visibility: "public" | "private" };

export type AnnotationFilters = {
  agentId?: string | undefined;
  sentiment?: "good" | "bad" | undefined;
  conversationId?: string | undefined;
  messageId?: string | undefined;
  status?: string | undefined;
  /** The only agents whose annotations are listed (a key's agents); null or absent is all. */
  agentIds?: readonly string[] | null | undefined;
};

export type NewAnnotation = {
  id: string;
  organizationId: string;
  messageId: string;
  conversationId: string;
  agentId: string;
  comment: string;
  sentiment: "good" | "bad";
  createdById: string | null;
};

export function createAnnotationRepo(db: Db) {
  /** Annotations with their conversation's API id; callers add the conditions. */
  function selectWithConversation(tx: Db) {
    return tx
      .select({ annotation: annotations, conversationExternalId: conversations.externalId })
      .from(annotations)
      .innerJoin(conversations, eq(conversations.id, annotations.conversationId));
  }

  const flatten = (rows: Array<{ annotation: AnnotationRow; conversationExternalId: string }>) =>
    rows.map((row) => ({ ...row.annotation, conversationExternalId: row.conversationExternalId }));

  /** Attaches creator email and tags to rows, two queries whatever the number of rows. */
  async function withRelations(
    rows: AnnotationWithConversation[],
    tx: Db,
  ): Promise<AnnotationRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const creatorIds = [...new Set(rows.flatMap((row) => row.createdById ?? []))];
    const [links, creators] = await Promise.all([
      tx
        .select({
          annotationId: annotationTagLinks.annotationId,
          id: annotationTags.id,
          name: annotationTags.name,
        })
        .from(annotationTagLinks)
        .innerJoin(annotationTags, eq(annotationTags.id, annotationTagLinks.tagId))
        .where(inArray(annotationTagLinks.annotationId, ids))
        .orderBy(annotationTags.name, annotationTags.id),
      creatorIds.length === 0
        ? Promise.resolve([])
        : tx
            .select({ id: users.id, email: users.email })
            .from(users)
            .where(inArray(users.id, creatorIds)),
    ]);
    const emails = new Map(creators.map((user) => [user.id, user.email]));
    return rows.map((row) => ({
      ...row,
      createdByEmail: row.createdById ? (emails.get(row.createdById) ?? null) : null,
      tags: links
        .filter((link) => link.annotationId === row.id)
        .map((link) => ({ id: link.id, name: link.name })),
    }));
  }

  return {
    /**
     * Resolves a message to its organization and agent across organizations: this is how an
     * anonymous reviewer of a public agent is told apart from a stranger, before any scoping.
     */
    async findMessageTarget(messageId: string, tx: Db = db): Promise<MessageTarget | null> {
      const [row] = await tx
        .select({
          messageId: messages.id,
          organizationId: messages.organizationId,
          conversationId: messages.conversationId,
          from: messages.from,
          authorAgentId: messages.agentId,
          ownerAgentVisibility: agents.visibility,
        })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .leftJoin(
          agents,
          eq(agents.id, sql`coalesce(${messages.agentId}, ${conversations.agentId})`),
        )
        .where(eq(messages.id, messageId));
      return row ?? null;
    },

    /** An agent's organization and visibility, across organizations (see findMessageTarget). */
    async findAgentTarget(agentId: string, tx: Db = db): Promise<AgentTarget | null> {
      const [row] = await tx
        .select({ organizationId: agents.organizationId, visibility: agents.visibility })
        .from(agents)
        .where(eq(agents.id, agentId));
      return row ?? null;
    },

    /** The owner of an annotation, so a foreign one is told apart from an absent one. */
    async findOrganizationOf(annotationId: string, tx: Db = db): Promise<string | null> {
      const [row] = await tx
        .select({ organizationId: annotations.organizationId })
        .from(annotations)
        .where(eq(annotations.id, annotationId));
      return row?.organizationId ?? null;
    },

    /** Insert, or update comment, sentiment and author of the message's annotation. */
    async upsert(input: NewAnnotation, tx: Db = db): Promise<AnnotationRow> {
      const [row] = await tx
        .insert(annotations)
        .values(input)
        .onConflictDoUpdate({
          target: annotations.messageId,
          set: {
            comment: input.comment,
            sentiment: input.sentiment,
            createdById: input.createdById,
            updatedAt: sql`greatest(now(), ${annotations.updatedAt} + interval '1 millisecond')`,
          },
        })
        .returning();
      return row!;
    },

    /** Makes the annotation's tags exactly tagIds (which the caller checked). */
    async replaceTags(annotationId: string, tagIds: string[], tx: Db = db): Promise<void> {
      await tx.delete(annotationTagLinks).where(eq(annotationTagLinks.annotationId, annotationId));
      if (tagIds.length === 0) return;
      await tx
        .insert(annotationTagLinks)
        .values(tagIds.map((tagId) => ({ annotationId, tagId })))
        .onConflictDoNothing();
    },

    async findWithRelations(
      organizationId: string,
      annotationId: string,
      tx: Db = db,
    ): Promise<AnnotationRecord | null> {
      const rows = await selectWithConversation(tx).where(
        and(eq(annotations.organizationId, organizationId), eq(annotations.id, annotationId)),
      );
      const [record] = await withRelations(flatten(rows), tx);
      return record ?? null;
    },

    /**
     * One page, newest first with ties broken by id. The cursor row is looked up inside the
     * statement, so its full-precision timestamp anchors the keyset and no row is skipped.
     */
    async listWithRelations(
      organizationId: string,
      filters: AnnotationFilters,
      page: { cursor?: string | undefined; limit: number },
      tx: Db = db,
    ): Promise<AnnotationRecord[]> {
      const conditions: SQL[] = [eq(annotations.organizationId, organizationId)];
      if (filters.agentId) conditions.push(eq(annotations.agentId, filters.agentId));
      if (filters.agentIds) conditions.push(inArray(annotations.agentId, [...filters.agentIds]));
      if (filters.sentiment) conditions.push(eq(annotations.sentiment, filters.sentiment));
      // The id clients use, within this organization: every agent's conversation with that id.
      if (filters.conversationId) {
        conditions.push(eq(conversations.externalId, filters.conversationId));
      }
      if (filters.messageId) conditions.push(eq(annotations.messageId, filters.messageId));
      if (filters.status) conditions.push(eq(annotations.status, filters.status));
      if (page.cursor) {
        conditions.push(
          sql`(${annotations.createdAt}, ${annotations.id}) < (
            select anchor.created_at, anchor.id from annotations anchor
            where anchor.id = ${page.cursor} and anchor.organization_id = ${organizationId})`,
        );
      }
      const rows = await selectWithConversation(tx)
        .where(and(...conditions))
        .orderBy(desc(annotations.createdAt), desc(annotations.id))
        .limit(page.limit);
      return withRelations(flatten(rows), tx);
    },

    async updateStatus(
      organizationId: string,
      annotationId: string,
      status: string,
      tx: Db = db,
    ): Promise<boolean> {
      const updated = await tx
        .update(annotations)
        .set({
          status,
          // Strictly later than before even within the same millisecond, so clients see it move.
          updatedAt: sql`greatest(now(), ${annotations.updatedAt} + interval '1 millisecond')`,
        })
        .where(
          and(eq(annotations.organizationId, organizationId), eq(annotations.id, annotationId)),
        )
        .returning({ id: annotations.id });
      return updated.length > 0;
    },

    async delete(organizationId: string, annotationId: string, tx: Db = db): Promise<boolean> {
      const deleted = await tx
        .delete(annotations)
        .where(
          and(eq(annotations.organizationId, organizationId), eq(annotations.id, annotationId)),
        )
        .returning({ id: annotations.id });
      return deleted.length > 0;
    },
  };
}

export type AnnotationRepo = ReturnType<typeof createAnnotationRepo>;
