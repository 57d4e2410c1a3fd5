import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { type ApiData, api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatCredits, formatDateTime, formatDay, formatInteger } from "../../ui/format.ts";
import { ConfirmButton, CopyButton, Field, FormError } from "../../ui/forms.tsx";
import { Empty, ErrorNotice, QueryView } from "../../ui/states.tsx";
import { OwnersAndAdminsOnly, SettingsPage } from "./SettingsPage.tsx";

type ListedKey = ApiData<"/api/api-keys", "get">[number];
type CreatedKey = ApiData<"/api/api-keys", "post">;
type Scope = NonNullable<ListedKey["scopes"]>[number];
type Agent = ApiData<"/api/agents", "get">[number];

/** Every scope of the API (a Record over the API's own list: none can be left out). */
const SCOPES: Record<Scope, string> = {
  "agents:read": "read agents, their versions and channels",
  "agents:write": "create, change and delete agents and eval sets",
  query: "ask agents: the query endpoint, /v1 and MCP",
  "knowledge:read": "read datastores and datasources, search them",
  "knowledge:write": "add, change and delete datastores and datasources",
  "conversations:read": "read conversations, export them, live events",
  "conversations:write": "reply, take over, resolve, erase conversations",
  annotations: "read and write annotations and their tags",
  "usage:read": "credits balance and consumption events",
  "channels:write": "connect, change and remove messaging channels",
};
const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

const KEYS_KEY = ["settings", "api-keys"] as const;
const AGENTS_KEY = ["settings", "agents"] as const;

/** The start of the chosen day in the reader's time zone, as the API takes it. */
const startOfDay = (date: string) => new Date(`${date}T00:00`).toISOString();

