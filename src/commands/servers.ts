import { FleetAggregate, type FleetBy, type FleetRow } from "../analyses/servers.js";
import { UsageError } from "../errors.js";
import { toolCostChartSpec } from "../render/chart.js";
import type { CommandOutput, OutputFile } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { compositionTable, fleetTable } from "../report/servers-tables.js";
import type { CommonOptions } from "./common.js";
import { CONFIG_DIR, FILTERS, OUTPUT } from "./options.js";
import type { CommandSpec } from "./registry.js";
import { foldFleet } from "./fleet-pass.js";
import type { SessionComposition } from "../assemble/fleet-session.js";

export interface ServersOptions extends CommonOptions {
  by?: FleetBy;
  chart?: string;
  filter?: import("../sources/session-filter.js").SessionFilter;
  tz?: string;
}

/** `servers [targets..]`: per MCP server (or tool) across sessions, each session read and folded in before the next. */
export async function runServers(targets: string[], opts: ServersOptions): Promise<CommandOutput> {
  const by = opts.by ?? "server";
  if (opts.chart !== undefined && !/\.svg$/i.test(opts.chart))
    throw new UsageError(`--chart ${opts.chart}: give a file name ending in .svg`);
  const servers = new FleetAggregate("server");
  const tools = new FleetAggregate("tool");
  const sessions: SessionComposition[] = [];
  const pass = await foldFleet(targets, opts, (s) => {
    servers.add(s.facts);
    tools.add(s.facts);
    sessions.push(s.composition);
  });
  const { plan, health, warnings } = pass;
  const rows = by === "server" ? servers.rows() : tools.rows();
  const toolRows = by === "tool" ? rows : tools.rows();
  const title = `MCP tools: result size against cost — ${servers.sessions} session(s)`;
  const spec = toolCostChartSpec(chartPoints(toolRows), title);
  const files: OutputFile[] = [];
  const all = pass.inputs;
  if (opts.chart !== undefined)
    files.push({
      kind: "chart",
      path: opts.chart,
      spec,
      // The output step guards the path (output/write-guard.ts); the dirs searched are protected too.
      protect: plan.searched,
    });
  return {
    command: "servers",
    inputs: all,
    health,
    data: { by, servers: rows, sessions, searched: plan.searched },
    files,
    document: {
      title: by === "server" ? "MCP servers across sessions" : "MCP tools across sessions",
      summary: [
        ["searched", targets.length ? `${targets.length} target(s)` : plan.searched.join(", ")],
        ["sessions", servers.sessions, "int"],
        [by === "server" ? "servers" : "tools", rows.length, "int"],
      ],
      tables: [fleetTable(rows, by), compositionTable(sessions), healthTable(health)],
      charts: [{ title, spec }],
      warnings: [...warnings, ...healthWarnings(health)],
    },
  };
}

function chartPoints(rows: FleetRow[]) {
  return rows
    .filter((r) => r.results > 0)
    .map((r) => ({ tool: r.name, server: r.server, resultChars: r.resultChars, deltaTokens: r.deltaTokens, results: r.results }));
}

export const serversCommand: CommandSpec = {
  command: "servers [targets..]",
  describe:
    "per MCP server across sessions (every session under the config dirs by default): tools, instructions, calls, result sizes, checks fired, token cost, follow-up reads",
  common: [...OUTPUT, "strict", ...CONFIG_DIR, "subagents", ...FILTERS],
  examples: [
    ["ccforensics servers --claude-dir samples/claude-home", "every sample session's MCP servers, most expensive first"],
    [
      "ccforensics servers --claude-dir samples/outputs/staircase/claude --by tool --chart tools.svg",
      "one row per MCP tool, and a chart of result size against request growth",
    ],
    ["ccforensics servers --project widget --since 7d --format csv", "the servers of one project's last week, as CSV"],
  ],
  positionals: {
    targets: {
      describe: "session ids or prefixes, or transcript paths (default: every session under the config dirs; - for stdin)",
      array: true,
    },
  },
  options: {
    by: { choices: ["server", "tool"], describe: "one row per MCP server (default) or per MCP tool" },
    chart: { type: "string", describe: "also write an SVG of each tool's result characters against the request growth they cost" },
  },
  run: (argv) => runServers(argv.targets ?? [], argv as ServersOptions),
};
