import { and, eq, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { contacts } from "../../db/schema/index.ts";
import { newId } from "../../lib/ids.ts";

export type ContactRow = typeof contacts.$inferSelect;

/** A contact as clients send it (spec: Contact); every field optional. */
export type ContactInput = {
  email?: string;
  phoneNumber?: string;
  firstName?: string;
  lastName?: string;
  userId?: string;
};

/** Lower-cased email and a phone reduced to its digits (and a leading +), so matching is stable. */
function normalizeContact(input: ContactInput): ContactInput {
  const phone = input.phoneNumber?.trim();
  const digits = phone ? `${phone.startsWith("+") ? "+" : ""}${phone.replace(/\D/g, "")}` : "";
  return {
    email: input.email?.trim().toLowerCase() || undefined,
    phoneNumber: digits.replace("+", "") === "" ? undefined : digits,
    firstName: input.firstName?.trim() || undefined,
    lastName: input.lastName?.trim() || undefined,
    userId: input.userId?.trim() || undefined,
  };
}

export function createContactRepo(db: Db) {
  return {
    async findById(organizationId: string, contactId: string, tx: Db = db) {
      const [row] = await tx
        .select()
        .from(contacts)
        .where(and(eq(contacts.organizationId, organizationId), eq(contacts.id, contactId)));
      return row ?? null;
    },

    /**
     * Reuses the contact matching the email, phone number or userId (in that order of preference)
     * and fills its empty fields; otherwise creates one. Call inside a transaction: a per-
     * organization advisory lock makes two concurrent first messages of a contact create one row.
     */
    async upsertByMatch(
      organizationId: string,
      input: ContactInput,
      tx: Db,
    ): Promise<ContactRow | null> {
      const contact = normalizeContact(input);
      const matchers: SQL[] = [];
      if (contact.email) matchers.push(eq(contacts.email, contact.email));
      if (contact.phoneNumber) matchers.push(eq(contacts.phoneNumber, contact.phoneNumber));
      if (contact.userId) matchers.push(eq(contacts.externalUserId, contact.userId));
      if (matchers.length === 0 && !contact.firstName && !contact.lastName) return null;

      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`contacts:${organizationId}`}))`,
      );
      if (matchers.length > 0) {
        const [match] = await tx
          .select()
          .from(contacts)
          .where(and(eq(contacts.organizationId, organizationId), or(...matchers)))
          .orderBy(
            sql`case when ${contacts.email} = ${contact.email ?? null} then 0
                     when ${contacts.phoneNumber} = ${contact.phoneNumber ?? null} then 1
                     else 2 end`,
            contacts.createdAt,
          )
          .limit(1);
        if (match) {
          const [updated] = await tx
            .update(contacts)
            .set({
              email: match.email ?? contact.email,
              phoneNumber: match.phoneNumber ?? contact.phoneNumber,
              firstName: match.firstName ?? contact.firstName,
              lastName: match.lastName ?? contact.lastName,
              externalUserId: match.externalUserId ?? contact.userId,
              updatedAt: new Date(),
            })
            .where(eq(contacts.id, match.id))
            .returning();
          return updated!;
        }
      }
      const [inserted] = await tx
        .insert(contacts)
        .values({
          id: newId(),
          organizationId,
          email: contact.email,
          phoneNumber: contact.phoneNumber,
          firstName: contact.firstName,
          lastName: contact.lastName,
          externalUserId: contact.userId,
        })
        .returning();
      return inserted!;
    },
  };
}

export type ContactRepo = ReturnType<typeof createContactRepo>;