const tomorrow = () => {
  const date = new Date(Date.now() + 24 * 60 * 60 * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

function toggle<T>(list: T[], item: T, on: boolean): T[] {
  return on ? [...list, item] : list.filter((entry) => entry !== item);
}

/** The key just made, shown this once: the API never returns it again. */
function NewKey({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card settings-new-key" aria-labelledby="new-key">
      <h2 id="new-key" ref={heading} tabIndex={-1}>
        Your new key “{created.name}”
      </h2>
      <p>
        <strong>Copy it now: you will not see it again.</strong> Only its fingerprint is stored; if
        it is lost, revoke it and make another.
      </p>
      <Field label="API key">
        {(props) => (
          <input
            {...props}
            readOnly
            className="settings-secret"
            value={created.key}
            onFocus={(event) => event.target.select()}
          />
        )}
      </Field>
      <div className="settings-actions">
        <CopyButton text={created.key} label="Copy key" />
        <button type="button" className="button" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </section>
  );
}

function CreateKeyForm({
  agents,
  onCreated,
}: {
  agents: Agent[];
  onCreated: (key: CreatedKey) => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [allScopes, setAllScopes] = useState(true);
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [allAgents, setAllAgents] = useState(true);
  const [agentIds, setAgentIds] = useState<string[]>([]);
  const [rateLimit, setRateLimit] = useState("");
  const [budget, setBudget] = useState("");
  const [expiresOn, setExpiresOn] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/api-keys", {
          body: {
            name,
            ...(allScopes ? {} : { scopes }),
            ...(allAgents ? {} : { agentIds }),
            ...(rateLimit ? { rateLimitPerMinute: Number(rateLimit) } : {}),
            ...(budget ? { monthlyCreditBudget: Number(budget) } : {}),
            ...(expiresOn ? { expiresAt: startOfDay(expiresOn) } : {}),
          },
        }),
      ),
    onSuccess: async (created) => {
      setName("");
      setAllScopes(true);
      setScopes([]);
      setAllAgents(true);
      setAgentIds([]);
      setRateLimit("");
      setBudget("");
      setExpiresOn("");
      onCreated(created);
      await queryClient.invalidateQueries({ queryKey: KEYS_KEY });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!allScopes && scopes.length === 0) return setProblem("Choose at least one scope.");
    if (!allAgents && agentIds.length === 0) return setProblem("Choose at least one agent.");
    setProblem(null);
    create.mutate();
  };
  return (
    <form className="form" onSubmit={submit} aria-labelledby="create-key">
      <Field label="Name" hint="What the key is for, e.g. the program that uses it.">
        {(props) => (
          <input
            {...props}
            required
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <fieldset className="fieldset">
        <legend>Scopes</legend>
        <label className="settings-choice">
          <input
            type="radio"
            name="scope-choice"
            checked={allScopes}
            onChange={() => setAllScopes(true)}
          />
          Full access: everything an admin may do, members and keys included
        </label>
        <label className="settings-choice">
          <input
            type="radio"
            name="scope-choice"
            checked={!allScopes}
            onChange={() => setAllScopes(false)}
          />
          Only the scopes chosen below
        </label>
        {!allScopes && (
          <ul className="settings-checks">
            {SCOPE_NAMES.map((scope) => (
              <li key={scope}>
                <label className="settings-choice">
                  <input
                    type="checkbox"
                    checked={scopes.includes(scope)}
                    onChange={(event) => setScopes(toggle(scopes, scope, event.target.checked))}
                  />
                  <span>
                    <code>{scope}</code> <span className="muted">{SCOPES[scope]}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <fieldset className="fieldset">
        <legend>Agents</legend>
        <label className="settings-choice">
          <input
            type="radio"
            name="agent-choice"
            checked={allAgents}
            onChange={() => setAllAgents(true)}
          />
          Every agent, present and future
        </label>
        <label className="settings-choice">
          <input
            type="radio"
            name="agent-choice"
            checked={!allAgents}
            disabled={agents.length === 0}
            onChange={() => setAllAgents(false)}
          />
          Only the agents chosen below
          {agents.length === 0 && (
            <span className="muted"> (the organization has no agent yet)</span>
          )}
        </label>
        {!allAgents && (
          <ul className="settings-checks">
            {agents.map((agent) => (
              <li key={agent.id}>
                <label className="settings-choice">
                  <input
                    type="checkbox"
                    checked={agentIds.includes(agent.id)}
                    onChange={(event) =>
                      setAgentIds(toggle(agentIds, agent.id, event.target.checked))
                    }
                  />
                  {agent.name}
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <div className="settings-limits">
        <Field label="Requests per minute" hint="Optional. Beyond it: 429 with Retry-After.">
          {(props) => (
            <input
              {...props}
              type="number"
              inputMode="numeric"
              min={1}
              max={100_000}
              step={1}
              value={rateLimit}
              onChange={(event) => setRateLimit(event.target.value)}
            />
          )}
        </Field>
        <Field label="Monthly credit budget" hint="Optional. Credits per calendar month (UTC).">
          {(props) => (
            <input
              {...props}
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              value={budget}
              onChange={(event) => setBudget(event.target.value)}
            />
          )}
        </Field>
        <Field label="Expires on" hint="Optional. The key stops working at the start of this day.">
          {(props) => (
            <input
              {...props}
              type="date"
              min={tomorrow()}
              value={expiresOn}
              onChange={(event) => setExpiresOn(event.target.value)}
            />
          )}
        </Field>
      </div>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <FormError error={create.error} />
      <div>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          Create key
        </button>
      </div>
    </form>
  );
}

function KeyRow({ apiKey, agentNames }: { apiKey: ListedKey; agentNames: Map<string, string> }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE("/api/api-keys/{id}", { params: { path: { id: apiKey.id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEYS_KEY }),
  });
  const expired = apiKey.expiresAt !== null && new Date(apiKey.expiresAt).getTime() <= Date.now();
  return (
    <tr>
      <td>
        <strong>{apiKey.name}</strong>
        <br />
        <code className="muted">{apiKey.prefix}…</code>
      </td>
      <td>
        {apiKey.scopes === null ? (
          <span className="badge badge-warn">full access</span>
        ) : (
          <ul className="settings-badges">
            {apiKey.scopes.map((scope) => (
              <li key={scope} className="badge">
                {scope}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>
        {apiKey.agentIds === null
          ? "All"
          : apiKey.agentIds.map((id) => agentNames.get(id) ?? id).join(", ")}
      </td>
      <td className="number">
        {apiKey.rateLimitPerMinute === null
          ? "—"
          : `${formatInteger(apiKey.rateLimitPerMinute)}/min`}
      </td>
      <td className="number">
        {apiKey.monthlyCreditBudget === null ? "—" : formatCredits(apiKey.monthlyCreditBudget)}
      </td>
      <td>
        {apiKey.expiresAt === null ? (
          "Never"
        ) : expired ? (
          <span className="badge badge-danger">expired {formatDay(apiKey.expiresAt)}</span>
        ) : (
          formatDateTime(apiKey.expiresAt)
        )}
      </td>
      <td>{apiKey.lastUsedAt ? formatDateTime(apiKey.lastUsedAt) : "Never"}</td>
      <td className="settings-nowrap">{formatDay(apiKey.createdAt)}</td>
      <td>
        <ConfirmButton
          label={`Revoke ${apiKey.name}`}
          title={`Revoke the key “${apiKey.name}”?`}
          description={
            <p>
              Every request made with it is refused from now on, by every process. This cannot be
              undone.
            </p>
          }
          confirmLabel="Revoke key"
          disabled={revoke.isPending}
          onConfirm={() => revoke.mutate()}
        />
        {revoke.isError && <ErrorNotice error={revoke.error} />}
      </td>
    </tr>
  );
}

function KeysTable({ keys, agents }: { keys: ListedKey[]; agents: Agent[] }) {
  if (keys.length === 0) {
    return (
      <Empty title="No API keys">
        <p>Make one below for a program that calls the API.</p>
      </Empty>
    );
  }
  const agentNames = new Map(agents.map((agent) => [agent.id, agent.name]));
  return (
    <div className="table-wrap settings-table">
      <table>
        <caption className="visually-hidden">API keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Scopes</th>
            <th scope="col">Agents</th>
            <th scope="col" className="number">
              Rate limit
            </th>
            <th scope="col" className="number">
              Monthly budget
            </th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Created</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((apiKey) => (
            <KeyRow key={apiKey.id} apiKey={apiKey} agentNames={agentNames} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ManageKeys() {
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const keys = useQuery({
    queryKey: KEYS_KEY,
    queryFn: () => unwrap(api.GET("/api/api-keys")),
  });
  const agents = useQuery({
    queryKey: AGENTS_KEY,
    queryFn: () => unwrap(api.GET("/api/agents")),
  });
  return (
    <>
      {created && <NewKey created={created} onDone={() => setCreated(null)} />}
      <QueryView query={keys} loadingLabel="Loading the keys…">
        {(data) => <KeysTable keys={data} agents={agents.data ?? []} />}
      </QueryView>
      <section className="card settings-section" aria-labelledby="create-key">
        <h2 id="create-key">Create a key</h2>
        <QueryView query={agents} loadingLabel="Loading the agents…">
          {(data) => <CreateKeyForm agents={data} onCreated={setCreated} />}
        </QueryView>
      </section>
    </>
  );
}

export default function ApiKeysPage() {
  const session = useSession();
  return (
    <SettingsPage
      title="API keys"
      description="Keys let programs call the API, /v1 and MCP in this organization's name. Each belongs to the person who made it."
    >
      {session.canAdmin ? (
        <ManageKeys />
      ) : (
        <OwnersAndAdminsOnly role={session.role} what="see and manage API keys." />
      )}
    </SettingsPage>
  );
}
