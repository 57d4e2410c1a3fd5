import { z } from "zod";
import { CHANNELS } from "./conversation-turns.ts";

// The fields every request that adds a message to a conversation validates the same way (the
// query and query-agent bodies).

const channelMessage = `must be one of: ${CHANNELS.join(", ")}`;
export const channelSchema = z.enum(CHANNELS, { error: channelMessage });

/** Conversation and visitor ids may be chosen by clients: printable ASCII without spaces. */
export const clientIdSchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, "must be 1 to 200 printable characters without spaces");

export const messageText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => value.trim() !== "", "must not be empty");

export const contactSchema = z
  .object({
    email: z.email().max(254).optional(),
    phoneNumber: z.string().trim().max(40).optional(),
    firstName: z.string().trim().max(200).optional(),
    lastName: z.string().trim().max(200).optional(),
    userId: z.string().trim().max(200).optional(),
  })
  .describe(
    "CRM contact; an existing contact with the same email, phone number or userId is reused",
  );
