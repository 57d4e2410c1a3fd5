import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, unwrap } from "../../api/client.ts";
import { Field, FormError } from "../../ui/forms.tsx";
import { agentKeys } from "./agent-api.ts";
import { type ConnectableType, PLATFORMS } from "./channel-platforms.ts";
import { RadioGroup } from "./form-controls.tsx";

const PLATFORM_OPTIONS = [
  { value: "telegram", label: "Telegram", hint: "A bot made with @BotFather." },
  { value: "whatsapp", label: "WhatsApp", hint: "A number of the WhatsApp Business Cloud API." },
  { value: "slack", label: "Slack", hint: "A Slack app installed in your workspace." },
] as const satisfies ReadonlyArray<{ value: ConnectableType; label: string; hint: string }>;

/** Connects the agent to a Telegram bot, a WhatsApp number or a Slack app (admin and owner). */
export function ConnectChannelForm({ agentId }: { agentId: string }) {
  const queryClient = useQueryClient();
  const [type, setType] = useState<ConnectableType>("telegram");
  const [name, setName] = useState("");
  const [config, setConfig] = useState<Record<string, string>>({});
  const [connected, setConnected] = useState<string | null>(null);
  const platform = PLATFORMS[type];
  const connect = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/agents/{agentId}/channels", {
          params: { path: { agentId } },
          body: {
            type,
            ...(name.trim() ? { name: name.trim() } : {}),
            config: Object.fromEntries(
              platform.fields.flatMap((field) => {
                const value = config[field.key]?.trim() ?? "";
                return value ? [[field.key, value]] : [];
              }),
            ),
          },
        }),
      ),
    onSuccess: (channel) => {
      setName("");
      setConfig({});
      setConnected(`${channel.name} is connected. Its webhook URL is in the list above.`);
      void queryClient.invalidateQueries({ queryKey: agentKeys.channels(agentId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setConnected(null);
    connect.mutate();
  };
  return (
    <form className="form" onSubmit={submit} aria-labelledby="connect-channel-title">
      <h3 className="agent-heading" id="connect-channel-title">
        Connect a channel
      </h3>
      <RadioGroup
        legend="Platform"
        name="platform"
        value={type}
        options={PLATFORM_OPTIONS}
        onChange={(next) => {
          setType(next);
          setConfig({});
          connect.reset();
        }}
      />
      {platform.fields.map((field) => (
        <Field key={`${type}-${field.key}`} label={field.label} hint={field.hint}>
          {(props) => (
            <input
              {...props}
              type={field.secret ? "password" : "text"}
              autoComplete="off"
              spellCheck={false}
              required={field.required}
              value={config[field.key] ?? ""}
              onChange={(event) =>
                setConfig((current) => ({ ...current, [field.key]: event.target.value }))
              }
            />
          )}
        </Field>
      ))}
      <Field label="Channel name" hint="Optional; blank: the platform and the agent's name.">
        {(props) => (
          <input
            {...props}
            maxLength={200}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <FormError error={connect.error} />
      <p role="status" className="agent-saved">
        {connected}
      </p>
      <div>
        <button type="submit" className="button button-primary" disabled={connect.isPending}>
          {connect.isPending ? `Connecting ${platform.label}…` : `Connect ${platform.label}`}
        </button>
      </div>
    </form>
  );
}
