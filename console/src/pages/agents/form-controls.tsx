import { type ReactNode, useId } from "react";
import { MODEL_NAMES, type ModelName, modelLabel } from "./agent-api.ts";
import type { PerModelRow } from "./agent-form-values.ts";

/** A checkbox with its label after it and an optional hint that describes it. */
export function CheckboxField({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="agent-check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** Radio buttons in a fieldset whose legend names the choice. */
export function RadioGroup<Value extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: Value;
  options: ReadonlyArray<{ value: Value; label: string; hint: string }>;
  onChange: (value: Value) => void;
}) {
  const id = useId();
  return (
    <fieldset className="fieldset agent-radios">
      <legend>{legend}</legend>
      {options.map((option) => (
        <div className="agent-check" key={option.value}>
          <input
            id={`${id}-${option.value}`}
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            aria-describedby={`${id}-${option.value}-hint`}
            onChange={() => onChange(option.value)}
          />
          <label htmlFor={`${id}-${option.value}`}>{option.label}</label>
          <p className="field-hint" id={`${id}-${option.value}-hint`}>
            {option.hint}
          </p>
        </div>
      ))}
    </fieldset>
  );
}

export function ModelOptions() {
  return MODEL_NAMES.map((name) => (
    <option key={name} value={name}>
      {modelLabel(name)}
    </option>
  ));
}

/** An ordered list of models (fallbacks, comparisons): a select per place, added and removed. */
export function ModelListField({
  legend,
  itemLabel,
  hint,
  value,
  onChange,
}: {
  legend: string;
  /** "Fallback model": the rows are "Fallback model 1", "Fallback model 2"… */
  itemLabel: string;
  hint: string;
  value: ModelName[];
  onChange: (value: ModelName[]) => void;
}) {
  const id = useId();
  const unused = MODEL_NAMES.filter((name) => !value.includes(name));
  return (
    <fieldset className="fieldset" aria-describedby={`${id}-hint`}>
      <legend>{legend}</legend>
      <p className="field-hint" id={`${id}-hint`}>
        {hint}
      </p>
      {value.length > 0 && (
        <ol className="agent-rows">
          {value.map((model, index) => (
            <li key={model} className="agent-row">
              <label htmlFor={`${id}-${index}`}>
                {itemLabel} {index + 1}
              </label>
              <select
                id={`${id}-${index}`}
                value={model}
                onChange={(event) =>
                  onChange(
                    value.map((item, at) =>
                      at === index ? (event.target.value as ModelName) : item,
                    ),
                  )
                }
              >
                {MODEL_NAMES.filter((name) => name === model || !value.includes(name)).map(
                  (name) => (
                    <option key={name} value={name}>
                      {modelLabel(name)}
                    </option>
                  ),
                )}
              </select>
              <button
                type="button"
                className="button"
                onClick={() => onChange(value.filter((_, at) => at !== index))}
              >
                Remove {itemLabel.toLowerCase()} {index + 1}
              </button>
            </li>
          ))}
        </ol>
      )}
      {unused.length > 0 && value.length < 10 && (
        <div>
          <button
            type="button"
            className="button"
            onClick={() => onChange([...value, unused[0] as ModelName])}
          >
            Add {itemLabel.toLowerCase()}
          </button>
        </div>
      )}
    </fieldset>
  );
}

/** A number per model (temperatures, output tokens): rows of a model and its number. */
export function PerModelField({
  legend,
  valueLabel,
  addLabel,
  hint,
  min,
  max,
  step,
  value,
  onChange,
}: {
  legend: string;
  /** "Temperature": the rows are "Temperature 1" with its "Model for temperature 1"… */
  valueLabel: string;
  addLabel: string;
  hint: string;
  min: number;
  max: number;
  step: number;
  value: PerModelRow[];
  onChange: (value: PerModelRow[]) => void;
}) {
  const id = useId();
  const used = value.map((row) => row.model);
  const unused = MODEL_NAMES.filter((name) => !used.includes(name));
  const change = (index: number, row: Partial<PerModelRow>) =>
    onChange(value.map((item, at) => (at === index ? { ...item, ...row } : item)));
  return (
    <fieldset className="fieldset" aria-describedby={`${id}-hint`}>
      <legend>{legend}</legend>
      <p className="field-hint" id={`${id}-hint`}>
        {hint}
      </p>
      {value.length > 0 && (
        <ul className="agent-rows">
          {value.map((row, index) => (
            <li key={row.model} className="agent-row">
              <label htmlFor={`${id}-${index}-model`}>
                Model for {valueLabel.toLowerCase()} {index + 1}
              </label>
              <select
                id={`${id}-${index}-model`}
                value={row.model}
                onChange={(event) => change(index, { model: event.target.value as ModelName })}
              >
                {MODEL_NAMES.filter((name) => name === row.model || !used.includes(name)).map(
                  (name) => (
                    <option key={name} value={name}>
                      {modelLabel(name)}
                    </option>
                  ),
                )}
              </select>
              <label htmlFor={`${id}-${index}-value`}>
                {valueLabel} {index + 1}
              </label>
              <input
                id={`${id}-${index}-value`}
                type="number"
                required
                min={min}
                max={max}
                step={step}
                value={row.value}
                onChange={(event) => change(index, { value: event.target.value })}
              />
              <button
                type="button"
                className="button"
                onClick={() => onChange(value.filter((_, at) => at !== index))}
              >
                Remove {valueLabel.toLowerCase()} {index + 1}
              </button>
            </li>
          ))}
        </ul>
      )}
      {unused.length > 0 && (
        <div>
          <button
            type="button"
            className="button"
            onClick={() => onChange([...value, { model: unused[0] as ModelName, value: "" }])}
          >
            {addLabel}
          </button>
        </div>
      )}
    </fieldset>
  );
}
