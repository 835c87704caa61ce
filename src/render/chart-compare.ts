import { BASE, chartTitle, textSafe } from "./chart-base.js";
import { sanitize } from "./sanitize.js";

import type { Chart, ChartSpec } from "../report/model.js";

/** The fields of a compare row the chart reads (analyses/compare.ts `CompareRow`). */
export interface CompareChartRow {
  label: string;
  run: string;
  firstRequestTokens: number | null;
  deltaVsBaseline: number | null;
  baselineLabel: string | null;
  /** The baseline ran with another configuration (analyses/compare.ts): the bar is no instructions' cost. */
  baselineDiffers?: string | null;
  error?: string | null;
}

// One decimal at most: a delta against a baseline mean can be half a token (+375.5).
const num = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });
const signed = (n: number) => (n > 0 ? `+${num(n)}` : n < 0 ? `−${num(-n)}` : "0");

/**
 * What the write-up is about is the difference a configuration makes (+377, +721, +1,727 tokens on a
 * ~20,000-token first request), so the bars are deltas against the baseline from 0, negative allowed,
 * one horizontal bar per run so that every label has room, each bar with its value written beside it.
 * Without a baseline the bars fall back to the absolute first-request tokens, and the title says so.
 * A run with no number keeps its row, labelled with why.
 */
export function compareChart(rows: CompareChartRow[], source: string): Chart {
  const baselines = [...new Set(rows.map((r) => r.baselineLabel).filter((b): b is string => b !== null))];
  const delta = rows.some((r) => r.deltaVsBaseline !== null);
  const against = baselines.length === 1 ? `\`${baselines[0]}\`` : "each run's baseline";
  // The baseline is a label from the evidence: the axis title shows its control characters as escapes, like the title.
  const axis = sanitize(delta ? `Δ request-1 tokens vs ${against}` : "request-1 tokens (no baseline: --baseline LABEL)");
  const title = chartTitle(`${axis} — ${source}`);
  const values = rows.map((r) => {
    // A run that failed is no measurement, even when its transcript has figures.
    const v = r.error ? null : delta ? r.deltaVsBaseline : r.firstRequestTokens;
    const isBase = delta && r.baselineLabel === r.label;
    const text =
      v === null
        ? r.error
          ? "failed (see warnings)"
          : "no data"
        : delta
          ? `${signed(v)}${isBase ? " (baseline)" : r.baselineDiffers ? " † (baseline differs)" : ""}`
          : v.toLocaleString("en-US");
    return { label: r.label, run: r.run, value: v ?? 0, text, baseline: r.baselineLabel ?? "", tokens: r.firstRequestTokens };
  });
  // The same x and y in every layer: a layer without the axis format would draw its own ticks (1e+3).
  // vega-lite writes the encoding's title into each bar's aria-label as a string inside an expression, where the
  // escapes sanitize wrote would turn back into the characters they hide: that title stays a constant, the axis names the baseline.
  const x = {
    field: "value",
    type: "quantitative",
    title: delta ? "Δ vs baseline" : "request-1 tokens",
    axis: { format: ",d", title: axis },
    // A negative bar's value label sits left of it: room for it, so "−500" never lands on the run labels.
    // Positive labels may run past the plot (the SVG grows to hold them); padding there would draw an empty negative half.
    scale: { zero: true, nice: true, ...(values.some((v) => v.value < 0) ? { padding: 56 } : {}) },
  };
  const y = { field: "run", type: "nominal", sort: null, title: null };
  const spec: ChartSpec = {
    ...BASE,
    title,
    // A bar per run, 22 px each: twelve runs need no more room than this, fifty still read.
    height: { step: 22 },
    // Run labels on the left and values past the bars take room a 720 px page does not have beside 560 px of plot.
    width: 480,
    data: { values: textSafe(values) },
    layer: [
      {
        mark: { type: "bar", height: { band: 0.75 } },
        encoding: {
          y,
          x,
          color: { field: "label", type: "nominal", title: "configuration", sort: null },
          tooltip: [
            { field: "label", title: "configuration" },
            { field: "run" },
            { field: "text", title: delta ? "Δ tokens" : "tokens" },
            ...(delta ? [{ field: "baseline", title: "baseline" }] : []),
            { field: "tokens", title: "request-1 tokens", format: "," },
          ],
        },
      },
      // Values beside the bars: past the end of a positive bar, before the start of a negative one.
      ...[true, false].map((positive) => ({
        transform: [{ filter: positive ? "datum.value >= 0" : "datum.value < 0" }],
        // The bar already tells a screen reader its value: the label beside it is for the eye.
        mark: { type: "text", align: positive ? "left" : "right", dx: positive ? 4 : -4, fontSize: 11, aria: false },
        encoding: { y, x, text: { field: "text" } },
      })),
      { data: { values: [{}] }, mark: { type: "rule", color: "#444", aria: false }, encoding: { x: { datum: 0 } } },
    ],
  };
  return { title, spec };
}

/** The spec alone, for `--chart FILE`. */
export const compareChartSpec = (rows: CompareChartRow[], source: string): ChartSpec => compareChart(rows, source).spec;
