import type { Db } from "../../db/client.ts";
import { createNotifiedCache, frozen } from "../../db/notified-cache.ts";
import type { ChannelType } from "../../db/schema/index.ts";
import { AppError, invalid, notFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import { randomToken } from "../../lib/secrets.ts";
import type { AuditLog } from "../accounts/audit-log.ts";
import type { AgentRepo } from "../agents/agent-repo.ts";
import { type Caller, mayUseAgent, refuseOtherAgent } from "../caller.ts";
import {
  type ChannelAdapter,
  type ChannelSettings,
  type PlatformContext,
  PlatformError,
} from "./channel-adapter.ts";
import type { ChannelRepo, ChannelRow } from "./channel-repo.ts";
import type { ChannelChanges, ChannelCreation } from "./channel-request.ts";
import { type ChannelView, toChannelView, webhookUrlOf } from "./channel-view.ts";

/** What is sealed in a channel's `credentials`. */
type SealedCredentials = { secrets: Record<string, string>; webhookSecret: string };

/** A channel with its credentials opened: what the inbound path and the sends work with. */
export type OpenedChannel = {
  row: ChannelRow;
  adapter: ChannelAdapter;
  settings: ChannelSettings;
  webhookSecret: string;
};

export type ChannelServiceDeps = {
  db: Db;
  channels: ChannelRepo;
  agents: Pick<AgentRepo, "findById">;
  adapters: ReadonlyMap<ChannelType, ChannelAdapter>;
  /** Null with DATABASE_URL and no SECRETS_KEY: channels cannot be created. */
  secretBox: SecretBox | null;
  platform: PlatformContext;
  audit: AuditLog;
  logger: Logger;
  /** PUBLIC_URL: webhook URLs given to the platforms start with it. */
  publicUrl: string;
  /** A channel was created, changed or deleted (mail: its mailbox is looked at now). */
  onChanged?(row: ChannelRow): void;
};

const channelNotFound = () => notFound("Channel not found");

/** The channel on which changes to channels are announced (migration 0045). */
export const CHANNELS_CHANGED_CHANNEL = "channels_changed";

/** Bounds how long a channel read is used should a change notification be lost. */
const CHANNEL_TTL_MS = 60_000;
const CHANNELS_KEPT_MAX = 10_000;

const PLATFORM_NAMES: Record<ChannelType, string> = {
  telegram: "Telegram",
  whatsapp: "WhatsApp",
  slack: "Slack",
  meta: "Meta",
  chatwoot: "Chatwoot",
  mail: "E-mail",
};

/** A platform's refusal as the API's error: what it refused is the client's to fix. */
function connectionError(type: ChannelType, error: unknown): unknown {
  if (!(error instanceof PlatformError)) return error;
  return error.options.retryable
    ? new AppError("BAD_GATEWAY", `${PLATFORM_NAMES[type]} could not be reached: ${error.message}`)
    : error.options.field
      ? invalid(`The channel's ${error.options.field} cannot be used: ${error.message}`, [
          { path: `body.config.${error.options.field}`, message: error.message },
        ])
      : invalid(`${PLATFORM_NAMES[type]} refused the channel's settings: ${error.message}`, [
          { path: "body.config", message: error.message },
        ]);
}

/** A masked credential sent back as it was shown: the stored value stays. */
const isMasked = (value: unknown) => typeof value === "string" && value.startsWith("••••");

/** Channels of agents: create, read, change and delete, with the platform kept in step. */
export function createChannelService(deps: ChannelServiceDeps) {
  const { channels, adapters } = deps;
  // Every webhook reads its channel: kept by id while channels_changed announces no change to
  // it. The credentials stay sealed in the kept row; each request opens them.
  const kept = createNotifiedCache<ChannelRow>({
    ttlMs: CHANNEL_TTL_MS,
    maxEntries: CHANNELS_KEPT_MAX,
    idOf: (row) => row.id,
  });

  function box(): SecretBox {
    if (!deps.secretBox) {
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        "Channels need SECRETS_KEY: set it to 32 random bytes (base64 or hex) to store channel credentials encrypted",
      );
    }
    return deps.secretBox;
  }

  function adapterOf(type: ChannelType): ChannelAdapter {
    const adapter = adapters.get(type);
    if (!adapter) throw invalid(`Unknown channel type: ${type}`);
    return adapter;
  }

  function open(row: ChannelRow): OpenedChannel {
    const sealed = JSON.parse(box().open(row.credentials)) as SealedCredentials;
    return {
      row,
      adapter: adapterOf(row.type),
      settings: { ...row.config, ...sealed.secrets },
      webhookSecret: sealed.webhookSecret,
    };
  }

  function webhookUrl(row: Pick<ChannelRow, "type" | "id">) {
    return webhookUrlOf(deps.publicUrl, row.type, row.id);
  }

  function view(row: ChannelRow): ChannelView {
    const opened = open(row);
    const secrets = Object.fromEntries(
      opened.adapter.secretFields.flatMap((field) =>
        opened.settings[field] === undefined ? [] : [[field, opened.settings[field]!]],
      ),
    );
    return toChannelView(row, {
      webhookUrl: webhookUrl(row),
      secrets,
      showConfig: opened.adapter.showConfig,
    });
  }

  function parseSettings(adapter: ChannelAdapter, config: unknown): ChannelSettings {
    const parsed = adapter.configSchema.safeParse(config);
    if (!parsed.success) {
      throw invalid(
        `Invalid ${adapter.type} channel config`,
        parsed.error.issues.map((issue) => ({
          path: ["body", "config", ...issue.path.map(String)].join("."),
          message: issue.message,
        })),
      );
    }
    return parsed.data;
  }

  /** Splits settings into what is shown and what is sealed. */
  function store(adapter: ChannelAdapter, settings: ChannelSettings, webhookSecret: string) {
    const secrets: Record<string, string> = {};
    const shown: Record<string, string> = {};
    for (const [key, value] of Object.entries(settings)) {
      if (adapter.secretFields.includes(key)) secrets[key] = value;
      else shown[key] = value;
    }
    const sealed: SealedCredentials = { secrets, webhookSecret };
    return { config: shown, credentials: box().seal(JSON.stringify(sealed)) };
  }

  async function owned(caller: Caller, id: string): Promise<ChannelRow> {
    const row = await channels.findById(caller.organizationId, id);
    // A key limited to other agents learns nothing about this one's channels.
    if (!row || !mayUseAgent(caller, row.agentId)) throw channelNotFound();
    return row;
  }

  return {
    open,
    /** To be told of changes to channels made by any process (CHANNELS_CHANGED_CHANNEL). */
    channelChanges: kept.events,

    /** The channel a webhook names, in any organization: the inbound path's read. */
    async findForInbound(id: string): Promise<ChannelRow | null> {
      const known = kept.get(id);
      if (known) return known;
      const ticket = kept.ticket();
      const row = await channels.findForInbound(id);
      if (row) kept.keep(id, frozen(row), ticket);
      return row;
    },

    async create(caller: Caller, agentId: string, input: ChannelCreation): Promise<ChannelView> {
      box();
      refuseOtherAgent(caller, agentId);
      const agent = await deps.agents.findById(caller.organizationId, agentId);
      if (!agent) throw notFound("Agent not found");
      const adapter = adapterOf(input.type);
      const given = parseSettings(adapter, input.config);
      const id = newId();
      const webhookSecret = randomToken(32);
      const settings = await adapter
        .connect(deps.platform, {
          settings: given,
          webhookUrl: webhookUrl({ type: input.type, id }),
          webhookSecret,
        })
        .catch((error: unknown) => {
          throw connectionError(input.type, error);
        });
      const row = await deps.db.transaction(async (tx) => {
        const inserted = await channels.insert(
          {
            id,
            organizationId: caller.organizationId,
            agentId,
            type: input.type,
            name: input.name ?? `${PLATFORM_NAMES[input.type]} of ${agent.name}`,
            ...store(adapter, settings, webhookSecret),
          },
          tx,
        );
        await deps.audit.record(
          {
            organizationId: caller.organizationId,
            action: "channel.created",
            actor: caller.actor,
            origin: caller.origin,
            target: { type: "channel", id },
            details: { type: input.type, agentId },
          },
          tx,
        );
        return inserted;
      });
      deps.onChanged?.(row);
      // Shown this once: the platform's bearer token (mail) is never shown again.
      return adapter.revealsWebhookSecret
        ? { ...view(row), inboundToken: webhookSecret }
        : view(row);
    },

    async list(caller: Caller, agentId: string): Promise<{ data: ChannelView[] }> {
      refuseOtherAgent(caller, agentId);
      const agent = await deps.agents.findById(caller.organizationId, agentId);
      if (!agent) throw notFound("Agent not found");
      const rows = await channels.listOfAgent(caller.organizationId, agentId);
      return { data: rows.map(view) };
    },

    async get(caller: Caller, id: string): Promise<ChannelView> {
      return view(await owned(caller, id));
    },

    async update(caller: Caller, id: string, changes: ChannelChanges): Promise<ChannelView> {
      const row = await owned(caller, id);
      const opened = open(row);
      let stored: { config: Record<string, string>; credentials: string } | undefined;
      if (changes.config !== undefined) {
        const given = Object.fromEntries(
          Object.entries(changes.config).filter(([, value]) => !isMasked(value)),
        );
        const settings = parseSettings(opened.adapter, { ...opened.settings, ...given });
        const connected = await opened.adapter
          .connect(deps.platform, {
            settings,
            webhookUrl: webhookUrl(row),
            webhookSecret: opened.webhookSecret,
          })
          .catch((error: unknown) => {
            throw connectionError(row.type, error);
          });
        stored = store(opened.adapter, connected, opened.webhookSecret);
      }
      const updated = await deps.db.transaction(async (tx) => {
        const result = await channels.update(
          caller.organizationId,
          id,
          {
            ...(changes.name !== undefined ? { name: changes.name } : {}),
            ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
            // New credentials the platform accepted clear an earlier refusal.
            ...(stored ? { ...stored, status: "active" as const, lastError: null } : {}),
          },
          tx,
        );
        if (!result) throw channelNotFound();
        await deps.audit.record(
          {
            organizationId: caller.organizationId,
            action: "channel.changed",
            actor: caller.actor,
            origin: caller.origin,
            target: { type: "channel", id },
            details: {
              fields: Object.keys(changes).filter(
                (key) => changes[key as keyof ChannelChanges] !== undefined,
              ),
            },
          },
          tx,
        );
        return result;
      });
      kept.forget(id);
      deps.onChanged?.(updated);
      return view(updated);
    },

    async delete(caller: Caller, id: string): Promise<void> {
      const row = await owned(caller, id);
      const opened = open(row);
      await opened.adapter
        .disconnect(deps.platform, { settings: opened.settings, webhookUrl: webhookUrl(row) })
        .catch((error: unknown) => {
          // A revoked token cannot remove the webhook; the channel goes anyway, and our URL
          // answers 404 from now on.
          deps.logger.warn(
            { channelId: id, type: row.type, reason: (error as Error).message },
            "removing the platform's webhook failed",
          );
        });
      await deps.db.transaction(async (tx) => {
        if (!(await channels.delete(caller.organizationId, id, tx))) throw channelNotFound();
        await deps.audit.record(
          {
            organizationId: caller.organizationId,
            action: "channel.deleted",
            actor: caller.actor,
            origin: caller.origin,
            target: { type: "channel", id },
            details: { type: row.type, agentId: row.agentId },
          },
          tx,
        );
      });
      kept.forget(id);
      deps.onChanged?.(row);
    },
  };
}

export type ChannelService = ReturnType<typeof createChannelService>;
