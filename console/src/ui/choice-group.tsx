import * as ToggleGroup from "@radix-ui/react-toggle-group";
import { useId } from "react";

/**
 * One choice of a few, shown side by side (a segmented control): Radix's toggle group, a
 * `radiogroup` of `radio` buttons named by `label`, moved through with the arrow keys. A choice
 * cannot be unset: clicking the chosen one keeps it.
 */
export function ChoiceGroup<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
}) {
  const labelId = useId();
  return (
    <div className="choice-group">
      <span id={labelId} className="choice-group-label">
        {label}
      </span>
      <ToggleGroup.Root
        type="single"
        value={value}
        aria-labelledby={labelId}
        className="choice-group-options"
        onValueChange={(next) => {
          const chosen = options.find((option) => option.value === next);
          if (chosen) onChange(chosen.value);
        }}
      >
        {options.map((option) => (
          <ToggleGroup.Item key={option.value} value={option.value} className="choice">
            {option.label}
          </ToggleGroup.Item>
        ))}
      </ToggleGroup.Root>
    </div>
  );
}
