import type { Options } from "yargs";
import { documentHealth } from "../records/health.js";
import { assembleToolOutputs, type AssembledOutputs } from "../assemble/outputs.js";
import { gatherOutputs } from "../pipeline/gather.js";
import { gatherTools, type GatheredTools } from "../pipeline/gather-tools.js";
import { toolDefsByName, type ToolMeta } from "../records/tools-list.js";
import { mcpTokenLimitOf } from "../analyses/outputs-join.js";
import { firstRequestDrift, staircaseRows, type StaircaseRow, type StaircaseRun } from "../analyses/staircase.js";
import { envText } from "../assemble/compare-row.js";
import { expandRunsDirs, isRunsDir, runGatherOptions } from "../pipeline/runs-targets.js";
import { staircaseChartSpec } from "../render/chart.js";
import { runFolderName } from "../pipeline/run-folder.js";
import { inputConfigDir } from "../output/write-guard.js";
import { UsageError } from "../errors.js";
import type { CommandOutput, OutputFile } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import type { Chart, Table } from "../report/model.js";
import type { CommonOptions } from "./common.js";
import { envelopeInputs } from "../assemble/inputs.js";
import { progressReporter } from "./progress.js";
import { evidenceInput } from "../sources/evidence.js";
import { annotationsTable, failedRunsTable, readsTable, resultsTable, savedTable, staircaseTable } from "../report/outputs-tables.js";
import type { CommandSpec } from "./registry.js";
import { OUTPUT, LOOKUP } from "./options.js";

export interface OutputsOptions extends CommonOptions {
  staircase?: boolean;
  /** `--tools FILE`: a tools/list response, for `_meta["anthropic/maxResultSizeChars"]`. */
  tools?: string;
  /** `--chart FILE.svg` with --staircase. */
  chart?: string;
  /** `--only NAME`: keep one tool's results in the staircase. */
  only?: string;
  verbose?: boolean;
}

