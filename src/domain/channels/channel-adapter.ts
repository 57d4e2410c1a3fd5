import type { z } from "zod";
import type { PlatformSettings } from "../../config/channels-config.ts";
import type {
  ChannelSender,
  ChannelType,
  DeliveryStatus,
  InboundPayload,
  ReplyTarget,
} from "../../db/schema/index.ts";
import type { ReadMail } from "./mail-reading.ts";
import type { MailTransport } from "./mail-transport.ts";

/** A channel's settings as an adapter uses them: shown fields and secrets together, in clear. */
export type ChannelSettings = Record<string, string>;

/** What an adapter may call: the platform's base URLs and an HTTP client with a timeout. */
export type PlatformContext = {
  platforms: PlatformSettings;
  /** For the operator's base URLs (trusted). */
  fetch: typeof fetch;
  /**
   * For URLs taken from a channel's config (a Chatwoot instance): every address checked by the
   * SSRF guard, redirects not followed.
   */
  guardedFetch: typeof fetch;
  /** The largest voice note or audio file downloaded (TRANSCRIBE_MAX_BYTES). */
  maxDownloadBytes: number;
  /** E-mail out for the mail channel (SMTP_URL); null when the server has none. */
  mail: MailTransport | null;
  /** E-mail in: raw mails read in a thread, off the event loop (mail-reader.ts). */
  mailReader: { read(raw: Uint8Array, channelAddress: string): Promise<ReadMail> };
  /**
   * The addresses of a host a channel's config names (an IMAP server), refusing private ones
   * as every outbound request does (the SSRF guard of src/lib/safe-fetch.ts).
   */
  resolveHost(hostname: string): Promise<string[]>;
};

/** The raw request as it reached /channels/{type}/{id}, before anything parsed its body. */
export type InboundRequest = {
  method: "GET" | "POST";
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  rawBody: Buffer;
};

/** A customer message found in an inbound request. */
export type InboundMessage = {
  /** Unique per channel: the deduplication key. */
  platformMessageId: string;
  /** One conversation per key: a chat, a number, a thread. */
  threadKey: string;
  replyTo: ReplyTarget;
  sender: ChannelSender;
  payload: InboundPayload;
  sentAt: Date;
  /** The platform's order of the chat's messages, where finer than `sentAt`. */
  platformOrder?: number | undefined;
};

/** A status callback about a message we sent (WhatsApp's `statuses[]`). */
export type InboundStatus = {
  platformMessageId: string;
  status: Exclude<DeliveryStatus, "queued">;
  error?: string | undefined;
};

/** What an inbound request asks of us, once its signature was checked. */
export type InboundReading =
  /** A platform handshake answered as the platform wants it (a challenge echoed back). */
  | { kind: "handshake"; status: number; contentType: string; body: string }
  | { kind: "events"; messages: InboundMessage[]; statuses: InboundStatus[] };

/** The platform refused a call. `retryable` failures are tried again later. */
export class PlatformError extends Error {
  override name = "PlatformError";
  constructor(
    message: string,
    readonly options: {
      retryable: boolean;
      /** The platform said how long to wait (429 Retry-After). */
      retryAfterMs?: number | undefined;
      /** The credentials are refused: the channel goes to status error. */
      credentialsRefused?: boolean | undefined;
      /** The config field the refusal is about, when it is one (a base URL not allowed). */
      field?: string | undefined;
    },
  ) {
    super(message);
  }
}

/**
 * One messaging platform: the whole of its wire protocol in one file. The inbound route and
 * the answer job are the same for every type; only these differ.
 */
export type ChannelAdapter = {
  type: ChannelType;
  /** The config a client sends when creating the channel (all fields); PATCH merges into it. */
  configSchema: z.ZodType<ChannelSettings>;
  /** The config fields that are credentials: stored sealed, shown masked. */
  secretFields: readonly string[];
  /** The most messages one answer may become, and the characters each may hold. */
  maxParts: number;
  maxChars: number;
  /** A smaller limit for some chats (Instagram's, on a Meta page); absent: `maxChars`. */
  maxCharsTo?(to: ReplyTarget): number;
  /**
   * Checks the credentials with the platform and registers our webhook where the platform has
   * an API for it; returns the settings with what it generated (a verify token).
   */
  connect(
    context: PlatformContext,
    channel: { settings: ChannelSettings; webhookUrl: string; webhookSecret: string },
  ): Promise<ChannelSettings>;
  /** Removes our webhook from the platform, where it has one. */
  disconnect(
    context: PlatformContext,
    channel: { settings: ChannelSettings; webhookUrl: string },
  ): Promise<void>;
  /**
   * Whether the request comes from the platform: a signature over the raw body or a shared
   * secret, compared in constant time. GET handshakes are checked in `read`.
   */
  verify(
    request: InboundRequest,
    channel: { settings: ChannelSettings; webhookSecret: string },
    now: Date,
  ): boolean;
  /**
   * What the verified request holds (a promise where reading takes parsing that is async: MIME).
   * Throws InboundFormatError for a body it cannot read.
   */
  read(
    request: InboundRequest,
    channel: { settings: ChannelSettings },
    context: PlatformContext,
  ): InboundReading | Promise<InboundReading>;
  /** Sends one text message; returns the platform's id of it. */
  send(
    context: PlatformContext,
    channel: { settings: ChannelSettings },
    to: ReplyTarget,
    text: string,
    /** Who wrote it: a person (an operator's reply) or the agent (its answer, unavailableMessage). */
    author?: { byOperator: boolean },
  ): Promise<{ platformMessageId: string }>;
  /** Shows the customer that an answer is being written, where the platform can. */
  typing?(
    context: PlatformContext,
    channel: { settings: ChannelSettings },
    to: ReplyTarget,
  ): Promise<void>;
  /**
   * Tells the platform that a person takes the conversation over (Chatwoot: the conversation is
   * opened to its agents). Called before the AI's handover answer is sent; may be called again.
   */
  handOver?(
    context: PlatformContext,
    channel: { settings: ChannelSettings },
    to: ReplyTarget,
  ): Promise<void>;
  /** The bytes of a voice note or audio file the customer sent. */
  download?(
    context: PlatformContext,
    channel: { settings: ChannelSettings },
    audio: NonNullable<InboundPayload["audio"]>,
  ): Promise<Uint8Array>;
  /**
   * Free text may only be sent until this long after the customer's last message (WhatsApp's
   * 24-hour customer service window); absent: no limit.
   */
  replyWindowMs?: number;
  /**
   * The platform proves itself with our webhook secret as a bearer token (mail's inbound
   * forwarding): the creation's answer shows it once, as `inboundToken`; nothing shows it again.
   */
  revealsWebhookSecret?: boolean;
  /** The config as the API shows it, from the stored (flat, masked) fields; default as stored. */
  showConfig?(config: Record<string, string>): Record<string, string | Record<string, string>>;
};

/** The body is not what the platform sends: 400, nothing stored. */
export class InboundFormatError extends Error {
  override name = "InboundFormatError";
}
