import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useMemo } from "react";
import { type ApiData, api, unwrap } from "../../api/client.ts";
import { ChoiceGroup } from "../../ui/choice-group.tsx";
import { formatInteger } from "../../ui/format.ts";
import { Empty, QueryView } from "../../ui/states.tsx";
import { TableRegion } from "../../ui/table-region.tsx";
import { type ChartData, CreditsChart } from "./CreditsChart.tsx";
import {
  formatCreditAmount,
  formatUtcDay,
  formatUtcDayShort,
  totalCredits,
} from "./usage-format.ts";
import {
  datesOf,
  GROUPINGS,
  type Grouping,
  STACKINGS,
  type Stacking,
  type UsageRange,
} from "./usage-range.ts";

type Summary = ApiData<"/api/consumption-events/summary", "get">;
type SummaryRow = Summary["data"][number];
type SummaryStack = NonNullable<SummaryRow["stacks"]>[number];

const NOUNS: Record<Grouping, string> = {
  day: "day",
  agent: "agent",
  model: "model",
  feature: "feature",
};

/** What a group is called in the table and on the chart. */
function groupName(groupBy: Grouping, row: SummaryRow): string {
  if (groupBy === "day") return row.groupKey ? formatUtcDay(row.groupKey) : "—";
  if (groupBy === "agent") {
    if (row.groupKey === null) return "No agent";
    return row.agentName ?? `Deleted agent ${row.groupKey}`;
  }
  return row.groupKey ?? "—";
}

/** What a part of a day's bar is called: an agent (by name) or a model. */
function stackName(stackBy: Stacking, stack: SummaryStack): string {
  if (stackBy === "agent") {
    if (stack.stackKey === null) return "No agent";
    return stack.agentName ?? `Deleted agent ${stack.stackKey}`;
  }
  return stack.stackKey ?? "—";
}

/**
 * The bars: for days, every day of the period (days without usage have no bar), each split by
 * agent or model, the largest over the period first.
 */
function chartDataOf(
  groupBy: Grouping,
  stackBy: Stacking,
  range: UsageRange,
  rows: SummaryRow[],
): ChartData {
  if (groupBy !== "day") {
    return {
      labels: rows.map((row) => groupName(groupBy, row)),
      series: [{ label: "Credits", values: rows.map((row) => row.totalCreditsCharged) }],
      horizontal: true,
    };
  }
  const days = datesOf(range);
  const dayIndex = new Map(days.map((day, index) => [day, index]));
  const series = new Map<string, { label: string; total: number; values: (number | null)[] }>();
  for (const row of rows) {
    const index = dayIndex.get(row.groupKey?.slice(0, 10) ?? "");
    if (index === undefined) continue;
    for (const stack of row.stacks ?? []) {
      const key = stack.stackKey ?? "";
      let part = series.get(key);
      if (!part) {
        part = { label: stackName(stackBy, stack), total: 0, values: days.map(() => null) };
        series.set(key, part);
      }
      part.values[index] = stack.totalCreditsCharged;
      part.total += stack.totalCreditsCharged;
    }
  }
  return {
    labels: days.map(formatUtcDayShort),
    series: [...series.values()].sort((a, b) => b.total - a.total),
    horizontal: false,
  };
}

