import type { ChannelRow } from "./channel-repo.ts";

export type ChannelView = {
  id: string;
  agentId: string;
  type: ChannelRow["type"];
  name: string;
  enabled: boolean;
  status: ChannelRow["status"];
  webhookUrl: string;
  config: Record<string, string | Record<string, string>>;
  /** Only in the answer to creating a mail channel: the bearer token of its inbound URL. */
  inboundToken?: string;
  lastError: string | null;
  lastEventAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** A credential as it may be shown: its last four characters, when it is long enough to spare them. */
function maskSecret(value: string): string {
  return value.length > 8 ? `••••${value.slice(-4)}` : "••••";
}

/** Where the platform sends this channel's events. */
export function webhookUrlOf(publicUrl: string, type: string, id: string): string {
  return `${publicUrl.replace(/\/$/, "")}/channels/${type}/${id}`;
}

export function toChannelView(
  row: ChannelRow,
  shown: {
    webhookUrl: string;
    secrets: Record<string, string>;
    /** The adapter's shape of its config (mail's nested `imap`). */
    showConfig?: ((config: Record<string, string>) => ChannelView["config"]) | undefined;
  },
): ChannelView {
  const masked = Object.fromEntries(
    Object.entries(shown.secrets).map(([key, value]) => [key, maskSecret(value)]),
  );
  return {
    id: row.id,
    agentId: row.agentId,
    type: row.type,
    name: row.name,
    enabled: row.enabled,
    status: row.status,
    webhookUrl: shown.webhookUrl,
    config: (shown.showConfig ?? ((config) => config))({ ...row.config, ...masked }),
    lastError: row.lastError,
    lastEventAt: row.lastEventAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
