import { sanitize } from "./sanitize.js";

export const BASE = {
  $schema: "https://vega.github.io/schema/vega-lite/v6.json",
  // 560 px of plot with its axis labels beside and the legend below stays within a 720 px page at full size.
  width: 560,
  height: 320,
  background: "white",
  // Vega's default label limits (180 px axis, 160 px legend) cut run labels with "…": a label is the point of a bar.
  config: {
    font: "sans-serif",
    axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 600 },
    legend: { labelFontSize: 11, labelLimit: 600, orient: "bottom", direction: "horizontal", columns: 4 },
    title: { limit: 0 },
  },
};

const UUID = /\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** A chart title names a session by its 8-character prefix: a full UUID is noise on a figure (and an id someone may not mean to publish). */
export const chartTitle = (title: string): string => sanitize(title.replace(UUID, "$1…"));

/** Chain ids, run labels and titles come from evidence: the SVG shows their control and invisible characters as escapes. */
export function textSafe<T extends object>(rows: T[]): T[] {
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "string" ? sanitize(v) : v])) as T);
}
