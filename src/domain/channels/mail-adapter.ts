import { z } from "zod";
import { AppError } from "../../lib/errors.ts";
import { constantTimeEquals } from "../../lib/secrets.ts";
import {
  type ChannelAdapter,
  type ChannelSettings,
  InboundFormatError,
  type InboundMessage,
  PlatformError,
} from "./channel-adapter.ts";
import { checkImapLogin, imapSourceOf, parseImapUrl } from "./mail-imap-client.ts";

/** Answers are one mail: generous, since nothing is split. */
const MAIL_MAX_CHARS = 100_000;

const isMasked = (value: string) => value.startsWith("••••");

const IMAP_URL_MESSAGE = "must be imaps://user:password@host[:port] (or imap://…)";

/**
 * The config a client sends, `{address, imap?: {url, mailbox?}}` (`imap: null` removes IMAP),
 * read into the flat settings stored: `address`, and `imapUrl` (sealed) with `imapMailbox`. A
 * PATCH merges into the stored settings, so those are read too; an `imap.url` sent back masked,
 * as a GET showed it, keeps the stored URL.
 */
const configSchema = z
  .object({
    address: z
      .email("must be the channel's e-mail address")
      .max(254)
      .transform((address) => address.toLowerCase()),
    imap: z
      .object({
        url: z.string().trim().min(1).max(2_048),
        mailbox: z.string().trim().min(1).max(200).optional(),
      })
      .nullable()
      .optional(),
    imapUrl: z.string().optional(),
    imapMailbox: z.string().optional(),
  })
  .transform((config, context): ChannelSettings => {
    const settings: ChannelSettings = { address: config.address };
    let url = config.imapUrl;
    let mailbox = config.imapMailbox;
    if (config.imap === null) {
      url = undefined;
      mailbox = undefined;
    } else if (config.imap) {
      url = isMasked(config.imap.url) ? config.imapUrl : config.imap.url;
      mailbox = config.imap.mailbox;
      if (!url || !parseImapUrl(url)) {
        context.addIssue({ code: "custom", path: ["imap", "url"], message: IMAP_URL_MESSAGE });
        return settings;
      }
    }
    if (url) {
      settings.imapUrl = url;
      // Also what marks, in the shown config, a channel whose mailbox is polled.
      settings.imapMailbox = mailbox ?? "INBOX";
    }
    return settings;
  }) as unknown as z.ZodType<ChannelSettings>;

/** E-mail: raw MIME forwarded to our URL with a bearer token, and/or an IMAP mailbox polled. */
export const mailAdapter: ChannelAdapter = {
  type: "mail",
  configSchema,
  secretFields: ["imapUrl"],
  maxParts: 1,
  maxChars: MAIL_MAX_CHARS,
  revealsWebhookSecret: true,

  async connect(context, { settings }) {
    if (!context.mail) {
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        "Mail channels need SMTP_URL: set it (smtp://user:pass@host:port or smtps://…) so that answers can be sent",
      );
    }
    const source = imapSourceOf(settings);
    if (source) await checkImapLogin(context, source);
    return settings;
  },

  // Forwarding is set up in the mail server or provider, and IMAP polling stops with the channel.
  async disconnect() {},

  verify(request, { webhookSecret }) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
    return match !== null && constantTimeEquals(match[1]!, webhookSecret);
  },

  async read(request, { settings }, context) {
    const contentType = (request.headers["content-type"] ?? "").split(";")[0]!.trim();
    if (contentType.toLowerCase() !== "message/rfc822") {
      throw new InboundFormatError(
        "The body must be one raw message (Content-Type: message/rfc822)",
      );
    }
    if (request.rawBody.length === 0) throw new InboundFormatError("The message is empty");
    const mail = await context.mailReader.read(request.rawBody, settings.address!);
    if (!mail.from && mail.ignored === "no-sender") {
      throw new InboundFormatError("The body is not a mail: it has no From address");
    }
    if (mail.ignored || !mail.from) return { kind: "events", messages: [], statuses: [] };
    const skipped =
      mail.skippedAttachments.length > 0
        ? `\n\n[Attachments not read: ${mail.skippedAttachments.join("; ")}]`
        : "";
    const message: InboundMessage = {
      platformMessageId: mail.messageId,
      threadKey: mail.threadKey,
      replyTo: {
        to: mail.from.address,
        subject: mail.subject,
        inReplyTo: mail.messageId,
        references: mail.references.join(" "),
      },
      sender: { externalId: mail.from.address, name: mail.from.name, email: mail.from.address },
      payload: {
        text: `${mail.text}${skipped}`.trim(),
        ...(mail.attachments.length > 0 ? { attachments: mail.attachments } : {}),
      },
      sentAt: mail.sentAt,
    };
    return { kind: "events", messages: [message], statuses: [] };
  },

  async send(context, { settings }, to, text, author) {
    if (!context.mail) {
      throw new PlatformError("SMTP send: SMTP_URL is not set on this server", {
        retryable: false,
      });
    }
    const { messageId } = await context.mail.send({
      from: settings.address!,
      to: to.to!,
      subject: to.subject ?? "",
      inReplyTo: to.inReplyTo,
      references: (to.references ?? "").split(" ").filter(Boolean),
      text,
      automatic: !author?.byOperator,
    });
    return { platformMessageId: messageId };
  },

  showConfig(config) {
    const { imapUrl, imapMailbox, ...rest } = config;
    if (!imapUrl) return rest;
    return { ...rest, imap: { url: imapUrl, ...(imapMailbox ? { mailbox: imapMailbox } : {}) } };
  },
};
