import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, useId } from "react";
import { api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatDateTime } from "../../ui/format.ts";
import { ConfirmButton, CopyButton, FormError } from "../../ui/forms.tsx";
import { Empty, QueryView } from "../../ui/states.tsx";
import { useAgentOfPage } from "./AgentFrame.tsx";
import { agentKeys } from "./agent-api.ts";
import { ConnectChannelForm } from "./ConnectChannelForm.tsx";
import {
  CHANNEL_TYPE_LABELS,
  type Channel,
  CONFIG_LABELS,
  SETUP_STEPS,
} from "./channel-platforms.ts";

/** Fields of `config` shown elsewhere on the card, or objects (mail's imap) shown as such. */
const SHOWN_APART = new Set(["verifyToken"]);

function configEntries(config: Channel["config"]): Array<[string, string]> {
  return Object.entries(config).flatMap(([key, value]): Array<[string, string]> => {
    if (SHOWN_APART.has(key)) return [];
    if (typeof value === "string") return [[key, value]];
    return Object.entries(value).map(([inner, text]): [string, string] => [
      `${key}.${inner}`,
      text,
    ]);
  });
}

function ChannelCard({ channel, agentId }: { channel: Channel; agentId: string }) {
  const { canAdmin } = useSession();
  const queryClient = useQueryClient();
  const titleId = useId();
  const refresh = () => queryClient.invalidateQueries({ queryKey: agentKeys.channels(agentId) });
  const change = useMutation({
    mutationFn: (body: { enabled?: boolean; config?: Record<string, never> }) =>
      unwrap(api.PATCH("/api/channels/{id}", { params: { path: { id: channel.id } }, body })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE("/api/channels/{id}", { params: { path: { id: channel.id } } })),
    onSuccess: refresh,
  });
  const verifyToken = channel.config.verifyToken;
  const pending = change.isPending || remove.isPending;
  return (
    <article className="card channel" aria-labelledby={titleId}>
      <div className="channel-header">
        <h3 id={titleId}>{channel.name}</h3>
        <span className="badge">{CHANNEL_TYPE_LABELS[channel.type]}</span>
        {channel.status === "active" ? (
          <span className="badge badge-ok">Active</span>
        ) : (
          <span className="badge badge-danger">Error</span>
        )}
        {!channel.enabled && <span className="badge badge-warn">Disabled</span>}
      </div>
      <dl className="channel-facts">
        <dt>Webhook URL</dt>
        <dd>
          <code className="channel-url">{channel.webhookUrl}</code>
          <CopyButton text={channel.webhookUrl} label="Copy webhook URL" />
        </dd>
        {typeof verifyToken === "string" && (
          <>
            <dt>Verify token</dt>
            <dd>
              <code className="channel-url">{verifyToken}</code>
              <CopyButton text={verifyToken} label="Copy verify token" />
            </dd>
          </>
        )}
        <dt>Last event</dt>
        <dd>
          {channel.lastEventAt
            ? formatDateTime(channel.lastEventAt)
            : "None yet: the platform has not reached the webhook URL."}
        </dd>
        <dt>Last error</dt>
        <dd className={channel.lastError ? "channel-error" : undefined}>
          {channel.lastError ?? "None"}
        </dd>
        {configEntries(channel.config).map(([key, value]) => (
          <Fragment key={key}>
            <dt>{CONFIG_LABELS[key] ?? key}</dt>
            <dd>
              <code>{value}</code>
            </dd>
          </Fragment>
        ))}
        <dt>Connected</dt>
        <dd>{formatDateTime(channel.createdAt)}</dd>
      </dl>
      <p className="field-hint">{SETUP_STEPS[channel.type]}</p>
      {canAdmin && (
        <div className="channel-actions">
          <button
            type="button"
            className="button"
            disabled={pending}
            onClick={() => change.mutate({ enabled: !channel.enabled })}
          >
            {channel.enabled ? "Disable" : "Enable"}
          </button>
          <button
            type="button"
            className="button"
            disabled={pending}
            onClick={() => change.mutate({ config: {} })}
          >
            Check the credentials again
          </button>
          <ConfirmButton
            label="Delete"
            title={`Delete ${channel.name}?`}
            description={
              <p>
                The agent stops answering on this {CHANNEL_TYPE_LABELS[channel.type]} account. Its
                conversations stay. The webhook is removed from the platform where it has an API for
                it; elsewhere, remove the URL from the platform's settings.
              </p>
            }
            confirmLabel="Delete channel"
            disabled={pending}
            onConfirm={() => remove.mutate()}
          />
        </div>
      )}
      <FormError error={change.error ?? remove.error} />
    </article>
  );
}

/** /agents/:agentId/channels: where the agent answers besides the API and the widget. */
export function ChannelsPage() {
  const agent = useAgentOfPage();
  const { canAdmin } = useSession();
  const channels = useQuery({
    queryKey: agentKeys.channels(agent.id),
    queryFn: () =>
      unwrap(
        api.GET("/api/agents/{agentId}/channels", { params: { path: { agentId: agent.id } } }),
      ),
  });
  return (
    <section aria-labelledby="channels-title">
      <h2 className="agent-heading" id="channels-title">
        Channels
      </h2>
      <p className="muted">
        Messaging accounts the agent answers on. Each conversation shows up in Conversations.
      </p>
      <QueryView
        query={channels}
        loadingLabel="Loading the channels…"
        isEmpty={(list) => list.data.length === 0}
        empty={
          <Empty title="No channels yet">
            <p>
              {canAdmin
                ? "Connect Telegram, WhatsApp or Slack below."
                : "An admin or owner of the organization can connect Telegram, WhatsApp or Slack."}
            </p>
          </Empty>
        }
      >
        {(list) => (
          <div className="channel-list">
            {list.data.map((channel) => (
              <ChannelCard key={channel.id} channel={channel} agentId={agent.id} />
            ))}
          </div>
        )}
      </QueryView>
      {canAdmin ? (
        <div className="card">
          <ConnectChannelForm agentId={agent.id} />
        </div>
      ) : (
        <p className="agent-notice">
          Connecting and changing channels needs the admin or owner role; you can see them.
        </p>
      )}
    </section>
  );
}
