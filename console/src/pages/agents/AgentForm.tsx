import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { ApiError, api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatInteger } from "../../ui/format.ts";
import { Field, FormError } from "../../ui/forms.tsx";
import { QueryView } from "../../ui/states.tsx";
import { type Agent, agentKeys, type Datastore, useDatastores } from "./agent-api.ts";
import {
  type AgentFormValues,
  bodyOf,
  type FollowUpValues,
  FormValueError,
  newAgentValues,
  type RetrievalValues,
  valuesOf,
} from "./agent-form-values.ts";
import { CheckboxField, ModelOptions, RadioGroup } from "./form-controls.tsx";
import { FollowUpFields, RetrievalFields } from "./RetrievalFields.tsx";

const VISIBILITIES = [
  {
    value: "private",
    label: "Private",
    hint: "Answers only through the API, the console and its channels.",
  },
  {
    value: "public",
    label: "Public",
    hint: "Also answers anyone on the chat page and in the website widget.",
  },
] as const;

const PROMPT_TYPES = [
  {
    value: "customer_support",
    label: "Customer support",
    hint: "The built-in support template: answers from the knowledge, says when it does not know, asks for a person when needed. The system prompt is added as the organization's instructions.",
  },
  {
    value: "raw",
    label: "Raw",
    hint: "The system prompt is sent exactly as written (with the knowledge passages after it).",
  },
] as const;

function DatastoreChoice({
  datastores,
  chosen,
  onChange,
}: {
  datastores: Datastore[];
  chosen: string[];
  onChange: (ids: string[]) => void;
}) {
  const missing = chosen.filter((id) => !datastores.some((datastore) => datastore.id === id));
  return (
    <fieldset className="fieldset">
      <legend>Datastores</legend>
      <p className="field-hint">The knowledge the agent searches before it answers.</p>
      {datastores.length === 0 && (
        <p className="muted">
          The organization has no datastore yet.{" "}
          <Link to="/knowledge">Create one in Knowledge</Link>, then choose it here.
        </p>
      )}
      {datastores.map((datastore) => (
        <CheckboxField
          key={datastore.id}
          label={datastore.name}
          hint={datastore.description || undefined}
          checked={chosen.includes(datastore.id)}
          onChange={(checked) =>
            onChange(
              checked ? [...chosen, datastore.id] : chosen.filter((id) => id !== datastore.id),
            )
          }
        />
      ))}
      {missing.length > 0 && (
        <p className="field-hint">
          Also {formatInteger(missing.length)} datastore(s) this list does not show (
          {missing.join(", ")}
          ); saving keeps them.
        </p>
      )}
    </fieldset>
  );
}

/**
 * The API's 400 names the first invalid field ("Invalid request: body.allowedOrigins.0 must
 * be…"): its message, for the field it names, so the error is shown where it is to be fixed too.
 */
function fieldErrorOf(error: unknown, field: string): string | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const named = /^Invalid request: body\.(\w+)/.exec(error.message)?.[1];
  return named === field ? error.message.replace(/^Invalid request: /, "") : null;
}

/**
 * Every field of an agent (docs/agents.md), to create one (`agent` null) or change one. A viewer
 * sees the values in disabled controls and no button.
 */
