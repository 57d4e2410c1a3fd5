import { createHash } from "node:crypto";
import { type AddressObject, type HeaderValue, type ParsedMail, simpleParser } from "mailparser";
import { ACCEPTED_MIME_TYPES } from "../../ingestion/loaders/index.ts";
import { baseSubject, stripQuotedReply } from "./mail-reply-text.ts";

/** Attachments kept with one mail, all together (they are stored with its message). */
const MAIL_ATTACHMENT_MAX_BYTES = 1024 * 1024;

/** Why a mail is not answered; null when it is a person writing to us. */
type MailIgnoredReason = "auto-reply" | "bulk" | "bounce" | "own-address" | "no-sender" | "empty";

/** What a mail reading thread is given (mail-reader.ts): the raw message, moved to it. */
export type MailReadTask = { raw: Uint8Array; channelAddress: string };

/** A mail as the channel reads it. */
export type ReadMail = {
  /** The Message-ID without angle brackets (made from the bytes when the mail has none). */
  messageId: string;
  /** The root of the mail's thread: the first of References, else In-Reply-To, else itself. */
  threadKey: string;
  from: { address: string; name: string | undefined } | null;
  subject: string;
  /** What the customer wrote: quoted history and signature taken out (HTML read as text). */
  text: string;
  /** Accepted files as data: URLs, within MAIL_ATTACHMENT_MAX_BYTES. */
  attachments: Array<{ url: string }>;
  /** Attachments left out, and why, for the message's text. */
  skippedAttachments: string[];
  /** What a reply must carry in References: the mail's own chain and its id. */
  references: string[];
  sentAt: Date;
  ignored: MailIgnoredReason | null;
};

const ACCEPTED: ReadonlySet<string> = new Set(ACCEPTED_MIME_TYPES);
// Mail programs label files loosely: the types the knowledge loaders read under other names.
const ALSO_ACCEPTED: Readonly<Record<string, string>> = {
  "text/x-markdown": "text/markdown",
  "text/x-csv": "text/csv",
  "application/csv": "text/csv",
};

/** Longer ids are not ids (and would not fit the unique index of platform message ids). */
const MAX_ID_LENGTH = 500;
/** References kept for a reply: the thread's root and the latest ones (RFC 5322 §3.6.4). */
const MAX_REFERENCES = 20;

/** What PostgreSQL can store: no NUL, no unpaired surrogate. */
const storable = (text: string) => text.replaceAll("\u0000", "").toWellFormed();

const withoutBrackets = (id: string) =>
  storable(id.trim().replace(/^<+/, "").replace(/>+$/, "")).replace(/\s+/g, "");

/** Message ids in a References or In-Reply-To value, in order. */
function messageIdsOf(value: string | string[] | undefined): string[] {
  const joined = Array.isArray(value) ? value.join(" ") : (value ?? "");
  const bracketed = joined.match(/<[^<>\s]+>/g);
  const ids = bracketed ?? joined.split(/\s+/);
  return ids.map(withoutBrackets).filter((id) => id !== "" && id.length <= MAX_ID_LENGTH);
}

function headerText(value: HeaderValue | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map((item) => headerText(item as HeaderValue)).join(", ");
  if (value instanceof Date) return value.toISOString();
  if ("value" in value && typeof value.value === "string") return value.value;
  if ("text" in value && typeof value.text === "string") return value.text;
  return "";
}

function firstAddress(from: AddressObject | undefined) {
  const found = from?.value.find((entry) => entry.address);
  if (!found?.address) return null;
  return {
    address: storable(found.address).toLowerCase(),
    name: storable(found.name ?? "").trim() || undefined,
  };
}

/**
 * Why a mail must not be answered (RFC 3834 and the habits of mailing lists, vacation
 * responders and bounces), or null.
 */