/** `outputs [targets..]`: every tool result, the check that fired, the saved file and the cost; `--staircase` across runs. */
export async function runOutputs(targets: string[], opts: OutputsOptions): Promise<CommandOutput> {
  const list = targets.length > 0 ? targets : [undefined];
  if (opts.chart !== undefined && !opts.staircase) throw new UsageError("--chart goes with --staircase (the size staircase chart)");
  if (opts.debugFile !== undefined) {
    if (list.length > 1)
      throw new UsageError("--debug-file belongs to one session; with several targets each session's own debug log is looked up");
    evidenceInput(opts.debugFile, "debug-log");
  }
  const side = await gatherTools(opts);
  const items = opts.staircase ? await expandRunsDirs(list) : list.map((target) => ({ target, spec: null }));
  if (!opts.staircase)
    for (const t of list) if (t && isRunsDir(t)) throw new UsageError(`${t} is a runs dir; use outputs --staircase ${t} (one row per run)`);
  const loaded: AssembledOutputs[] = [];
  const runs: Array<Required<Omit<StaircaseRun, "rows">>> = [];
  const failed: Array<{ run: string; label: string; error: string }> = [];
  const parts = [...side.parts];
  const sideInputs = [...side.inputs];
  const sideWarnings = [...side.warnings];
  for (const { target, spec } of items) {
    if (spec?.failed) {
      failed.push({ run: spec.name, label: spec.label, error: spec.failed });
      continue;
    }
    // A run whose claude timed out, was killed or exited non-zero is no measured step (its transcript may stop
    // mid-turn): listed with why, as compare leaves it out of the groups and the fit, and the command exits 1.
    if (spec?.runFailed) {
      failed.push({ run: spec.name, label: spec.label, error: `${spec.runFailed}; left out of the staircase` });
      continue;
    }
    try {
      const o = spec ? runGatherOptions(opts, spec) : opts;
      // A run's tool annotations are in its own servers' logs.
      const tools = spec ? await gatherRunTools(spec.rpcLogs, spec.rpcLogServers) : side;
      if (spec) {
        parts.push(...tools.parts);
        sideInputs.push(...tools.inputs);
      }
      const ev = await gatherOutputs(target, { ...o, progress: progressReporter(opts.stderr, opts.stderrIsTTY) });
      const a = assembleToolOutputs(ev, tools.tools, { mcpTokenLimit: mcpTokenLimitOf(spec?.env) });
      loaded.push(spec ? { ...a, run: spec.name, warnings: a.warnings.map((w) => `${spec.name}: ${w}`) } : a);
      const first = ev.transcripts.results.requests.totals.find((t) => t.chain === "main")?.firstTotalInputTokens ?? null;
      runs.push({ run: spec?.name ?? a.run, label: spec?.label ?? null, env: spec ? envText(spec.env) : null, firstRequestTokens: first });
    } catch (e) {
      // Only runs of a runs dir are reported and passed over; a target named outright fails as before.
      if (!spec) throw e;
      failed.push({ run: spec.name, label: spec.label, error: (e as Error).message.split("\n")[0]! });
    }
  }
  const health = documentHealth([...parts, ...loaded.flatMap((l) => l.parts)]);
  const warnings = [...sideWarnings, ...loaded.flatMap((l) => l.warnings), ...failed.map((f) => `${f.run}: ${f.error}`)];
  const toolResults = loaded.flatMap((l) => l.rows);
  const tables: Table[] = [];
  const files: OutputFile[] = [];
  const charts: Chart[] = [];
  const data: Record<string, unknown> = { toolResults };
  if (opts.staircase) {
    const stairs = staircaseRows(
      loaded.map((l, i) => ({ ...runs[i]!, rows: l.rows })),
      { tool: opts.only },
    );
    data.staircase = stairs;
    data.failedRuns = failed;
    // Only runs with a step in the table: an instructions run's request 1 is another experiment's.
    const stepped = new Set(stairs.map((r) => r.run));
    tables.push(staircaseTable(stairs, firstRequestDrift(runs.filter((r) => stepped.has(r.run)))));
    if (failed.length) tables.push(failedRunsTable(failed));
    const folders = new Map(loaded.map((l) => [l.run, runFolderName(l.transcript)]));
    const points = stairs
      .filter((r) => r.chars !== null)
      .map((r) => {
        const folder = folders.get(r.run) ?? null;
        return { chars: r.chars!, deltaTokens: r.deltaTokens, check: r.check, label: staircasePointLabel(r, folder), run: folder ?? r.run };
      });
    const title = `Tool output size staircase — ${loaded.length} run(s)`;
    charts.push({ title, spec: staircaseChartSpec(points, title) });
    if (opts.chart) {
      // The output step guards the path (output/write-guard.ts); each run's config dir is added to what it protects.
      const dirs = loaded.flatMap((l) => l.inputs.flatMap((i) => (i.path === "-" ? [] : (inputConfigDir(i.path, opts.cwd) ?? []))));
      files.push({ kind: "chart", path: opts.chart, spec: staircaseChartSpec(points, title), protect: dirs });
    }
  } else {
    // JSON prints the rows themselves: its results tables keep their columns (what --columns is checked
    // against) but not a second copy of every row, 20 MB of peak RSS at 1 GB of transcript.
    tables.push(...loaded.map((l) => resultsTable(opts.format === "json" ? { ...l, rows: [] } : l)));
    for (const t of [savedTable(loaded), readsTable(loaded), annotationsTable(loaded)]) if (t.rows.length) tables.push(t);
  }
  tables.push(healthTable(health));
  const one = loaded.length === 1 ? loaded[0]! : null;
  return {
    command: "outputs",
    inputs: envelopeInputs(...loaded.map((l) => l.inputs), sideInputs),
    health,
    ...(failed.length
      ? { failure: `${failed.length} of ${items.length} run(s) could not be read or did not finish (see the warnings)` }
      : {}),
    data,
    files,
    document: {
      title: opts.staircase
        ? `Tool output size staircase — ${loaded.length} run(s)`
        : `Tool outputs — ${one ? one.run : `${loaded.length} sessions`}`,
      summary: one
        ? [
            ["session", one.sessionId],
            ["transcript", one.transcript],
            ["tool-results folder", one.toolResultsDir],
            ["debug log", one.debugLog ?? "none given or found"],
            ["tools/list", opts.tools ?? opts.rpcLog ?? "not given (--tools FILE or --rpc-log FILE)"],
            ["tool results", one.rows.length, "int"],
          ]
        : [
            ["runs", loaded.length, "int"],
            ["tool results", toolResults.length, "int"],
          ],
      tables,
      ...(charts.length ? { charts } : {}),
      warnings: [...warnings, ...healthWarnings(health)],
    },
  };
}

