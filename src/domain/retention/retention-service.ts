import type { Db } from "../../db/client.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import type { AuditedBy, AuditLog } from "../accounts/audit-log.ts";
import type { Caller } from "../caller.ts";
import { findConversationOfOrganization } from "../conversations/conversation-lookup.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import type { ErasureTarget, RetentionRepo } from "./retention-repo.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

type RetentionSettings = {
  /** Conversations per statement: bounds how long one statement holds its row locks. */
  batchSize: number;
};

export type SweepResult = { organizations: number; conversationsDeleted: number };

/**
 * Retention and erasure (docs/retention.md): the daily sweep of conversations idle longer than
 * their organization keeps them, and the erasure of one conversation or one contact on request.
 */
export type RetentionServiceDeps = {
  db: Db;
  retention: RetentionRepo;
  conversations: Pick<ConversationRepo, "findInOrganization">;
  settings: RetentionSettings;
  audit: AuditLog;
  logger: Logger;
};

export function createRetentionService(deps: RetentionServiceDeps) {
  const { audit } = deps;
  const { batchSize } = deps.settings;

  /** Erases every conversation matching `target`, a batch per statement; returns how many. */
  async function eraseAll(
    organizationId: string,
    target: ErasureTarget,
    signal?: AbortSignal,
    tx: Db = deps.db,
  ): Promise<number> {
    let total = 0;
    for (;;) {
      signal?.throwIfAborted();
      const erased = await deps.retention.eraseBatch(organizationId, target, batchSize, tx);
      total += erased;
      if (erased < batchSize) return total;
    }
  }

  return {
    /** Sets an organization's retention in days (null keeps conversations forever). */
    async setRetentionDays(organizationId: string, days: number | null, by: AuditedBy) {
      return deps.db.transaction(async (tx) => {
        const row = await deps.retention.setRetentionDays(organizationId, days, tx);
        if (!row) throw notFound(`Organization ${organizationId} not found`);
        await audit.record(
          { organizationId, action: "retention.changed", ...by, details: { days } },
          tx,
        );
        return row;
      });
    },

    /**
     * Erases, in every organization with a retention setting, the conversations whose last
     * activity is older than it. Idempotent; two sweeps at once erase disjoint batches.
     */
    async sweep(signal?: AbortSignal): Promise<SweepResult> {
      const limited = await deps.retention.organizationsWithRetention();
      let conversationsDeleted = 0;
      for (const organization of limited) {
        const idleBefore = new Date(Date.now() - (organization.days ?? 0) * DAY_MS);
        const erased = await eraseAll(organization.id, { idleBefore }, signal);
        if (erased > 0) {
          deps.logger.info(
            { organizationId: organization.id, conversations: erased },
            "retention: erased idle conversations",
          );
          await audit.record({
            organizationId: organization.id,
            action: "retention.swept",
            actor: { type: "system", id: null },
            details: { conversations: erased, days: organization.days },
          });
        }
        conversationsDeleted += erased;
      }
      return { organizations: limited.length, conversationsDeleted };
    },

    /** DELETE /api/conversations/{id}: the conversation and everything stored about it. */
    async deleteConversation(
      caller: Caller,
      conversationId: string,
      agentId?: string,
    ): Promise<{ success: true }> {
      const found = await findConversationOfOrganization(
        deps.conversations,
        caller,
        conversationId,
        agentId,
      );
      await deps.db.transaction(async (tx) => {
        const erased = await deps.retention.eraseBatch(
          caller.organizationId,
          { conversationId: found.conversation.id },
          1,
          tx,
        );
        // Erased meanwhile by a concurrent request or the sweep: gone, as after a repeated delete.
        if (erased === 0) throw new AppError("CONVERSATION_NOT_FOUND", "Conversation not found");
        await audit.record(
          {
            organizationId: caller.organizationId,
            action: "conversation.erased",
            actor: caller.actor,
            origin: caller.origin,
            target: { type: "conversation", id: found.conversation.id },
          },
          tx,
        );
      });
      return { success: true };
    },

    /**
     * DELETE /api/contacts/{id}: the contact and every conversation linked to it, a batch at a
     * time; then, with the contact locked against new links, the rest and the contact itself in
     * one transaction, so no conversation linked meanwhile is left behind with its link cut.
     */
    async deleteContact(caller: Caller, contactId: string): Promise<{ success: true }> {
      const { organizationId } = caller;
      // A contact's conversations may be with any agent of the organization.
      if (caller.agentIds) {
        throw new AppError("FORBIDDEN", "A key made for some agents cannot erase a contact");
      }
      const contactNotFound = () => notFound("Contact not found");
      if (!(await deps.retention.hasContact(organizationId, contactId))) throw contactNotFound();
      let erased = await eraseAll(organizationId, { contactId });
      const deleted = await deps.db.transaction(async (tx) => {
        if (!(await deps.retention.hasContact(organizationId, contactId, { lock: true }, tx))) {
          return false;
        }
        erased += await eraseAll(organizationId, { contactId }, undefined, tx);
        const gone = await deps.retention.deleteContact(organizationId, contactId, tx);
        if (!gone) return false;
        await audit.record(
          {
            organizationId,
            action: "contact.erased",
            actor: caller.actor,
            origin: caller.origin,
            target: { type: "contact", id: contactId },
            details: { conversations: erased },
          },
          tx,
        );
        return true;
      });
      if (!deleted) throw contactNotFound();
      deps.logger.info({ organizationId, conversations: erased }, "erased a contact");
      return { success: true };
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
