import { createHash, randomBytes } from "node:crypto";
import {
  bearerToken,
  type Endpoint,
  fieldsOf,
  json,
  type PlatformApi,
  type PlatformCall,
  type PlatformReply,
  type PlatformRequest,
  retryAfterHeader,
  type ScriptedFailure,
  startPlatformServer,
} from "./platform-api.ts";

export type GraphApi = PlatformApi & {
  /** Stores media as if a user had sent it; returns its media id. */
  addMedia(bytes: Buffer, options: { mimeType: string; mediaId?: string }): string;
  /** The pages whose `subscribed_apps` include the app (POST subscribes, DELETE removes). */
  subscribedPages: Set<string>;
};

/** A Facebook page the fake knows, with its page access token and linked Instagram account. */
export type FakePage = {
  id: string;
  name: string;
  accessToken: string;
  instagramAccountId?: string;
};

type StoredMedia = { id: string; bytes: Buffer; mimeType: string; sha256: string };

const WHATSAPP_TEXT_LIMIT = 4096;
const MESSENGER_TEXT_LIMIT = 2000;
const EXTENSIONS: Record<string, string> = {
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/aac": "aac",
  "image/jpeg": "jpeg",
  "image/png": "png",
  "application/pdf": "pdf",
};

type GraphErrorFields = {
  message: string;
  code: number;
  type?: string;
  error_subcode?: number;
  error_data?: unknown;
};

/** Graph's error envelope; every error carries a fresh `fbtrace_id`. */
function graphErrorBody(fields: GraphErrorFields) {
  const { message, type = "OAuthException", ...rest } = fields;
  return { error: { message, type, ...rest, fbtrace_id: randomBytes(9).toString("base64url") } };
}

function graphError(status: number, fields: GraphErrorFields): PlatformReply {
  return json(status, graphErrorBody(fields));
}

/**
 * The Cloud API's throughput error. Graph answers it with HTTP 429 or 400, so a test scripts the
 * 400 form with `failNext("messages", { status: 400, body: whatsappRateLimitBody() })`.
 */
export function whatsappRateLimitBody() {
  return graphErrorBody({
    message: "(#130429) Rate limit hit",
    code: 130429,
    error_data: {
      messaging_product: "whatsapp",
      details: "Cloud API message throughput has been reached.",
    },
  });
}

const invalidParameter = (message: string, details?: string) =>
  graphError(400, {
    message: `(#100) ${message}`,
    code: 100,
    ...(details === undefined ? {} : { error_data: { messaging_product: "whatsapp", details } }),
  });

const invalidToken = () =>
  graphError(401, {
    message: "Invalid OAuth access token - Cannot parse access token",
    code: 190,
  });

function whatsappMessage(body: Record<string, unknown>): PlatformReply {
  if (body.messaging_product !== "whatsapp") {
    return invalidParameter("The parameter messaging_product is required.");
  }
  if (body.status === "read") return json(200, { success: true });
  if (typeof body.to !== "string" || body.to === "") {
    return invalidParameter("The parameter to is required.");
  }
  if ((body.type ?? "text") === "text") {
    const text = fieldsOf(body.text).body;
    if (typeof text !== "string" || text === "") {
      return invalidParameter("The parameter text['body'] is required.");
    }
    if (text.length > WHATSAPP_TEXT_LIMIT) {
      return invalidParameter(
        "Invalid parameter",
        `Param text['body'] must be at most ${WHATSAPP_TEXT_LIMIT} characters long.`,
      );
    }
  }
  return json(200, {
    messaging_product: "whatsapp",
    contacts: [{ input: body.to, wa_id: body.to.replace(/\D/g, "") }],
    messages: [{ id: `wamid.HBgL${randomBytes(24).toString("base64")}` }],
  });
}

function messengerMessage(body: Record<string, unknown>): PlatformReply {
  const recipientId = fieldsOf(body.recipient).id;
  if (recipientId === undefined) return invalidParameter("param recipient must be non-empty.");
  if (body.sender_action !== undefined) return json(200, { recipient_id: String(recipientId) });
  if (body.messaging_type === undefined) {
    return invalidParameter("param messaging_type must be non-empty.");
  }
  const text = fieldsOf(body.message).text;
  if (typeof text === "string" && text.length > MESSENGER_TEXT_LIMIT) {
    return invalidParameter(
      `Length of param message[text] must be less than or equal to ${MESSENGER_TEXT_LIMIT}`,
    );
  }
  return json(200, {
    recipient_id: String(recipientId),
    message_id: `m_${randomBytes(30).toString("base64url")}`,
  });
}

