import type { Options } from "yargs";
import { emptyHealth, mergeHealth, MAX_LISTED, type Health } from "../analyses/health.js";
import { staircaseRows } from "../analyses/staircase.js";
import { protectedDirs, staircaseChartSpec } from "../render/chart.js";
import { configDirs } from "../sources/discover.js";
import { UsageError } from "../errors.js";
import { readRpcLog } from "../records/rpc.js";
import { readToolsList, toolsByName, toolsFromResult, type ToolMeta } from "../records/tools-list.js";
import type { CommandOutput } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import type { Chart, Table } from "../report/model.js";
import type { InputFile } from "../sources/input.js";
import type { CommonOptions } from "./common.js";
import { envelopeInputs } from "./inputs.js";
import { loadOutputs, type LoadedOutputs } from "./outputs-load.js";
import { evidenceInput } from "../sources/evidence.js";
import { annotationsTable, readsTable, resultsTable, savedTable, staircaseTable } from "./outputs-report.js";
import type { CommandSpec } from "./registry.js";

export interface OutputsOptions extends CommonOptions {
  staircase?: boolean;
  /** `--tools FILE`: a tools/list response, for `_meta["anthropic/maxResultSizeChars"]`. */
  tools?: string;
  /** `--chart FILE.svg` with --staircase. */
  chart?: string;
  /** `--only NAME`: keep one tool's results in the staircase. */
  only?: string;
}

/** `outputs [targets..]`: every tool result, the check that fired, the saved file and the cost; `--staircase` across runs. */
export async function runOutputs(targets: string[], opts: OutputsOptions): Promise<CommandOutput> {
  const list = targets.length > 0 ? targets : [undefined];
  if (opts.chart !== undefined && !opts.staircase) throw new UsageError("--chart goes with --staircase (the size staircase chart)");
  if (opts.debugFile !== undefined) {
    if (list.length > 1) throw new UsageError("--debug-file belongs to one session; with several targets each session's own debug log is looked up");
    evidenceInput(opts.debugFile, "debug-log");
  }
  const extra: InputFile[] = [];
  const warnings: string[] = [];
  const health = emptyHealth();
  const tools = await loadTools(opts, extra, warnings, health);
  const loaded: LoadedOutputs[] = [];
  for (const t of list) loaded.push(await loadOutputs(t, opts, { debugFile: opts.debugFile, tools }));

  for (const l of loaded) {
    mergeHealth(health, l.health);
    warnings.push(...l.warnings);
  }
  const toolResults = loaded.flatMap((l) => l.rows);
  const tables: Table[] = [];
  const charts: Chart[] = [];
  let chartFile: CommandOutput["chartFile"];
  const data: Record<string, unknown> = { toolResults };
  if (opts.staircase) {
    const stairs = staircaseRows(loaded.map((l) => ({ run: l.run, rows: l.rows })), { tool: opts.only });
    data.staircase = stairs;
    tables.push(staircaseTable(stairs));
    const points = stairs.filter((r) => r.chars !== null).map((r) => ({ chars: r.chars!, deltaTokens: r.deltaTokens, check: r.check, label: `${r.run} ${r.tool}` }));
    const title = `Tool output size staircase — ${loaded.length} run(s)`;
    charts.push({ title, spec: staircaseChartSpec(points, title) });
    if (opts.chart) {
      chartFile = { path: opts.chart, protect: protectedDirs(configDirs({ claudeDir: opts.claudeDir, env: opts.env, cwd: opts.cwd }), loaded.flatMap((l) => l.inputs.map((i) => i.path)).filter((p) => p !== "-")) };
    }
  } else {
    tables.push(...loaded.map(resultsTable));
    for (const t of [savedTable(loaded), readsTable(loaded), annotationsTable(loaded)]) if (t.rows.length) tables.push(t);
  }
  tables.push(healthTable(health));
  const one = loaded.length === 1 ? loaded[0]! : null;
  return {
    command: "outputs",
    inputs: envelopeInputs(...loaded.map((l) => l.inputs), extra),
    health,
    data,
    ...(chartFile ? { chartFile } : {}),
    report: {
      title: opts.staircase ? `Tool output size staircase — ${loaded.length} run(s)` : `Tool outputs — ${one ? one.run : `${loaded.length} sessions`}`,
      summary: one
        ? [
            ["session", one.sessionId],
            ["transcript", one.transcript],
            ["tool-results folder", one.toolResultsDir],
            ["debug log", one.debugLog ?? "none given or found"],
            ["tools/list", opts.tools ?? opts.rpcLog ?? "not given (--tools FILE or --rpc-log FILE)"],
            ["tool results", one.rows.length, "int"],
          ]
        : [["runs", loaded.length, "int"], ["tool results", toolResults.length, "int"]],
      tables,
      ...(charts.length ? { charts } : {}),
      warnings: [...warnings, ...healthWarnings(health)],
    },
  };
}

