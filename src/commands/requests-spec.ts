import { requestsChartSpec } from "../render/chart.js";
import { protectedDirs } from "../output/files.js";
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
    if (typeof argv.chart === "string") {
      const rows = (out.data.requests as Array<{ chain: string; index: number; totalInputTokens: number }>).map((r) => ({ chain: r.chain, index: r.index, totalInputTokens: r.totalInputTokens }));
      const dirs = protectedDirs(configDirs({ claudeDir: argv.claudeDir, env: argv.env, cwd: argv.cwd }), out.inputs.map((i) => i.path).filter((p) => p !== "-"));
      out.files = [...(out.files ?? []), { kind: "chart", path: argv.chart, spec: requestsChartSpec(rows, out.document.title), protect: dirs }];
    }
    return out;
  },
};
