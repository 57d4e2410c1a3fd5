import { z } from "zod";
import {
  annotationIdField as id,
  NUL_MESSAGE,
  noNul,
} from "../../../domain/annotations/annotation-request.ts";

export const annotationParams = z.object({ id: id() });

export const statusBody = z.object({
  status: z.string().trim().min(1).max(50).refine(noNul, NUL_MESSAGE),
});

const tagRef = z.object({ tag: z.object({ id: z.string(), name: z.string() }) });

export const annotationResponse = z.object({
  id: z.string(),
  messageId: z.string(),
  conversationId: z.string(),
  agentId: z.string(),
  organizationId: z.string(),
  comment: z.string(),
  sentiment: z.string(),
  status: z.string(),
  createdById: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.object({ email: z.string().nullable() }).nullable(),
  tags: z.array(tagRef),
});

const contact = z
  .object({ id: z.string(), phoneNumber: z.string().nullable(), email: z.string().nullable() })
  .nullable();

const conversationMessage = z.object({
  id: z.string(),
  content: z.string(),
  from: z.enum(["human", "agent"]),
  createdAt: z.string(),
  agent: z.object({ id: z.string(), name: z.string(), iconUrl: z.string().nullable() }).nullable(),
  contact,
  annotation: z.object({ id: z.string(), sentiment: z.string() }).nullable(),
});

export const annotationDetailResponse = annotationResponse.extend({
  message: conversationMessage,
  conversation: z.object({
    id: z.string(),
    agentId: z.string(),
    visitorId: z.string(),
    channel: z.string(),
    status: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    contact,
    messages: z.array(conversationMessage).describe("Oldest first"),
  }),
});

export const statusesBody = z.object({
  statuses: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_-]{1,50}$/, "letters, digits, _ and -, 1 to 50 characters"),
    )
    .min(1)
    .max(20)
    .describe('Accepted by PATCH /api/annotations/{id}; must include "pending"'),
});
