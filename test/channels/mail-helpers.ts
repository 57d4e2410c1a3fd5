import MailComposer from "nodemailer/lib/mail-composer/index.js";
import { startFakeSmtp } from "../fakes/smtp-server.ts";
import type { TestApp } from "../harness/app.ts";
import type { AppTestOptions } from "../harness/fixtures.ts";
import { type ChannelBody, channelTest, platformEnv } from "./channel-helpers.ts";

export const SUPPORT = "support@shop.example";

/**
 * The `test` of a file about mail channels: `channelTest` with SMTP_URL in its `env`, and
 * - `smtp`: a fake SMTP server on 127.0.0.1, started once per file before the app.
 */
export function mailTest(options: AppTestOptions = {}) {
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  const test = channelTest(options).extend("smtp", { scope: "file" }, async ({}, { onCleanup }) => {
    const smtp = await startFakeSmtp();
    onCleanup(() => smtp.close());
    return smtp;
  });
  return test.override("env", { scope: "file" }, ({ telegram, graph, slack, smtp }) => ({
    ...platformEnv({ telegram, graph, slack }),
    SMTP_URL: smtp.url,
    ...options.env,
  }));
}

export type MailSpec = {
  from?: string;
  to?: string;
  subject?: string;
  messageId: string;
  inReplyTo?: string;
  references?: string[];
  text?: string;
  html?: string;
  headers?: Record<string, string>;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
  date?: Date;
  contentType?: string;
};

/** A raw RFC 5322 message, composed by nodemailer as a mail program would write it. */
export async function composeMail(spec: MailSpec): Promise<Buffer> {
  const composer = new MailComposer({
    from: spec.from ?? '"Zoë Núñez" <zoe@customer.example>',
    to: spec.to ?? SUPPORT,
    subject: spec.subject ?? "Where is my lamp?",
    messageId: `<${spec.messageId}>`,
    ...(spec.inReplyTo ? { inReplyTo: `<${spec.inReplyTo}>` } : {}),
    ...(spec.references ? { references: spec.references.map((id) => `<${id}>`) } : {}),
    ...(spec.text !== undefined ? { text: spec.text } : {}),
    ...(spec.html !== undefined ? { html: spec.html } : {}),
    headers: spec.headers ?? {},
    attachments: spec.attachments ?? [],
    date: spec.date ?? new Date(),
  });
  return composer.compile().build();
}

/** POSTs a raw message to the channel's inbound URL with its bearer token. */
export function postMail(
  app: TestApp,
  channel: Pick<ChannelBody, "webhookUrl">,
  raw: Buffer | string,
  token: string | null,
  contentType = "message/rfc822",
) {
  return app.api.inject({
    method: "POST",
    url: new URL(channel.webhookUrl).pathname,
    headers: {
      "content-type": contentType,
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    payload: raw,
  });
}

/** The message ids (without brackets) of a References or In-Reply-To header. */
export const idsOf = (header: string) =>
  (header.match(/<[^<>\s]+>/g) ?? []).map((id) => id.slice(1, -1));
