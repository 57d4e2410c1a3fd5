import { Field } from "../../ui/forms.tsx";
import type { ModelName } from "./agent-api.ts";
import type { FollowUpValues, RetrievalValues } from "./agent-form-values.ts";
import { CheckboxField, ModelListField, ModelOptions, PerModelField } from "./form-controls.tsx";

/** A select of a model name where "" means the documented default, named in its option. */
function OptionalModel({
  label,
  defaultLabel,
  value,
  onChange,
}: {
  label: string;
  defaultLabel: string;
  value: ModelName | "";
  onChange: (value: ModelName | "") => void;
}) {
  return (
    <Field label={label}>
      {(props) => (
        <select
          {...props}
          value={value}
          onChange={(event) => onChange(event.target.value as ModelName | "")}
        >
          <option value="">{defaultLabel}</option>
          <ModelOptions />
        </select>
      )}
    </Field>
  );
}

function NumberField({
  label,
  hint,
  value,
  onChange,
  min,
  max,
  step,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  min?: number;
  max?: number;
  step: number | "any";
}) {
  return (
    <Field label={label} hint={hint}>
      {(props) => (
        <input
          {...props}
          type="number"
          inputMode="decimal"
          min={min}
          max={max}
          step={step}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/**
 * `retrievalEvaluationConfig`: every field of the spec, blank meaning the service's default
 * (docs/agents.md, "Super retrieval"). Keys the form does not know are kept as stored.
 */
export function RetrievalFields({
  values,
  onChange,
  errorOf,
}: {
  values: RetrievalValues;
  onChange: (patch: Partial<RetrievalValues>) => void;
  errorOf: (field: string) => string | null;
}) {
  return (
    <div className="agent-subsection">
      <div className="agent-columns">
        <OptionalModel
          label="Query writer model"
          defaultLabel="Agent's model (default)"
          value={values.retrievalModelName}
          onChange={(retrievalModelName) => onChange({ retrievalModelName })}
        />
        <OptionalModel
          label="Evaluator model"
          defaultLabel="Query writer's (default)"
          value={values.evaluatorModelName}
          onChange={(evaluatorModelName) => onChange({ evaluatorModelName })}
        />
        <OptionalModel
          label="Answering model"
          defaultLabel="Agent's model (default)"
          value={values.generationModelName}
          onChange={(generationModelName) => onChange({ generationModelName })}
        />
        <NumberField
          label="Retrieval rounds"
          hint="1 to 5; blank: 2. A new round runs while no passage reaches the threshold."
          min={1}
          max={5}
          step={1}
          value={values.retrievalRounds}
          onChange={(retrievalRounds) => onChange({ retrievalRounds })}
        />
        <NumberField
          label="Evaluation threshold"
          hint="0 to 1; blank: 0.5. Passages scored under it are dropped."
          min={0}
          max={1}
          step="any"
          value={values.evaluationThreshold}
          onChange={(evaluationThreshold) => onChange({ evaluationThreshold })}
        />
      </div>
      <Field
        label="Query writer prompt"
        hint="Blank: the built-in prompt that writes 3 short search queries, one per line."
      >
        {(props) => (
          <textarea
            {...props}
            rows={3}
            value={values.generateQueryPrompt}
            onChange={(event) => onChange({ generateQueryPrompt: event.target.value })}
          />
        )}
      </Field>
      <Field
        label="Evaluator prompt"
        hint="Blank: the built-in prompt that scores each passage from 0 to 1."
      >
        {(props) => (
          <textarea
            {...props}
            rows={3}
            value={values.evaluatorPrompt}
            onChange={(event) => onChange({ evaluatorPrompt: event.target.value })}
          />
        )}
      </Field>
      <ModelListField
        legend="Fallback models"
        itemLabel="Fallback model"
        hint="Tried in this order when the answering model fails before writing anything (at most 10)."
        value={values.fallbackModels}
        onChange={(fallbackModels) => onChange({ fallbackModels })}
      />
      <PerModelField
        legend="Temperature per model"
        valueLabel="Temperature"
        addLabel="Add a model temperature"
        hint="0 to 2. Otherwise the answer uses the agent's temperature and the helpers 0."
        min={0}
        max={2}
        step={0.1}
        value={values.modelTemperatures}
        onChange={(modelTemperatures) => onChange({ modelTemperatures })}
      />
      <PerModelField
        legend="Output tokens per model"
        valueLabel="Output tokens"
        addLabel="Add a model output limit"
        hint="1 to 32,768 tokens a model may write."
        min={1}
        max={32_768}
        step={1}
        value={values.modelMaxTokens}
        onChange={(modelMaxTokens) => onChange({ modelMaxTokens })}
      />
      <CheckboxField
        label="Compare models"
        hint="Each comparison model answers the same prompt alongside the answer (charged; not streamed)."
        checked={values.enableModelComparison}
        onChange={(enableModelComparison) => onChange({ enableModelComparison })}
      />
      {values.enableModelComparison && (
        <ModelListField
          legend="Comparison models"
          itemLabel="Comparison model"
          hint="At most 10."
          value={values.comparisonModels}
          onChange={(comparisonModels) => onChange({ comparisonModels })}
        />
      )}
      <fieldset className="fieldset">
        <legend>Call settings of every model call</legend>
        <div className="agent-columns">
          <NumberField
            label="Top P"
            hint="0 to 1."
            min={0}
            max={1}
            step="any"
            value={values.topP}
            onChange={(topP) => onChange({ topP })}
          />
          <NumberField
            label="Top K"
            hint="1 to 1,000."
            min={1}
            max={1000}
            step={1}
            value={values.topK}
            onChange={(topK) => onChange({ topK })}
          />
          <NumberField
            label="Presence penalty"
            hint="−2 to 2."
            min={-2}
            max={2}
            step="any"
            value={values.presencePenalty}
            onChange={(presencePenalty) => onChange({ presencePenalty })}
          />
          <NumberField
            label="Frequency penalty"
            hint="−2 to 2."
            min={-2}
            max={2}
            step="any"
            value={values.frequencyPenalty}
            onChange={(frequencyPenalty) => onChange({ frequencyPenalty })}
          />
          <NumberField
            label="Seed"
            hint="A whole number."
            step={1}
            value={values.seed}
            onChange={(seed) => onChange({ seed })}
          />
        </div>
        <Field label="Stop sequences" hint="One per line, at most 4.">
          {(props) => (
            <textarea
              {...props}
              rows={2}
              value={values.stopSequences}
              onChange={(event) => onChange({ stopSequences: event.target.value })}
            />
          )}
        </Field>
        <Field
          label="Provider options"
          hint={
            <>
              JSON keyed by provider, e.g. <code>{'{"openai": {"user": "support"}}'}</code>.
            </>
          }
          error={errorOf("Provider options")}
        >
          {(props) => (
            <textarea
              {...props}
              rows={3}
              spellCheck={false}
              className="agent-code"
              value={values.providerOptions}
              onChange={(event) => onChange({ providerOptions: event.target.value })}
            />
          )}
        </Field>
      </fieldset>
    </div>
  );
}

/** `followUpConfig`: the follow-up agent's prompt and schedule (docs/follow-ups.md). */
export function FollowUpFields({
  values,
  onChange,
  errorOf,
}: {
  values: FollowUpValues;
  onChange: (patch: Partial<FollowUpValues>) => void;
  errorOf: (field: string) => string | null;
}) {
  return (
    <div className="agent-subsection">
      <Field
        label="Follow-up prompt"
        hint="The follow-up agent's instructions for a conversation that went quiet."
      >
        {(props) => (
          <textarea
            {...props}
            rows={3}
            value={values.prompt}
            onChange={(event) => onChange({ prompt: event.target.value })}
          />
        )}
      </Field>
      <div className="agent-columns">
        <NumberField
          label="Follow-ups at most"
          hint="0 to 1,000 per conversation."
          min={0}
          max={1000}
          step={1}
          value={values.count}
          onChange={(count) => onChange({ count })}
        />
        <NumberField
          label="Delay (hours)"
          hint="Quiet time before a follow-up, up to 8,760 hours."
          min={0}
          max={8760}
          step="any"
          value={values.followUpDelayHours}
          onChange={(followUpDelayHours) => onChange({ followUpDelayHours })}
        />
      </div>
      <Field
        label="Follow-up settings (JSON)"
        hint="Further settings as a JSON object, stored as given."
        error={errorOf("Follow-up settings (JSON)")}
      >
        {(props) => (
          <textarea
            {...props}
            rows={3}
            spellCheck={false}
            className="agent-code"
            value={values.config}
            onChange={(event) => onChange({ config: event.target.value })}
          />
        )}
      </Field>
    </div>
  );
}
