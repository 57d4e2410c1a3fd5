import { simpleParser } from "mailparser";
import type { PlatformCall } from "../../test/fakes/platform-api.ts";
import type { FakeSmtp } from "../../test/fakes/smtp-server.ts";
import type { PlannedUpdate } from "./channel-traffic.ts";

/** The size of each raw message posted: a reply with a long quoted history, as real mail is. */
const MAIL_BYTES = 20 * 1024;

const customerOf = (chatId: number) => `c${chatId}@customer.example`;
const threadRootOf = (chatId: number) => `thread-${chatId}@customer.example`;

/** The chat a mail conversation's thread (its channelExternalId) belongs to. */
export const chatOfThread = (threadKey: string | null) =>
  Number(/^thread-(\d+)@/.exec(threadKey ?? "")?.[1] ?? Number.NaN);

/**
 * The planned Telegram traffic rewritten as mail: each chat is one thread (its References root),
 * each update one raw message of MAIL_BYTES with the same "[#n]" marker in its new text and a
 * quoted history (stripped before the model sees it) filling the rest.
 */
export function planMails(planned: readonly PlannedUpdate[], to: string): PlannedUpdate[] {
  const date = new Date().toUTCString();
  return planned.map((update, index) => {
    const head = [
      `From: "Customer ${update.chatId}" <${customerOf(update.chatId)}>`,
      `To: ${to}`,
      "Subject: Re: My order",
      `Date: ${date}`,
      `Message-ID: <m${index}.${update.chatId}@customer.example>`,
      `In-Reply-To: <${threadRootOf(update.chatId)}>`,
      `References: <${threadRootOf(update.chatId)}>`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      `Question ${update.sequence} [#${update.sequence}]`,
      "",
      `On Mon, 1 Dec 2026 at 10:00, Support <${to}> wrote:`,
    ].join("\r\n");
    const quoted = "> Thank you for your message; we will look into your order right away.\r\n";
    const fill = Math.max(0, Math.ceil((MAIL_BYTES - head.length) / quoted.length));
    return { ...update, body: `${head}\r\n${quoted.repeat(fill)}` };
  });
}

type RecordedMail = { to: string; raw: string; at: number; text?: string };

/** Records when each mail reached the fake SMTP server. */
export function recordMails(smtp: FakeSmtp) {
  const received: RecordedMail[] = [];
  smtp.onMail((mail) => received.push({ to: mail.to[0] ?? "", raw: mail.raw, at: Date.now() }));
  return received;
}

/** The answers mailed, as the analysis reads Telegram's sends: {chat_id, text} and when. */
export async function mailSends(received: RecordedMail[]): Promise<PlatformCall[]> {
  return Promise.all(
    received.map(async (mail) => {
      // Each mail is parsed once, however often the drain looks.
      mail.text ??= ((await simpleParser(mail.raw)).text ?? "").trim();
      return {
        name: "mail",
        method: "SMTP",
        path: "",
        headers: {},
        body: { chat_id: /^c(\d+)@/.exec(mail.to)?.[1] ?? "0", text: mail.text },
        at: mail.at,
      };
    }),
  );
}
