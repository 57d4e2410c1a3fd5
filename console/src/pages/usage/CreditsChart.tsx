import type { Chart as ChartInstance } from "chart.js";
import { useEffect, useRef, useState } from "react";
import { ErrorNotice, Loading } from "../../ui/states.tsx";
import { formatCreditAmount } from "./usage-format.ts";

export type ChartData = {
  /** One label a bar: a day, an agent, a model or a feature. */
  labels: string[];
  /**
   * The parts of each bar, stacked (one part: a plain bar): the credits of each bar as the API
   * gave them; null draws nothing (no usage that day).
   */
  series: Array<{ label: string; values: (number | null)[] }>;
  /** Entities read better as horizontal bars (long names); days as columns. */
  horizontal: boolean;
};

/** Distinct at a glance and each at least 3:1 against white (WCAG 1.4.11). */
const SERIES_COLOURS = [
  "#1f5fbf",
  "#c2410c",
  "#15803d",
  "#7e22ce",
  "#b91c1c",
  "#0f766e",
  "#a16207",
  "#4b5563",
];
const TEXT_COLOUR = "#1b1f24";
const GRID_COLOUR = "#d0d7de";

/**
 * Credits as stacked bars, drawn by Chart.js. The library is loaded when the first chart is drawn
 * (its own chunk), with only the parts a bar chart needs registered. The canvas is an image
 * named by `summary`; the table beside it carries the same numbers for everyone.
 */
export function CreditsChart({ data, summary }: { data: ChartData; summary: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<"loading" | "drawn" | { error: unknown }>("loading");

  useEffect(() => {
    let chart: ChartInstance<"bar", (number | null)[], string> | null = null;
    let cancelled = false;
    const draw = async () => {
      const { Chart, BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip } =
        await import("chart.js");
      if (cancelled || !canvas.current) return;
      Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);
      const [nameAxis, valueAxis] = data.horizontal ? (["y", "x"] as const) : (["x", "y"] as const);
      chart = new Chart(canvas.current, {
        type: "bar",
        data: {
          labels: data.labels,
          datasets: data.series.map((series, index) => ({
            label: series.label,
            data: series.values,
            backgroundColor: SERIES_COLOURS[index % SERIES_COLOURS.length],
          })),
        },
        options: {
          indexAxis: nameAxis,
          // The numbers matter more than motion, and a drawn chart should hold still.
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          color: TEXT_COLOUR,
          scales: {
            // The axis of the bars' names needs no grid lines; the credits' axis does.
            [nameAxis]: {
              stacked: true,
              ticks: { color: TEXT_COLOUR },
              grid: { display: false },
            },
            [valueAxis]: {
              stacked: true,
              beginAtZero: true,
              ticks: { color: TEXT_COLOUR },
              grid: { color: GRID_COLOUR },
            },
          },
          plugins: {
            legend: { display: data.series.length > 1, labels: { color: TEXT_COLOUR } },
            tooltip: {
              callbacks: {
                label: (item) =>
                  `${item.dataset.label}: ${formatCreditAmount(item.parsed[valueAxis] ?? 0)} credits`,
              },
            },
          },
        },
      });
      setState("drawn");
    };
    draw().catch((error: unknown) => {
      if (!cancelled) setState({ error });
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [data]);

  const height = data.horizontal ? Math.max(10, data.labels.length * 2.25 + 4) : 18;
  return (
    <>
      {state === "loading" && <Loading label="Drawing the chart…" />}
      {typeof state === "object" && <ErrorNotice error={state.error} />}
      <div className="usage-chart" style={{ height: `${height}rem` }}>
        <canvas ref={canvas} role="img" aria-label={summary} />
      </div>
    </>
  );
}
