import { sanitize } from "./sanitize.js";

import type { ChartSpec } from "../report/model.js";

export type { ChartSpec };

const BASE = {
  $schema: "https://vega.github.io/schema/vega-lite/v6.json",
  width: 640,
  height: 320,
  background: "white",
  config: { font: "sans-serif", axis: { labelFontSize: 11, titleFontSize: 12 }, legend: { labelFontSize: 11 } },
};

/** Token growth per request: total input tokens by request index, one line per chain. */
export function requestsChartSpec(rows: Array<{ chain: string; index: number; totalInputTokens: number }>, title: string): ChartSpec {
  return {
    ...BASE,
    title: sanitize(title),
    data: { values: textSafe(rows) },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "index", type: "quantitative", title: "request #", axis: { tickMinStep: 1 } },
      y: { field: "totalInputTokens", type: "quantitative", title: "total input tokens" },
      color: { field: "chain", type: "nominal", title: "chain" },
      tooltip: [{ field: "chain" }, { field: "index" }, { field: "totalInputTokens", format: "," }],
    },
  };
}

/** First-request tokens per run, one bar per run, grouped by label. */
export function compareChartSpec(rows: Array<{ label: string; run: string; firstRequestTokens: number | null }>, title: string): ChartSpec {
  return {
    ...BASE,
    title: sanitize(title),
    data: { values: textSafe(rows.filter((r) => r.firstRequestTokens !== null)) },
    mark: "bar",
    encoding: {
      x: { field: "run", type: "nominal", title: "run", sort: null },
      y: { field: "firstRequestTokens", type: "quantitative", title: "first-request tokens" },
      color: { field: "label", type: "nominal", title: "configuration" },
      tooltip: [{ field: "label" }, { field: "run" }, { field: "firstRequestTokens", format: "," }],
    },
  };
}

/** The size staircase: result size against the tokens it added, coloured by the check that fired. */
export function staircaseChartSpec(
  rows: Array<{ chars: number; deltaTokens: number | null; check: string; label: string }>,
  title: string,
): ChartSpec {
  return {
    ...BASE,
    title: sanitize(title),
    data: { values: textSafe(rows.filter((r) => r.deltaTokens !== null)) },
    mark: { type: "point", filled: true, size: 90 },
    encoding: {
      x: { field: "chars", type: "quantitative", title: "result size (characters)" },
      y: { field: "deltaTokens", type: "quantitative", title: "request growth (tokens)" },
      color: { field: "check", type: "nominal", title: "check fired" },
      shape: { field: "check", type: "nominal" },
      tooltip: [{ field: "label" }, { field: "chars", format: "," }, { field: "deltaTokens", format: "," }, { field: "check" }],
    },
  };
}

/** Per MCP tool across sessions: the characters its results carried against the tokens their requests grew by. */
export function toolCostChartSpec(
  rows: Array<{ tool: string; server: string | null; resultChars: number; deltaTokens: number; results: number }>,
  title: string,
): ChartSpec {
  return {
    ...BASE,
    title: sanitize(title),
    data: { values: textSafe(rows) },
    mark: { type: "point", filled: true, size: 90 },
    encoding: {
      x: { field: "resultChars", type: "quantitative", title: "result characters (all sessions)" },
      y: { field: "deltaTokens", type: "quantitative", title: "request growth (tokens)" },
      color: { field: "server", type: "nominal", title: "server" },
      tooltip: [
        { field: "tool" },
        { field: "results", format: "," },
        { field: "resultChars", format: "," },
        { field: "deltaTokens", format: "," },
      ],
    },
  };
}

/** Chain ids, run labels and titles come from evidence: the SVG shows their control and invisible characters as escapes. */
function textSafe<T extends object>(rows: T[]): T[] {
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "string" ? sanitize(v) : v])) as T);
}

/** Compiles vega-lite and renders SVG headless with vega (no browser, no canvas). Loaded only when asked for. */
export async function renderSvg(spec: ChartSpec): Promise<string> {
  const [vega, vl] = await Promise.all([import("vega"), import("vega-lite")]);
  const compiled = vl.compile(spec as never).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