/** A page node with the fields asked for (`?fields=id,name,instagram_business_account`). */
function pageNode(page: FakePage, url: URL): PlatformReply {
  const fields = new Set((url.searchParams.get("fields") ?? "id,name").split(","));
  return json(200, {
    id: page.id,
    ...(fields.has("name") ? { name: page.name } : {}),
    ...(fields.has("instagram_business_account") && page.instagramAccountId
      ? { instagram_business_account: { id: page.instagramAccountId } }
      : {}),
  });
}

/**
 * A fake Meta Graph API: the WhatsApp Cloud API's messages and media endpoints, and the
 * Messenger/Instagram Send API with the pages it is given (their node and `subscribed_apps`)
 * (https://developers.facebook.com/docs/whatsapp/cloud-api,
 * https://developers.facebook.com/docs/messenger-platform/reference/send-api).
 */
export async function startGraphApi(options: {
  accessTokens: string[];
  pages?: FakePage[];
  version?: string;
}): Promise<GraphApi> {
  const version = options.version ?? "v23.0";
  const pages = new Map((options.pages ?? []).map((page) => [page.id, page]));
  const accessTokens = new Set([
    ...options.accessTokens,
    ...[...pages.values()].map((page) => page.accessToken),
  ]);
  const media = new Map<string, StoredMedia>();
  const subscribedPages = new Set<string>();
  let baseUrl = "";

  const tokenOf = (call: PlatformCall, url: URL) =>
    bearerToken(call.headers) ??
    url.searchParams.get("access_token") ??
    fieldsOf(call.body).access_token;
  const authorized = (call: PlatformCall, url: URL) => {
    const token = tokenOf(call, url);
    return typeof token === "string" && accessTokens.has(token);
  };
  // A page's edges take only that page's own token, as Graph's do (error 210 otherwise).
  const pageEdge = (call: PlatformCall, url: URL, page: FakePage, answer: () => PlatformReply) => {
    if (!authorized(call, url)) return invalidToken();
    if (tokenOf(call, url) !== page.accessToken) {
      return graphError(403, {
        message: "(#210) A page access token is required to request this resource.",
        code: 210,
      });
    }
    return answer();
  };

  const mediaInfo = (id: string): PlatformReply => {
    const stored = media.get(id);
    if (!stored) {
      return graphError(400, {
        message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
        type: "GraphMethodException",
        code: 100,
        error_subcode: 33,
      });
    }
    const ext = EXTENSIONS[stored.mimeType.split(";")[0]!.trim()] ?? "bin";
    return json(200, {
      url: `${baseUrl}/media-download/${id}?ext=${ext}&hash=${stored.sha256.slice(0, 16)}`,
      mime_type: stored.mimeType,
      sha256: stored.sha256,
      file_size: stored.bytes.length,
      id,
      messaging_product: "whatsapp",
    });
  };

  const route = ({ call, url }: PlatformRequest): Endpoint => {
    const guarded = (name: string, answer: () => PlatformReply): Endpoint => ({
      name,
      answer: () => (authorized(call, url) ? answer() : invalidToken()),
    });
    const download = /^\/media-download\/([^/]+)$/.exec(url.pathname);
    if (download && call.method === "GET") {
      return guarded("media-download", () => {
        const stored = media.get(download[1]!);
        if (!stored) return graphError(404, { message: "Media not found", code: 100 });
        return { status: 200, bytes: stored.bytes, contentType: stored.mimeType };
      });
    }
    const [, pathVersion, nodeId, edge, extra] = url.pathname.split("/");
    const page = nodeId === undefined ? undefined : pages.get(nodeId);
    if (pathVersion === version && page && extra === undefined) {
      if (edge === undefined && call.method === "GET") {
        return guarded("page", () => pageNode(page, url));
      }
      if (edge === "subscribed_apps") {
        return {
          name: `subscribed_apps ${call.method}`,
          answer: () =>
            pageEdge(call, url, page, () => {
              if (call.method === "POST") subscribedPages.add(page.id);
              else if (call.method === "DELETE") subscribedPages.delete(page.id);
              else return json(200, { data: subscribedPages.has(page.id) ? [{ id: "app" }] : [] });
              return json(200, { success: true });
            }),
        };
      }
      if (edge === "messages" && call.method === "POST") {
        return {
          name: "messages",
          answer: () => pageEdge(call, url, page, () => messengerMessage(fieldsOf(call.body))),
        };
      }
    }
    if (pathVersion === version && nodeId && extra === undefined) {
      if (edge === "messages" && call.method === "POST") {
        const body = fieldsOf(call.body);
        return guarded("messages", () =>
          body.recipient === undefined ? whatsappMessage(body) : messengerMessage(body),
        );
      }
      if (edge === undefined && call.method === "GET") {
        return guarded("media", () => mediaInfo(nodeId));
      }
    }
    return {
      name: url.pathname,
      answer: () =>
        graphError(400, { message: `Unknown path components: ${url.pathname}`, code: 2500 }),
    };
  };

  const failureReply = (failure: ScriptedFailure): PlatformReply => {
    const reply =
      failure.status === 429
        ? json(429, whatsappRateLimitBody())
        : failure.status === 401
          ? invalidToken()
          : failure.status >= 500
            ? graphError(failure.status, { message: "An unknown error occurred", code: 1 })
            : graphError(failure.status, { message: "(#100) Invalid parameter", code: 100 });
    return { ...reply, headers: retryAfterHeader(failure) };
  };

  const server = await startPlatformServer({ platform: "Graph API", route, failureReply });
  baseUrl = server.baseUrl;
  return {
    ...server,
    subscribedPages,
    addMedia(bytes, mediaOptions) {
      const id = mediaOptions.mediaId ?? String(10n ** 15n + BigInt(media.size + 1));
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      media.set(id, { id, bytes, mimeType: mediaOptions.mimeType, sha256 });
      return id;
    },
  };
}

