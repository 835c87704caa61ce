import { BASE, chartTitle, textSafe } from "./chart-base.js";

import type { ChartSpec } from "../report/model.js";

/** One tool result of the staircase: its size, what its request grew by, the check that fired, and who it is. */
export interface StaircasePoint {
  chars: number;
  deltaTokens: number | null;
  check: string;
  /** The run by its label (a runs-dir folder) or, without one, the tool and size: never a raw session id. */
  label: string;
  run: string;
}

/** Every check in the order the size staircase meets them, so colours and shapes mean the same in every chart. */
const CHECKS = ["inline", "size", "token", "token-legacy", "truncated", "read-limit", "budget", "cleared"];
const COLOURS = ["#4c78a8", "#f58518", "#e45756", "#b279a2", "#72b7b2", "#54a24b", "#eeca3b", "#9d755d"];
const SHAPES = ["circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "triangle-right", "triangle-left"];

/**
 * The size staircase: result size against the tokens its request grew by, marked by the check that fired.
 * The checks change between about 24,000 and 70,000 characters while one run may be 320,000: a log size
 * axis keeps that region half the plot wide instead of a sixth. Growth spans ~1,000 (a saved file's
 * preview) to ~50,000 (inline) tokens, so it is logarithmic too when every value is positive.
 * Points far right of the rest (over 3× the median size) are named on the chart, and a band shades the
 * sizes where both happen: results some check replaced and results still kept inline.
 */
export function staircaseChartSpec(rows: StaircasePoint[], title: string): ChartSpec {
  // Escaped first: the colour and shape domains below must hold the same strings as the data they map.
  const drawn = textSafe(rows.filter((r) => r.deltaTokens !== null && r.chars > 0));
  const sizes = drawn.map((r) => r.chars).sort((a, b) => a - b);
  const median = sizes.length ? sizes[Math.floor(sizes.length / 2)]! : 0;
  const values = drawn.map((r) => ({ ...r, outlier: r.chars > 3 * median, name: `${r.label} (${r.chars.toLocaleString("en-US")})` }));
  const logY = drawn.every((r) => r.deltaTokens! > 0);
  const present = CHECKS.filter((c) => drawn.some((r) => r.check === c));
  const other = [...new Set(drawn.map((r) => r.check).filter((c) => !CHECKS.includes(c)))];
  const domain = [...present, ...other];
  const pick = <T>(list: T[], c: string) => list[CHECKS.indexOf(c)] ?? list[list.length - 1]!;
  // A nice log domain rounds out to whole decades (10k–1M): padded by a quarter either side instead, the data fills the plot.
  const span = (vs: number[]) => (vs.length ? [Math.min(...vs) / 1.25, Math.max(...vs) * 1.25] : [1, 10]);
  const x = {
    field: "chars",
    type: "quantitative",
    title: "result size (characters, log scale)",
    scale: { type: "log", nice: false, domain: span(sizes) },
    axis: { format: "~s" },
  };
  const y = {
    field: "deltaTokens",
    type: "quantitative",
    title: logY ? "request growth (tokens, log scale)" : "request growth (tokens)",
    ...(logY ? { scale: { type: "log", nice: false, domain: span(drawn.map((r) => r.deltaTokens!)) } } : {}),
    axis: { format: "~s" },
  };
  // Where the checks change: from the smallest result some check replaced to the largest still kept inline.
  const replaced = drawn.filter((r) => r.check !== "inline").map((r) => r.chars);
  const kept = drawn.filter((r) => r.check === "inline").map((r) => r.chars);
  const band =
    replaced.length && kept.length && Math.min(...replaced) < Math.max(...kept) ? [Math.min(...replaced), Math.max(...kept)] : null;
  const bandLayers = band
    ? [
        {
          data: { values: [{ from: band[0], to: band[1] }] },
          mark: { type: "rect", color: "#888", opacity: 0.12 },
          encoding: { x: { ...x, field: "from" }, x2: { field: "to" } },
        },
        {
          data: { values: [{ at: Math.sqrt(band[0]! * band[1]!) }] },
          mark: { type: "text", baseline: "top", dy: 4, fontSize: 11, color: "#555", y: 0 },
          encoding: { x: { ...x, field: "at" }, text: { value: "checks change" } },
        },
      ]
    : [];
  return {
    ...BASE,
    title: chartTitle(title),
    data: { values },
    layer: [
      ...bandLayers,
      {
        mark: { type: "point", filled: true, size: 110, opacity: 0.85 },
        encoding: {
          x,
          y,
          color: { field: "check", type: "nominal", title: "check fired", scale: { domain, range: domain.map((c) => pick(COLOURS, c)) } },
          shape: { field: "check", type: "nominal", title: "check fired", scale: { domain, range: domain.map((c) => pick(SHAPES, c)) } },
          tooltip: [
            { field: "label" },
            { field: "run" },
            { field: "chars", title: "size (chars)", format: "," },
            { field: "deltaTokens", title: "Δ tokens", format: "," },
            { field: "check" },
          ],
        },
      },
      {
        transform: [{ filter: "datum.outlier" }],
        mark: { type: "text", align: "right", dx: -9, dy: -9, fontSize: 11 },
        encoding: { x, y, text: { field: "name" } },
      },
    ],
  };
}
