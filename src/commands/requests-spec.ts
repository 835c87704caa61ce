import { protectedDirs, requestsChartSpec } from "../render/chart.js";
import { configDirs } from "../sources/discover.js";
import type { CommandSpec } from "./registry.js";
import { runRequests } from "./requests.js";

export const requestsCommand: CommandSpec = {
  command: "requests [target]",
  describe: "one row per API request: tokens, delta vs the previous request of the same chain, what was added in between",
  examples: [
    ["ccforensics requests 11111111-2222", "the request table of a session found by id prefix"],
    ["ccforensics requests session.jsonl --format markdown", "the same as a markdown table for a write-up"],
    ["cat session.jsonl | ccforensics requests --json", "piped JSONL, JSON out"],
    ["ccforensics requests 11111111-2222 --chart growth.svg", "also draw token growth per request as SVG"],
  ],
  options: { chart: { type: "string", describe: "also write an SVG chart of total input tokens per request" } },
  positionals: { target: { describe: "session id or prefix (6+ chars), transcript path, or - for stdin" } },
  async run(argv) {
    const out = await runRequests(argv.target, argv);
    const rows = (out.data.requests as Array<{ chain: string; index: number; totalInputTokens: number }>).map((r) => ({ chain: r.chain, index: r.index, totalInputTokens: r.totalInputTokens }));
    const title = out.report.title;
    // An empty chart helps nobody in a page; a file asked for with --chart is still written.
    if (rows.length || typeof argv.chart === "string") out.report.charts = [{ title, spec: requestsChartSpec(rows, title) }];
    if (typeof argv.chart === "string") {
      out.chartFile = { path: argv.chart, protect: protectedDirs(configDirs({ claudeDir: argv.claudeDir, env: argv.env, cwd: argv.cwd }), out.inputs.map((i) => i.path).filter((p) => p !== "-")) };
    }
    return out;
  },
};
