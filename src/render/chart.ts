import { BASE, chartTitle, textSafe } from "./chart-base.js";

import type { ChartSpec } from "../report/model.js";

export type { ChartSpec };
export { compareChart, compareChartSpec, type CompareChartRow } from "./chart-compare.js";
export { staircaseChartSpec, type StaircasePoint } from "./chart-staircase.js";

/** Token growth per request: total input tokens by request index, one line per chain. */
export function requestsChartSpec(rows: Array<{ chain: string; index: number; totalInputTokens: number }>, title: string): ChartSpec {
  return {
    ...BASE,
    title: chartTitle(title),
    data: { values: textSafe(rows) },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "index", type: "quantitative", title: "request #", axis: { tickMinStep: 1 } },
      // A session starts at ~20,000 tokens and grows by hundreds a request: from 0 that growth is a flat line.
      y: { field: "totalInputTokens", type: "quantitative", title: "total input tokens", scale: { zero: false } },
      color: { field: "chain", type: "nominal", title: "chain" },
      tooltip: [{ field: "chain" }, { field: "index" }, { field: "totalInputTokens", format: "," }],
    },
  };
}

/** The requests chart's title: the session by its short id, else the file it came from by name, never a whole UUID or path. */
export function requestsChartTitle(session: string): string {
  const isFile = session === "-" || /[\\/]/.test(session);
  const name = session === "-" ? "stdin" : session.split(/[\\/]/).pop()!;
  // A session id by its first 8 characters, as `sessions` lists it; a cut file name keeps its "…".
  const session8 = /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(name) ? name.slice(0, 8) : name;
  return chartTitle(`Token growth per request — ${isFile ? name : `session ${session8}`}`);
}

/** Per MCP tool across sessions: the characters its results carried against the tokens their requests grew by. */
export function toolCostChartSpec(
  rows: Array<{ tool: string; server: string | null; resultChars: number; deltaTokens: number; results: number }>,
  title: string,
): ChartSpec {
  return {
    ...BASE,
    title: chartTitle(title),
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