type WhatsAppNumber = {
  phoneNumberId: string;
  displayPhoneNumber?: string;
  /** The WhatsApp Business Account id that is the webhook entry's id. */
  businessAccountId?: string;
};

type InboundFields = WhatsAppNumber & {
  /** The sender's WhatsApp id (digits, no plus sign). */
  from: string;
  name: string;
  messageId: string;
  /** Unix seconds (default: now). */
  timestamp?: number;
};

/** The envelope of every WhatsApp webhook: one entry with one change in the `messages` field. */
function whatsappWebhook<Value extends object>(number: WhatsAppNumber, value: Value) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: number.businessAccountId ?? "102290129340398",
        changes: [
          {
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: number.displayPhoneNumber ?? "15550783881",
                phone_number_id: number.phoneNumberId,
              },
              ...value,
            },
            field: "messages",
          },
        ],
      },
    ],
  };
}

function inbound<Message extends object>(fields: InboundFields, message: Message) {
  return whatsappWebhook(fields, {
    contacts: [{ profile: { name: fields.name }, wa_id: fields.from }],
    messages: [
      {
        from: fields.from,
        id: fields.messageId,
        timestamp: String(fields.timestamp ?? Math.floor(Date.now() / 1000)),
        ...message,
      },
    ],
  });
}

/** A user's text message, as Meta posts it to the webhook. */
export function whatsappTextWebhook(fields: InboundFields & { text: string }) {
  return inbound(fields, { type: "text", text: { body: fields.text } });
}

/** A user's audio message (`voice: true` for a voice note recorded in WhatsApp). */
export function whatsappAudioWebhook(
  fields: InboundFields & { mediaId: string; voice: boolean; sha256?: string },
) {
  const audio = {
    mime_type: "audio/ogg; codecs=opus",
    ...(fields.sha256 === undefined ? {} : { sha256: fields.sha256 }),
    id: fields.mediaId,
    voice: fields.voice,
  };
  return inbound(fields, { type: "audio", audio });
}

type StatusError = { code: number; title: string; message?: string; details?: string };

/** A delivery status of a message the business sent; `failed` carries the reason in `errors`. */
export function whatsappStatusWebhook(
  fields: WhatsAppNumber & {
    messageId: string;
    status: "sent" | "delivered" | "read" | "failed";
    recipientId: string;
    errors?: StatusError[];
    timestamp?: number;
  },
) {
  const reengagement: StatusError = {
    code: 131047,
    title: "Re-engagement message",
    details:
      "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
  };
  const errors = fields.errors ?? (fields.status === "failed" ? [reengagement] : undefined);
  return whatsappWebhook(fields, {
    statuses: [
      {
        id: fields.messageId,
        status: fields.status,
        timestamp: String(fields.timestamp ?? Math.floor(Date.now() / 1000)),
        recipient_id: fields.recipientId,
        ...(errors
          ? {
              errors: errors.map((error) => ({
                code: error.code,
                title: error.title,
                message: error.message ?? error.title,
                error_data: { details: error.details ?? error.title },
              })),
            }
          : {}),
      },
    ],
  });
}
