import type { CommandSpec } from "./registry.js";
import { runRequests } from "./requests.js";
import { OUTPUT, LOOKUP } from "./options.js";

export const requestsCommand: CommandSpec = {
  command: "requests [target]",
  describe: "one row per API request: tokens, delta vs the previous request of the same chain, what was added in between",
  common: [...OUTPUT, ...LOOKUP, "stream-json"],
  examples: [
    ["ccforensics requests", "on a terminal with no target: the newest session under the config dirs, named on stderr"],
    ["ccforensics requests c0ffee00 --claude-dir samples/claude-home", "the request table of a session found by id prefix"],
    [
      "ccforensics requests samples/basic/11111111-2222-4333-8444-555555555555.jsonl --format markdown",
      "the same as a markdown table for a write-up",
    ],
    ["cat samples/basic/11111111-2222-4333-8444-555555555555.jsonl | ccforensics requests --json", "piped JSONL, JSON out"],
    ["ccforensics requests c0ffee00 --claude-dir samples/claude-home --chart growth.svg", "also draw token growth per request as SVG"],
  ],
  options: { chart: { type: "string", describe: "also write an SVG chart of total input tokens per request" } },
  positionals: { target: { describe: "session id or prefix (6+ chars), transcript path, or - for stdin" } },
  async run(argv) {
    const out = await runRequests(argv.target, argv);
    // The rows are read back for a chart only: --json on a million requests never holds them.
    const wantChart = typeof argv.chart === "string" || argv.format === "html";
    if (!wantChart) return out;
    // The chart code (and, to draw, vega) loads only for a chart.
    const { requestsChartSpec, requestsChartTitle } = await import("../render/chart.js");
    type Point = { chain: string; index: number; totalInputTokens: number };
    const rows = Array.from(out.data.requests as Iterable<Point>, (r) => ({
      chain: r.chain,
      index: r.index,
      totalInputTokens: r.totalInputTokens,
    }));
    // The HTML page shows the chart inline; an empty chart helps nobody there.
    // The document is titled by the session id, or by the target when the records carry none.
    const title = requestsChartTitle(out.document.title.replace(/^Requests — /, ""));
    if (argv.format === "html" && rows.length) out.document.charts = [{ title, spec: requestsChartSpec(rows, title) }];
    if (typeof argv.chart === "string") {
      // The output step guards the path (output/write-guard.ts): the config dirs and this run's inputs.
      out.files = [...(out.files ?? []), { kind: "chart", path: argv.chart, spec: requestsChartSpec(rows, title) }];
    }
    return out;
  },
};
