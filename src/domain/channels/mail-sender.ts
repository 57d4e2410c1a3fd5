import { randomUUID } from "node:crypto";
import { createTransport } from "nodemailer";
import { PlatformError } from "./channel-adapter.ts";
import { replySubject } from "./mail-reply-text.ts";
import type { MailTransport } from "./mail-transport.ts";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The text as simple HTML: paragraphs at blank lines, line breaks kept. */
function htmlOf(text: string): string {
  const paragraphs = text
    .trim()
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, "<br>\n")}</p>`);
  return `<!doctype html>\n<html><body>\n${paragraphs.join("\n")}\n</body></html>\n`;
}

/** nodemailer's failure as the channel's: 4xx and the network are tried again, 5xx is final. */
function failureOf(error: unknown): PlatformError {
  const { responseCode, code } = error as { responseCode?: number; code?: string };
  const permanent = typeof responseCode === "number" && responseCode >= 500;
  const reason =
    typeof responseCode === "number"
      ? `the mail server answered ${responseCode}`
      : `the mail server could not be used (${code ?? "no connection"})`;
  return new PlatformError(`SMTP send: ${reason}`, { retryable: !permanent });
}

export function createMailTransport(smtpUrl: string): MailTransport {
  const transport = createTransport(smtpUrl);
  return {
    async send(reply) {
      const domain = reply.from.split("@")[1] ?? "agentdesk.invalid";
      const messageId = `${randomUUID()}@${domain}`;
      const bracket = (id: string) => `<${id}>`;
      try {
        await transport.sendMail({
          from: reply.from,
          to: reply.to,
          subject: replySubject(reply.subject),
          messageId: bracket(messageId),
          ...(reply.inReplyTo ? { inReplyTo: bracket(reply.inReplyTo) } : {}),
          ...(reply.references.length > 0 ? { references: reply.references.map(bracket) } : {}),
          text: reply.text,
          html: htmlOf(reply.text),
          // RFC 3834: an automatic answer, so another responder (or agent) does not answer it;
          // the second header keeps Exchange's out-of-office replies away.
          headers: reply.automatic
            ? { "Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All" }
            : {},
        });
      } catch (error) {
        throw failureOf(error);
      }
      return { messageId };
    },
    close: () => transport.close(),
  };
}