function ignoredReason(
  mail: ParsedMail,
  from: ReadMail["from"],
  channelAddress: string,
): MailIgnoredReason | null {
  const header = (name: string) => headerText(mail.headers.get(name)).trim().toLowerCase();
  const autoSubmitted = header("auto-submitted");
  if (autoSubmitted !== "" && autoSubmitted !== "no") return "auto-reply";
  if (mail.headers.has("x-autoreply") || mail.headers.has("x-autorespond")) return "auto-reply";
  if (/^(bulk|list|junk)$/.test(header("precedence"))) return "bulk";
  if (header("content-type").startsWith("multipart/report")) return "bounce";
  if (!from) return "no-sender";
  const localPart = from.address.split("@")[0] ?? "";
  if (/^(mailer-daemon|postmaster)$/i.test(localPart)) return "bounce";
  if (from.address === channelAddress.toLowerCase()) return "own-address";
  return null;
}

function mimeTypeOf(contentType: string): string | null {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (ACCEPTED.has(type)) return type;
  return ALSO_ACCEPTED[type] ?? null;
}

/** A data: URL that keeps the file's name, for the attachment reader (RFC 2397 parameters). */
function dataUrlOf(mimeType: string, fileName: string, content: Buffer): string {
  return `data:${mimeType};name=${encodeURIComponent(fileName)};base64,${content.toString("base64")}`;
}

function attachmentsOf(mail: ParsedMail) {
  const attachments: Array<{ url: string }> = [];
  const skipped: string[] = [];
  let bytes = 0;
  for (const attachment of mail.attachments) {
    // Images embedded in an HTML body are part of its layout, not files sent to us.
    if (attachment.related) continue;
    const name = attachment.filename ?? "attachment";
    const mimeType = mimeTypeOf(attachment.contentType);
    if (!mimeType) {
      skipped.push(`${name} (${attachment.contentType}: not a file type the agent reads)`);
      continue;
    }
    if (bytes + attachment.size > MAIL_ATTACHMENT_MAX_BYTES) {
      skipped.push(`${name} (larger than the ${MAIL_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB kept)`);
      continue;
    }
    bytes += attachment.size;
    attachments.push({ url: dataUrlOf(mimeType, name, attachment.content) });
  }
  return { attachments, skipped };
}

/**
 * Reads one raw RFC 5322 message: who wrote it, its thread, the new text (plain text preferred,
 * HTML converted when it is all there is), its files, and whether it must not be answered.
 * It runs in a mail reading thread (mail-reader.ts).
 */
export async function readMail(raw: Buffer, channelAddress: string): Promise<ReadMail> {
  const mail = await simpleParser(raw, {
    skipTextToHtml: true,
    skipImageLinks: true,
    skipTextLinks: true,
  });
  const from = firstAddress(mail.from);
  const ownId = mail.messageId ? withoutBrackets(mail.messageId) : "";
  const messageId =
    ownId !== "" && ownId.length <= MAX_ID_LENGTH
      ? ownId
      : `sha256-${createHash("sha256").update(raw).digest("hex")}@agentdesk.invalid`;
  const chain = messageIdsOf(mail.references);
  const inReplyTo = messageIdsOf(mail.inReplyTo);
  // The chain, with In-Reply-To at its end when a mail program left it out of References.
  const linked = [...chain, ...inReplyTo.filter((id) => !chain.includes(id))];
  const references =
    linked.length > MAX_REFERENCES ? [linked[0]!, ...linked.slice(-(MAX_REFERENCES - 1))] : linked;
  const { attachments, skipped } = attachmentsOf(mail);
  const subject = storable(mail.subject ?? "").trim();
  const body = stripQuotedReply(mail.text ?? "");
  // The first mail of a thread often says what it is about in the subject alone.
  const startsThread = references.length === 0;
  const text = [startsThread && baseSubject(subject) !== "" ? baseSubject(subject) : "", body]
    .filter((part) => part !== "")
    .join("\n\n");
  const date = mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : new Date();
  const ignored =
    ignoredReason(mail, from, channelAddress) ??
    (text === "" && attachments.length === 0 ? "empty" : null);
  return {
    messageId,
    threadKey: references[0] ?? messageId,
    from,
    subject,
    text,
    attachments,
    skippedAttachments: skipped,
    references: [...references, messageId],
    // A clock ahead of ours would date the mail after our answer.
    sentAt: date.getTime() > Date.now() ? new Date() : date,
    ignored,
  };
}