/** A chart point names the configuration and its variables when the run has them, else its run folder and tool. */
function staircasePointLabel(r: StaircaseRow, folder: string | null): string {
  if (r.label !== null) return [r.label, r.env].filter(Boolean).join(" ");
  // Without a runs dir: the run folder a transcript sits in, else the tool alone; a session id names nothing on a chart.
  const tool = (r.paired ? r.tool : "unknown tool").replace(/^mcp__.+?__/, "");
  return folder ? `${folder} · ${tool}` : tool;
}

/**
 * Tool definitions from each of a run's message logs, each with the server run.json names its log by
 * (a lab server's serverInfo need not be the config's name): two servers listing `search` stay apart.
 */
async function gatherRunTools(logs: string[], servers: Record<string, string> = {}): Promise<GatheredTools> {
  const out: GatheredTools = { tools: null, inputs: [], parts: [], warnings: [] };
  const all: ToolMeta[] = [];
  for (const rpcLog of logs) {
    const g = await gatherTools({ rpcLog });
    out.inputs.push(...g.inputs);
    out.parts.push(...g.parts);
    for (const defs of g.tools?.values() ?? []) for (const t of defs) all.push({ ...t, server: t.server ?? servers[rpcLog] ?? null });
  }
  if (logs.length) out.tools = toolDefsByName(all);
  return out;
}

/** `--tools FILE`, shared with report. */
export const TOOLS_OPTION: Options = {
  type: "string",
  describe: 'a tools/list response (JSON) for each tool\'s _meta["anthropic/maxResultSizeChars"]',
};

/** `--verbose`, shared with report. */
export const VERBOSE_OPTION: Options = {
  type: "boolean",
  describe: "name every saved output not found on stderr (by default one line: the count, the folder, the first few)",
};

export const outputsCommand: CommandSpec = {
  command: "outputs [targets..]",
  describe:
    "every tool result: size, which check fired (size/token/budget/…), what the model saw, the saved file, the cost; --staircase across runs",
  common: [...OUTPUT, ...LOOKUP, "debug-file", "rpc-log"],
  examples: [
    [
      "ccforensics outputs 5e1c0a52-0003-4000-8000-000000052000 --claude-dir samples/outputs/staircase/claude",
      "each tool result of a session: check, saved file, Δ tokens, count_tokens, follow-up reads",
    ],
    [
      "ccforensics outputs samples/claude-home/projects/-tmp-lab-demo/c0ffee00-1111-4222-8333-444444444444.jsonl --debug-file samples/claude-home/debug/c0ffee00-1111-4222-8333-444444444444.txt --tools samples/demo/big-tools-list.json",
      "with a debug log given, and the tools' maxResultSizeChars from a tools/list response",
    ],
    [
      "ccforensics outputs --staircase samples/outputs/staircase/claude/projects/*/*.jsonl --format markdown",
      "the size staircase of many runs, as a markdown table",
    ],
    [
      "ccforensics outputs --staircase samples/outputs/staircase-runs --format markdown",
      "a runs dir (ccforensics run --out): each run from its own folder, with its label and environment",
    ],
    [
      "ccforensics outputs --staircase samples/outputs/staircase/claude/projects/*/*.jsonl --chart staircase.svg",
      "the same, drawn: size against Δ tokens by check",
    ],
  ],
  positionals: {
    targets: { describe: "session ids or prefixes, transcript paths, - for stdin; with --staircase also runs dirs", array: true },
  },
  options: {
    staircase: { type: "boolean", describe: "one table of every run's results sorted by size (the write-up's staircase)" },
    tools: TOOLS_OPTION,
    verbose: VERBOSE_OPTION,
    only: { type: "string", describe: "with --staircase: only this tool (full name, or the part after mcp__<server>__)" },
    chart: {
      type: "string",
      describe: "with --staircase: also write an SVG of result size against request growth, coloured by the check that fired",
    },
  },
  run: (argv) => runOutputs(argv.targets ?? [], argv as OutputsOptions),
};