export function AgentForm({
  agent,
  onSaved,
}: {
  agent: Agent | null;
  onSaved?: (agent: Agent) => void;
}) {
  const { canWrite } = useSession();
  const queryClient = useQueryClient();
  const datastores = useDatastores();
  const [values, setValues] = useState<AgentFormValues>(() =>
    agent ? valuesOf(agent) : newAgentValues(),
  );
  const [valueError, setValueError] = useState<FormValueError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const update = (patch: Partial<AgentFormValues>) => {
    setSaved(null);
    setValues((current) => ({ ...current, ...patch }));
  };
  const updateRetrieval = (patch: Partial<RetrievalValues>) =>
    update({ retrieval: { ...values.retrieval, ...patch } });
  const updateFollowUp = (patch: Partial<FollowUpValues>) =>
    update({ followUp: { ...values.followUp, ...patch } });
  const errorOf = (field: string) => (valueError?.field === field ? valueError.message : null);
  const apiErrorOf = (field: string) => fieldErrorOf(save.error, field);

  const save = useMutation({
    mutationFn: async (): Promise<Agent> => {
      if (!agent) {
        return unwrap(api.POST("/api/agents", { body: bodyOf(values, null) }));
      }
      const body = bodyOf(values, agent);
      if (Object.keys(body).length === 0) return agent;
      return unwrap(api.PATCH("/api/agents/{id}", { params: { path: { id: agent.id } }, body }));
    },
    onSuccess: (result) => {
      queryClient.setQueryData(agentKeys.detail(result.id), result);
      void queryClient.invalidateQueries({ queryKey: agentKeys.list });
      void queryClient.invalidateQueries({ queryKey: agentKeys.versions(result.id) });
      setValues(valuesOf(result));
      setSaved(
        agent && result.updatedAt === agent.updatedAt
          ? "Nothing to save: the agent already has these settings."
          : `Saved. The agent is at version ${formatInteger(result.version)}.`,
      );
      onSaved?.(result);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setValueError(null);
    try {
      bodyOf(values, agent);
    } catch (error) {
      if (error instanceof FormValueError) {
        setValueError(error);
        return;
      }
      throw error;
    }
    save.mutate();
  };

  const otherTools = (agent?.tools ?? []).filter((tool) => tool.type !== "datastore");
  return (
    <form
      className="agent-form"
      onSubmit={submit}
      aria-label={agent ? "Agent settings" : "New agent"}
    >
      {!canWrite && (
        <p className="agent-notice">
          You are a viewer in this organization: you can read these settings, not change them.
        </p>
      )}
      <fieldset className="agent-form-body" disabled={!canWrite}>
        <section className="card" aria-labelledby="agent-general">
          <h2 className="agent-heading" id="agent-general">
            General
          </h2>
          <div className="form">
            <Field label="Name" error={apiErrorOf("name")}>
              {(props) => (
                <input
                  {...props}
                  required
                  maxLength={200}
                  value={values.name}
                  onChange={(event) => update({ name: event.target.value })}
                />
              )}
            </Field>
            <Field
              label="Description"
              error={apiErrorOf("description")}
              hint="For your team; the public chat shows it too."
            >
              {(props) => (
                <textarea
                  {...props}
                  rows={2}
                  maxLength={10_000}
                  value={values.description}
                  onChange={(event) => update({ description: event.target.value })}
                />
              )}
            </Field>
            <RadioGroup
              legend="Visibility"
              name="visibility"
              value={values.visibility}
              options={VISIBILITIES}
              onChange={(visibility) => update({ visibility })}
            />
            <div className="agent-columns">
              <Field
                label="Handle"
                error={apiErrorOf("handle")}
                hint="A short unique name of the agent (optional)."
              >
                {(props) => (
                  <input
                    {...props}
                    maxLength={100}
                    value={values.handle}
                    onChange={(event) => update({ handle: event.target.value })}
                  />
                )}
              </Field>
              <Field
                label="Icon URL"
                error={apiErrorOf("iconUrl")}
                hint="An http or https image address (optional)."
              >
                {(props) => (
                  <input
                    {...props}
                    type="url"
                    value={values.iconUrl}
                    onChange={(event) => update({ iconUrl: event.target.value })}
                  />
                )}
              </Field>
            </div>
          </div>
        </section>

        <section className="card" aria-labelledby="agent-model">
          <h2 className="agent-heading" id="agent-model">
            Model and prompts
          </h2>
          <div className="form">
            <div className="agent-columns">
              <Field
                label="Model"
                hint="Without the provider's key, the offline responder answers."
              >
                {(props) => (
                  <select
                    {...props}
                    value={values.modelName}
                    onChange={(event) =>
                      update({ modelName: event.target.value as AgentFormValues["modelName"] })
                    }
                  >
                    <ModelOptions />
                  </select>
                )}
              </Field>
              <Field
                label="Temperature"
                error={apiErrorOf("temperature")}
                hint="0 (focused) to 2 (varied)."
              >
                {(props) => (
                  <input
                    {...props}
                    type="number"
                    inputMode="decimal"
                    required
                    min={0}
                    max={2}
                    step="any"
                    value={values.temperature}
                    onChange={(event) => update({ temperature: event.target.value })}
                  />
                )}
              </Field>
            </div>
            <RadioGroup
              legend="Prompt type"
              name="promptType"
              value={values.promptType}
              options={PROMPT_TYPES}
              onChange={(promptType) => update({ promptType })}
            />
            <Field label="System prompt" hint="How the agent behaves: tone, scope, rules.">
              {(props) => (
                <textarea
                  {...props}
                  rows={6}
                  value={values.systemPrompt}
                  onChange={(event) => update({ systemPrompt: event.target.value })}
                />
              )}
            </Field>
            <Field
              label="User prompt"
              hint={
                <>
                  A template of the customer's message: <code>{"{query}"}</code> is replaced by it.
                  Blank: the message as written.
                </>
              }
            >
              {(props) => (
                <textarea
                  {...props}
                  rows={2}
                  value={values.userPrompt}
                  onChange={(event) => update({ userPrompt: event.target.value })}
                />
              )}
            </Field>
            <Field
              label="Prompt template"
              hint="Kept with the agent as the spec defines it; answers are built from the prompt type and the prompts above."
            >
              {(props) => (
                <textarea
                  {...props}
                  rows={2}
                  value={values.promptTemplate}
                  onChange={(event) => update({ promptTemplate: event.target.value })}
                />
              )}
            </Field>
          </div>
        </section>

        <section className="card" aria-labelledby="agent-knowledge">
          <h2 className="agent-heading" id="agent-knowledge">
            Knowledge
          </h2>
          <div className="form">
            <QueryView query={datastores} loadingLabel="Loading the datastores…">
              {(list) => (
                <DatastoreChoice
                  datastores={list}
                  chosen={values.datastoreIds}
                  onChange={(datastoreIds) => update({ datastoreIds })}
                />
              )}
            </QueryView>
            {otherTools.length > 0 && (
              <p className="field-hint">
                The agent also has {formatInteger(otherTools.length)} tool(s) of another type (
                {otherTools.map((tool) => tool.type).join(", ")}), set through the API; saving keeps
                them.
              </p>
            )}
            <CheckboxField
              label="Super retrieval"
              hint="Models write extra search queries and score the passages before the answer. Each turn costs about three plain ones."
              checked={values.useSuperRetrieval}
              onChange={(useSuperRetrieval) => update({ useSuperRetrieval })}
            />
            {values.useSuperRetrieval && (
              <RetrievalFields
                values={values.retrieval}
                onChange={updateRetrieval}
                errorOf={errorOf}
              />
            )}
          </div>
        </section>

        <section className="card" aria-labelledby="agent-follow-up">
          <h2 className="agent-heading" id="agent-follow-up">
            Follow-ups
          </h2>
          <div className="form">
            <CheckboxField
              label="Send follow-ups"
              hint="The follow-up agent writes to customers whose conversation went quiet."
              checked={values.useFollowUp}
              onChange={(useFollowUp) => update({ useFollowUp })}
            />
            <FollowUpFields values={values.followUp} onChange={updateFollowUp} errorOf={errorOf} />
          </div>
        </section>

        <section className="card" aria-labelledby="agent-delivery">
          <h2 className="agent-heading" id="agent-delivery">
            Delivery
          </h2>
          <div className="form">
            <CheckboxField
              label="Conversational mode"
              hint="Questions sent to the API on the api channel are answered later, by webhook to the webhookUrl each question gives, about 8 seconds after the last message. The playground, the widget and channels answer at once."
              checked={values.useConversationalMode}
              onChange={(useConversationalMode) => update({ useConversationalMode })}
            />
            <Field
              label="Unavailable message"
              error={apiErrorOf("unavailableMessage")}
              hint="Sent on messaging channels when no answer can be given (no credits left, the model failed). Blank: nothing is sent."
            >
              {(props) => (
                <textarea
                  {...props}
                  rows={2}
                  maxLength={2000}
                  value={values.unavailableMessage}
                  onChange={(event) => update({ unavailableMessage: event.target.value })}
                />
              )}
            </Field>
            <Field
              label="Allowed origins"
              error={apiErrorOf("allowedOrigins")}
              hint="One per line, as https://www.example.com: the only sites whose pages may use the public chat and widget. Blank: any site."
            >
              {(props) => (
                <textarea
                  {...props}
                  rows={3}
                  spellCheck={false}
                  className="agent-code"
                  value={values.allowedOrigins}
                  onChange={(event) => update({ allowedOrigins: event.target.value })}
                />
              )}
            </Field>
          </div>
        </section>
      </fieldset>
      {canWrite && (
        <div className="agent-form-actions">
          <FormError error={valueError ?? save.error} />
          <p role="status" className="agent-saved">
            {saved}
          </p>
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {agent ? "Save changes" : "Create agent"}
          </button>
        </div>
      )}
    </form>
  );
}
