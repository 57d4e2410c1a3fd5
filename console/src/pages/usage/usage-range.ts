import { useState } from "react";
import { useSearchParams } from "react-router";

/** How the credits are grouped: what GET /api/consumption-events/summary can group by. */
export const GROUPINGS = [
  { value: "day", label: "Day" },
  { value: "agent", label: "Agent" },
  { value: "model", label: "Model" },
  { value: "feature", label: "Feature" },
] as const;

export type Grouping = (typeof GROUPINGS)[number]["value"];

/** What splits each day's bar (the summary's `stackBy`). */
export const STACKINGS = [
  { value: "agent", label: "Agent" },
  { value: "model", label: "Model" },
] as const;

export type Stacking = (typeof STACKINGS)[number]["value"];

/** The page's period: whole UTC days, both ends included (the API's date-only bounds). */
export type UsageRange = { from: string; to: string };

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A UTC calendar date as the date inputs and the API write it (YYYY-MM-DD). */
const utcDate = (instant: Date) => instant.toISOString().slice(0, 10);

export const isDate = (text: string) => DATE.test(text) && !Number.isNaN(Date.parse(text));

/** Every UTC date from `from` to `to`, both included (none when `to` is before `from`). */
export function datesOf({ from, to }: UsageRange): string[] {
  const dates: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let day = Date.parse(`${from}T00:00:00Z`); day <= end; day += DAY_MS) {
    dates.push(utcDate(new Date(day)));
  }
  return dates;
}

type UsageView = { from: string; to: string; groupBy: Grouping; stackBy: Stacking };

/** What the address asks for; the last 30 days (today, UTC, included) by day by default. */
function viewOf(params: URLSearchParams, now = new Date()): UsageView {
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  const groupBy = GROUPINGS.find((grouping) => grouping.value === params.get("groupBy"));
  const stackBy = STACKINGS.find((stacking) => stacking.value === params.get("stackBy"));
  return {
    from: isDate(from) ? from : utcDate(new Date(now.getTime() - 29 * DAY_MS)),
    to: isDate(to) ? to : utcDate(now),
    groupBy: groupBy?.value ?? "day",
    stackBy: stackBy?.value ?? "agent",
  };
}

const sameView = (a: UsageView, b: UsageView) =>
  a.from === b.from && a.to === b.to && a.groupBy === b.groupBy && a.stackBy === b.stackBy;

/**
 * The period and grouping the page shows, kept in the address (`?from=&to=&groupBy=&stackBy=`) so a
 * reload or a shared link shows the same numbers. The page reads its own copy, changed at once:
 * the router applies a new address in a transition, and a control bound to it would jump back
 * until then.
 */
export function useUsageView() {
  const [params, setParams] = useSearchParams();
  const fromAddress = viewOf(params);
  const [view, setView] = useState(fromAddress);
  const [seen, setSeen] = useState(fromAddress);
  // The address changed by itself (back, a link): it wins.
  if (!sameView(fromAddress, seen)) {
    setSeen(fromAddress);
    setView(fromAddress);
  }
  const change = (changes: Partial<UsageView>) => {
    const next = { ...view, ...changes };
    setView(next);
    setParams(
      (current) => {
        const written = new URLSearchParams(current);
        written.set("from", next.from);
        written.set("to", next.to);
        written.set("groupBy", next.groupBy);
        written.set("stackBy", next.stackBy);
        return written;
      },
      { replace: true },
    );
  };
  return {
    range: { from: view.from, to: view.to },
    groupBy: view.groupBy,
    stackBy: view.stackBy,
    change,
  };
}
