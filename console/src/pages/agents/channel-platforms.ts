import type { ApiData } from "../../api/client.ts";

export type Channel = ApiData<"/api/agents/{agentId}/channels", "get">["data"][number];
export type ChannelType = Channel["type"];

export const CHANNEL_TYPE_LABELS: Record<ChannelType, string> = {
  telegram: "Telegram",
  whatsapp: "WhatsApp",
  slack: "Slack",
  meta: "Messenger and Instagram",
  chatwoot: "Chatwoot",
  mail: "E-mail",
};

export type CredentialField = {
  key: string;
  label: string;
  hint: string;
  /** A credential: typed unseen, stored encrypted, shown back masked. */
  secret: boolean;
  required: boolean;
};

/** The platforms the console connects, with their config fields (docs/channels.md). */
export const PLATFORMS = {
  telegram: {
    label: "Telegram",
    fields: [
      {
        key: "botToken",
        label: "Bot token",
        hint: "The token @BotFather gave for the bot, like 7000000001:AAH…",
        secret: true,
        required: true,
      },
    ],
  },
  whatsapp: {
    label: "WhatsApp",
    fields: [
      {
        key: "phoneNumberId",
        label: "Phone number ID",
        hint: "WhatsApp → API Setup in the Meta app: the ID of the number, not the number.",
        secret: false,
        required: true,
      },
      {
        key: "accessToken",
        label: "Access token",
        hint: "A permanent token of a system user, with whatsapp_business_messaging.",
        secret: true,
        required: true,
      },
      {
        key: "appSecret",
        label: "App secret",
        hint: "App settings → Basic in the Meta app.",
        secret: true,
        required: true,
      },
      {
        key: "verifyToken",
        label: "Verify token",
        hint: "Optional: blank, the service makes one. You paste it into Meta's webhook settings.",
        secret: false,
        required: false,
      },
    ],
  },
  slack: {
    label: "Slack",
    fields: [
      {
        key: "botToken",
        label: "Bot User OAuth Token",
        hint: "OAuth & Permissions in the Slack app, after installing it: xoxb-…",
        secret: true,
        required: true,
      },
      {
        key: "signingSecret",
        label: "Signing secret",
        hint: "Basic Information → App Credentials in the Slack app.",
        secret: true,
        required: true,
      },
    ],
  },
} satisfies Partial<Record<ChannelType, { label: string; fields: CredentialField[] }>>;

export type ConnectableType = keyof typeof PLATFORMS;

/** Where the webhook URL (and the verify token) go on the platform's side. */
export const SETUP_STEPS: Record<ChannelType, string> = {
  telegram:
    "Nothing to paste: the service registered this URL with Telegram. Telegram calls only https URLs on ports 443, 80, 88 or 8443.",
  whatsapp:
    "In the Meta app: WhatsApp → Configuration → Webhook → Edit. Callback URL: the webhook URL; Verify token: the verify token; then Verify and save, and subscribe to the messages field.",
  slack:
    "In the Slack app: Event Subscriptions → Enable Events, Request URL: the webhook URL; subscribe to the bot events app_mention and message.im, then save.",
  meta: "In the Meta app: Messenger → Messenger API Settings → Configure webhooks (and Instagram → Webhooks). Callback URL: the webhook URL; Verify token: the verify token; then Verify and save, and subscribe to the messages field.",
  chatwoot: "In Chatwoot: Settings → Bots, the bot's Webhook URL.",
  mail: "Your mail server posts each message (raw MIME) to the webhook URL with the inbound token, or the service polls IMAP.",
};

/** The names of the config fields the API shows (docs/channels.md), as a person reads them. */
export const CONFIG_LABELS: Record<string, string> = {
  botToken: "Bot token",
  signingSecret: "Signing secret",
  botUserId: "Bot user ID",
  teamId: "Workspace ID",
  phoneNumberId: "Phone number ID",
  accessToken: "Access token",
  appSecret: "App secret",
  pageId: "Page ID",
  pageName: "Page name",
  pageAccessToken: "Page access token",
  instagramAccountId: "Instagram account ID",
  baseUrl: "Chatwoot URL",
  accountId: "Account ID",
  apiAccessToken: "API access token",
  webhookSecret: "Webhook secret",
  address: "Address",
  "imap.url": "IMAP URL",
  "imap.mailbox": "IMAP mailbox",
};