/**
 * Tool definitions from `--tools FILE` (a tools/list response) and/or `--rpc-log FILE` (any MCP message
 * log the rpc reader accepts: every `result` with a `tools` array counts). null when neither is given.
 */
async function loadTools(opts: OutputsOptions, extra: InputFile[], warnings: string[], health: Health): Promise<Map<string, ToolMeta> | null> {
  if (opts.tools === undefined && opts.rpcLog === undefined) return null;
  const all: ToolMeta[] = [];
  if (opts.tools !== undefined) {
    const input = evidenceInput(opts.tools, "rpc-log");
    const res = await readToolsList(input, { stdin: opts.stdin });
    extra.push(input);
    if (res.error) warnings.push(`${opts.tools}: stopped reading the tools/list response: ${res.error}`);
    if (res.tools.length === 0) warnings.push(`${opts.tools}: no tools found (expected a tools/list response)`);
    all.push(...res.tools);
  }
  if (opts.rpcLog !== undefined) {
    const input = evidenceInput(opts.rpcLog, "rpc-log");
    extra.push(input);
    let found = 0;
    for await (const r of readRpcLog(input)) {
      if (r.kind === "malformed") {
        health.malformedCount += 1;
        if (health.malformed.length < MAX_LISTED) health.malformed.push({ file: r.pos.file, line: r.pos.line, reason: r.reason, excerpt: r.excerpt });
      } else if (r.kind === "rpc" && r.shape === "result") {
        const tools = toolsFromResult(r.message.result);
        found += tools.length;
        all.push(...tools);
      }
    }
    if (found === 0) warnings.push(`${opts.rpcLog}: no tools/list response in the message log; tool annotations unknown`);
  }
  return toolsByName(all);
}

/** `--tools FILE`, shared with report. */
export const TOOLS_OPTION: Options = { type: "string", describe: "a tools/list response (JSON) for each tool's _meta[\"anthropic/maxResultSizeChars\"]" };

export const outputsCommand: CommandSpec = {
  command: "outputs [targets..]",
  describe: "every tool result: size, which check fired (size/token/budget/…), what the model saw, the saved file, the cost; --staircase across runs",
  examples: [
    ["ccforensics outputs 5e1c0a52-0003-4000-8000-000000052000 --claude-dir samples/outputs/staircase/claude", "each tool result of a session: check, saved file, Δ tokens, count_tokens, follow-up reads"],
    ["ccforensics outputs session.jsonl --debug-file debug.txt --tools tools-list.json", "with a debug log given, and the tools' maxResultSizeChars from a tools/list response"],
    ["ccforensics outputs --staircase samples/outputs/staircase/claude/projects/*/*.jsonl --format markdown", "the size staircase of many runs, as a markdown table"],
    ["ccforensics outputs --staircase samples/outputs/staircase/claude/projects/*/*.jsonl --chart staircase.svg", "the same, drawn: size against Δ tokens by check"],
  ],
  positionals: { targets: { describe: "session ids or prefixes, transcript paths, or - for stdin", array: true } },
  options: {
    staircase: { type: "boolean", describe: "one table of every run's results sorted by size (the write-up's staircase)" },
    tools: TOOLS_OPTION,
    only: { type: "string", describe: "with --staircase: only this tool (full name, or the part after mcp__<server>__)" },
    chart: { type: "string", describe: "with --staircase: also write an SVG of result size against request growth, coloured by the check that fired" },
  },
  run: (argv) => runOutputs(argv.targets ?? [], argv as OutputsOptions),
};
