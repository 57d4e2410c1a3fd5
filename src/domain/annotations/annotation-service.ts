import type { Db } from "../../db/client.ts";
import { invalid, notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { type Caller, mayUseAgent, refuseOtherAgent } from "../caller.ts";
import { createAnnotationAccess } from "./annotation-access.ts";
import type { AnnotationConversationRepo } from "./annotation-conversation-repo.ts";
import type { AnnotationRepo } from "./annotation-repo.ts";
import type { AnnotationInput, AnnotationQuery } from "./annotation-request.ts";
import type { AnnotationSettingsRepo } from "./annotation-settings-repo.ts";
import type { AnnotationTagRepo } from "./annotation-tag-repo.ts";
import {
  type AnnotationView,
  toAnnotationView,
  toAnonymousAnnotationView,
  toConversationMessageView,
  toConversationView,
} from "./annotation-view.ts";

/** The spec's page size of GET /api/annotations. */
const ANNOTATION_PAGE_SIZE = 20;

export type AnnotationPage = { items: AnnotationView[]; nextCursor: string | null };

export function createAnnotationService(deps: {
  db: Db;
  annotations: AnnotationRepo;
  conversations: AnnotationConversationRepo;
  tags: Pick<AnnotationTagRepo, "findExistingIds">;
  settings: Pick<AnnotationSettingsRepo, "findStatuses">;
}) {
  const access = createAnnotationAccess(deps.annotations);

  async function requireRecord(organizationId: string, annotationId: string, tx?: Db) {
    const record = await deps.annotations.findWithRelations(organizationId, annotationId, tx);
    // Deleted between the ownership check and this read.
    if (!record) throw notFound(`Annotation ${annotationId} not found`);
    return record;
  }

  /** The annotation's organization, when the caller may see it (a key's agents only). */
  async function visibleAnnotation(caller: Caller, annotationId: string): Promise<string> {
    const organizationId = await access.ownedAnnotation(caller, annotationId);
    if (caller.agentIds) {
      const record = await requireRecord(organizationId, annotationId);
      if (!mayUseAgent(caller, record.agentId)) {
        throw notFound(`Annotation ${annotationId} not found`);
      }
    }
    return organizationId;
  }

  return {
    /** POST /api/annotations: one annotation per message; an upsert keeps the status. */
    async upsert(caller: Caller | null, input: AnnotationInput): Promise<AnnotationView> {
      const target = await access.messageToAnnotate(caller, input.messageId);
      if (target.from !== "agent") {
        throw invalid("Only agent messages can be annotated; this message was written by a human");
      }
      if (!target.authorAgentId) throw invalid("The message has no agent id");
      const agentId = target.authorAgentId;
      if (caller) refuseOtherAgent(caller, agentId);
      const organizationId = target.organizationId;
      const tagIds = [...new Set(input.tagIds ?? [])];

      const record = await deps.db.transaction(async (tx) => {
        const known = await deps.tags.findExistingIds(organizationId, tagIds, tx);
        const unknown = tagIds.filter((tagId) => !known.has(tagId));
        if (unknown.length > 0) {
          throw invalid(
            "Some tagIds are not tags of this organization",
            unknown.map((tagId) => ({ path: "body.tagIds", message: `unknown tag ${tagId}` })),
          );
        }
        const row = await deps.annotations.upsert(
          {
            id: newId(),
            organizationId,
            messageId: target.messageId,
            conversationId: target.conversationId,
            agentId,
            comment: input.comment.trim(),
            sentiment: input.sentiment,
            createdById: caller?.userId ?? null,
          },
          tx,
        );
        await deps.annotations.replaceTags(row.id, tagIds, tx);
        return requireRecord(organizationId, row.id, tx);
      });
      return toAnnotationView(record);
    },

    /** GET /api/annotations: newest first, ties by id, ANNOTATION_PAGE_SIZE per page. */
    async list(caller: Caller | null, query: AnnotationQuery): Promise<AnnotationPage> {
      const { cursor, ...asked } = query;
      if (caller && asked.agentId) refuseOtherAgent(caller, asked.agentId);
      const filters = { ...asked, agentIds: caller?.agentIds ?? null };
      const organizationId = await access.listScope(caller, asked);
      if (cursor && (await deps.annotations.findOrganizationOf(cursor)) !== organizationId) {
        throw invalid("cursor is not the id of an annotation of this list", [
          { path: "querystring.cursor", message: "unknown annotation id" },
        ]);
      }
      const rows = await deps.annotations.listWithRelations(organizationId, filters, {
        cursor,
        limit: ANNOTATION_PAGE_SIZE + 1,
      });
      const view = caller ? toAnnotationView : toAnonymousAnnotationView;
      const items = rows.slice(0, ANNOTATION_PAGE_SIZE).map((row) => view(row));
      const nextCursor = rows.length > ANNOTATION_PAGE_SIZE ? items.at(-1)!.id : null;
      return { items, nextCursor };
    },

    /** GET /api/annotations/{id}: the annotation, its message and the whole conversation. */
    async get(caller: Caller, annotationId: string) {
      const organizationId = await access.ownedAnnotation(caller, annotationId);
      const record = await requireRecord(organizationId, annotationId);
      if (!mayUseAgent(caller, record.agentId)) {
        throw notFound(`Annotation ${annotationId} not found`);
      }
      const [conversation, messages] = await Promise.all([
        deps.conversations.findConversation(organizationId, record.conversationId),
        deps.conversations.listMessages(organizationId, record.conversationId),
      ]);
      const message = messages.find((candidate) => candidate.id === record.messageId);
      if (!conversation || !message) throw notFound(`Annotation ${annotationId} not found`);
      return {
        ...toAnnotationView(record),
        message: toConversationMessageView(message, conversation.contact),
        conversation: toConversationView(conversation, messages),
      };
    },

    /** PATCH /api/annotations/{id}: any status the organization accepts. */
    async updateStatus(
      caller: Caller,
      annotationId: string,
      status: string,
    ): Promise<AnnotationView> {
      const organizationId = await visibleAnnotation(caller, annotationId);
      const accepted = await deps.settings.findStatuses(organizationId);
      if (!accepted.includes(status)) {
        throw invalid(`Status "${status}" is not accepted; use one of: ${accepted.join(", ")}`, [
          { path: "body.status", message: `must be one of ${accepted.join(", ")}` },
        ]);
      }
      if (!(await deps.annotations.updateStatus(organizationId, annotationId, status))) {
        throw notFound(`Annotation ${annotationId} not found`);
      }
      return toAnnotationView(await requireRecord(organizationId, annotationId));
    },

    async remove(caller: Caller, annotationId: string) {
      const organizationId = await visibleAnnotation(caller, annotationId);
      await deps.annotations.delete(organizationId, annotationId);
      return { success: true as const };
    },
  };
}

export type AnnotationService = ReturnType<typeof createAnnotationService>;
