import { useState } from "react";
import { Field } from "../../ui/forms.tsx";
import { isFiltered, type LeadFilters } from "./lead-filters.ts";

const NO_FILTERS: LeadFilters = { since: "", until: "", source: "", email: "" };

const sameFilters = (a: LeadFilters, b: LeadFilters) =>
  a.since === b.since && a.until === b.until && a.source === b.source && a.email === b.email;

/**
 * The inbox's filters, applied together when the form is sent (one request, not one a
 * keystroke). What is typed stays here until then; a change of the address (back, a link) wins.
 */
export function LeadFilterForm({
  filters,
  onApply,
}: {
  filters: LeadFilters;
  onApply: (filters: LeadFilters) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const [applied, setApplied] = useState(filters);
  if (!sameFilters(applied, filters)) {
    setApplied(filters);
    setDraft(filters);
  }
  const edit = (name: keyof LeadFilters) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [name]: event.target.value }));
  return (
    <form
      className="toolbar leads-filters"
      aria-label="Filter leads"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(draft);
      }}
    >
      <Field label="Received from">
        {(props) => <input {...props} type="date" value={draft.since} onChange={edit("since")} />}
      </Field>
      <Field label="Received until" hint="That day included">
        {(props) => <input {...props} type="date" value={draft.until} onChange={edit("until")} />}
      </Field>
      <Field label="Source" hint="The form's name, exactly">
        {(props) => (
          <input
            {...props}
            type="text"
            maxLength={50}
            value={draft.source}
            onChange={edit("source")}
          />
        )}
      </Field>
      <Field label="Email" hint="Exactly, in any case">
        {(props) => (
          <input
            {...props}
            type="email"
            maxLength={254}
            value={draft.email}
            onChange={edit("email")}
          />
        )}
      </Field>
      <div className="leads-filter-actions">
        <button type="submit" className="button button-primary">
          Apply filters
        </button>
        {isFiltered(filters) && (
          <button type="button" className="button" onClick={() => onApply(NO_FILTERS)}>
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}