function SummaryView({
  summary,
  groupBy,
  stackBy,
  range,
}: {
  summary: Summary;
  groupBy: Grouping;
  stackBy: Stacking;
  range: UsageRange;
}) {
  const rows = summary.data;
  const total = totalCredits(rows);
  const { from, to } = range;
  // Drawn again only when its numbers change, not on every render.
  const chartData = useMemo(
    () => chartDataOf(groupBy, stackBy, { from, to }, rows),
    [groupBy, stackBy, from, to, rows],
  );
  const stacked = groupBy === "day";
  const noun = NOUNS[groupBy];
  const period = `${formatUtcDay(range.from)} to ${formatUtcDay(range.to)}`;
  const largest = rows.reduce<SummaryRow | null>(
    (best, row) =>
      best === null || row.totalCreditsCharged > best.totalCreditsCharged ? row : best,
    null,
  );
  const chartSummary =
    `Bar chart of credits by ${noun}${stacked ? `, stacked by ${stackBy}` : ""}, ${period}: ${rows.length} ` +
    `${rows.length === 1 ? noun : `${noun}s`} with usage, total ${formatCreditAmount(total)} credits` +
    (largest
      ? `, the most ${formatCreditAmount(largest.totalCreditsCharged)} credits (${groupName(groupBy, largest)})`
      : "") +
    ". The table below lists the same numbers.";
  return (
    <>
      <p className="usage-total">
        Total: <strong>{formatCreditAmount(total)}</strong> credits
      </p>
      <CreditsChart data={chartData} summary={chartSummary} />
      <TableRegion label={`Credits by ${noun}`}>
        <table>
          <caption className="visually-hidden">
            Credits by {noun}, {period}
          </caption>
          <thead>
            <tr>
              <th scope="col">{GROUPINGS.find((grouping) => grouping.value === groupBy)?.label}</th>
              <th scope="col" className="number">
                Credits
              </th>
              <th scope="col" className="number">
                Input tokens
              </th>
              <th scope="col" className="number">
                Output tokens
              </th>
              <th scope="col" className="number">
                Events
              </th>
              {stacked && <th scope="col">By {stackBy}</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.groupKey ?? "none"}>
                <th scope="row">{groupName(groupBy, row)}</th>
                <td className="number">{formatCreditAmount(row.totalCreditsCharged)}</td>
                <td className="number">{formatInteger(row.totalInputTokens)}</td>
                <td className="number">{formatInteger(row.totalOutputTokens)}</td>
                <td className="number">{formatInteger(row.eventCount)}</td>
                {stacked && (
                  <td>
                    <ul className="usage-stacks">
                      {(row.stacks ?? []).map((stack) => (
                        <li key={stack.stackKey ?? "none"}>
                          {stackName(stackBy, stack)}:{" "}
                          {formatCreditAmount(stack.totalCreditsCharged)}
                        </li>
                      ))}
                    </ul>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td className="number">{formatCreditAmount(total)}</td>
              <td colSpan={stacked ? 4 : 3} />
            </tr>
          </tfoot>
        </table>
      </TableRegion>
    </>
  );
}

/**
 * Credits of the period from GET /api/consumption-events/summary, grouped by one of its
 * groupings: by day (the default) as a time series whose bars are split by agent or model (the
 * summary's `stackBy`), or by agent, model or feature as totals.
 */
export function CreditsSection({
  range,
  groupBy,
  onGroupBy,
  stackBy,
  onStackBy,
  controls,
}: {
  range: UsageRange;
  groupBy: Grouping;
  onGroupBy: (groupBy: Grouping) => void;
  stackBy: Stacking;
  onStackBy: (stackBy: Stacking) => void;
  controls: ReactNode;
}) {
  const stacks = groupBy === "day" ? stackBy : undefined;
  const query = useQuery({
    queryKey: ["usage", "summary", range.from, range.to, groupBy, stacks],
    queryFn: () =>
      unwrap(
        api.GET("/api/consumption-events/summary", {
          params: {
            query: {
              startDate: range.from,
              endDate: range.to,
              groupBy,
              ...(stacks ? { stackBy: stacks } : {}),
            },
          },
        }),
      ),
  });
  return (
    <section className="card" aria-labelledby="usage-credits">
      <h2 id="usage-credits">Credits used</h2>
      <div className="toolbar usage-toolbar">
        {controls}
        <ChoiceGroup label="Group by" value={groupBy} options={GROUPINGS} onChange={onGroupBy} />
        {groupBy === "day" && (
          <ChoiceGroup label="Stack by" value={stackBy} options={STACKINGS} onChange={onStackBy} />
        )}
      </div>
      <QueryView
        query={query}
        loadingLabel="Loading the credits used…"
        isEmpty={(summary) => summary.data.length === 0}
        empty={
          <Empty title="No credits used in this period">
            <p>
              Agent answers, follow-ups, transcriptions and usage your integrations report appear
              here once they are charged.
            </p>
          </Empty>
        }
      >
        {(summary) => (
          <SummaryView summary={summary} groupBy={groupBy} stackBy={stackBy} range={range} />
        )}
      </QueryView>
    </section>
  );
}
