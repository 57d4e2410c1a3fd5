import { useState } from "react";
import { Navigate, Route, Routes } from "react-router";
import { Field, PageHeader } from "../../ui/forms.tsx";
import { BalanceCard } from "./BalanceCard.tsx";
import { CreditsSection } from "./CreditsSection.tsx";
import { EventsSection } from "./EventsSection.tsx";
import { isDate, type UsageRange, useUsageView } from "./usage-range.ts";

/**
 * The period's two dates. A date being typed is kept here until it is a whole date; only then
 * does the period change (and the numbers load).
 */
function RangeFields({
  range,
  onChange,
}: {
  range: UsageRange;
  onChange: (changes: Partial<UsageRange>) => void;
}) {
  const [draft, setDraft] = useState(range);
  const [applied, setApplied] = useState(range);
  if (applied.from !== range.from || applied.to !== range.to) {
    setApplied(range);
    setDraft(range);
  }
  const edit = (end: keyof UsageRange, value: string) => {
    setDraft((current) => ({ ...current, [end]: value }));
    if (isDate(value)) onChange({ [end]: value });
  };
  return (
    <>
      <Field label="From">
        {(props) => (
          <input
            {...props}
            type="date"
            required
            value={draft.from}
            max={range.to}
            onChange={(event) => edit("from", event.target.value)}
          />
        )}
      </Field>
      <Field label="To">
        {(props) => (
          <input
            {...props}
            type="date"
            required
            value={draft.to}
            min={range.from}
            onChange={(event) => edit("to", event.target.value)}
          />
        )}
      </Field>
    </>
  );
}

/**
 * The organization's balance, the credits it used in a period (a chart and its table) and the
 * period's consumption events. Loads with two calls: the balance and the summary.
 */
function UsagePage() {
  const { range, groupBy, stackBy, change } = useUsageView();
  return (
    <div className="usage">
      <PageHeader
        title="Usage"
        description="Credits your organization has and spends. Periods are whole UTC days."
      />
      <BalanceCard />
      <CreditsSection
        range={range}
        groupBy={groupBy}
        onGroupBy={(next) => change({ groupBy: next })}
        stackBy={stackBy}
        onStackBy={(next) => change({ stackBy: next })}
        controls={<RangeFields range={range} onChange={change} />}
      />
      <EventsSection range={range} />
    </div>
  );
}

export default function UsageArea() {
  return (
    <Routes>
      <Route index element={<UsagePage />} />
      <Route path="*" element={<Navigate to="/usage" replace />} />
    </Routes>
  );
}
