import { applyBaselines, COMPARE_COLUMNS, DEFAULT_COLUMNS, groupRows, type CompareGroup, type CompareRow } from "../analyses/compare.js";
import { emptyHealth, mergeHealth } from "../analyses/health.js";
import { compileProbe } from "../analyses/probe.js";
import { UsageError } from "../errors.js";
import { compareChartSpec, protectedDirs, writeChart } from "../render/chart.js";
import type { CommandOutput } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { col, type Table } from "../report/model.js";
import { configDirs } from "../sources/discover.js";
import type { InputFile } from "../sources/input.js";
import { readRuns, type RunSpec } from "../sources/manifest.js";
import type { CommonOptions } from "./common.js";
import { envelopeInputs } from "./inputs.js";
import type { CommandSpec } from "./registry.js";
import { analyseSession, type SessionAnalysis } from "./report-load.js";

export interface CompareOptions extends CommonOptions {
  columns?: string;
  chart?: string;
}

export const compareCommand: CommandSpec = {
  command: "compare <manifest-or-runs-dir>",
  describe: "one row per run for the cross-run tables of a write-up; repeats of a label grouped with their spread",
  examples: [
    ["ccforensics compare samples/runs --format markdown", "the seed's instructions table from a runs dir (ccforensics run writes one)"],
    ["ccforensics compare samples/runs/manifest.json --baseline none --columns label,run,firstRequestTokens,deltaVsBaseline,instructionChars,probeLast", "chosen columns against the runs labelled none"],
    ["ccforensics compare samples/runs --chart first-request.svg", "also draw first-request tokens per run"],
  ],
  positionals: { "manifest-or-runs-dir": { describe: "a manifest (JSON array of runs) or a runs dir (one folder per run with run.json)" } },
  options: {
    columns: { type: "string", describe: `comma list of columns (default ${DEFAULT_COLUMNS.join(",")}); any of: ${Object.keys(COMPARE_COLUMNS).join(", ")}` },
    chart: { type: "string", describe: "also write an SVG chart of first-request tokens per run" },
  },
  run: (argv) => runCompare(String(argv["manifest-or-runs-dir"] ?? ""), argv as CompareOptions),
};

export async function runCompare(manifest: string, opts: CompareOptions): Promise<CommandOutput> {
  const columns = pickColumns(opts.columns);
  const specs = await readRuns(manifest);
  const probe = compileProbe();
  const health = emptyHealth();
  const inputs: InputFile[][] = [];
  const warnings: string[] = [];
  const rows: CompareRow[] = [];
  for (const spec of specs) {
    try {
      const s = await analyseSession(spec.session, runOptions(spec, opts), { probe, wrapperTokens: null });
      mergeHealth(health, s.health);
      inputs.push(s.inputs);
      warnings.push(...s.warnings.map((w) => `${spec.name}: ${w}`));
      rows.push(rowOf(spec, s));
    } catch (e) {
      // One broken run must not hide the others: it gets a row with its error.
      const msg = (e as Error).message.split("\n")[0]!;
      warnings.push(`${spec.name} (${spec.from}): ${msg}`);
      rows.push({ ...emptyRow(spec), error: msg });
    }
  }
  const baseline = applyBaselines(rows, { cli: opts.baseline, perRun: specs.map((s) => s.baseline) });
  if (opts.baseline && !rows.some((r) => r.label === opts.baseline)) throw new UsageError(`--baseline ${opts.baseline}: no run has that label (labels: ${[...new Set(rows.map((r) => r.label))].join(", ")})`);
  const groups = groupRows(rows);
  if (opts.chart) {
    const dirs = protectedDirs(configDirs({ claudeDir: opts.claudeDir, env: opts.env, cwd: opts.cwd }), specs.flatMap((s) => [s.session, ...(s.claudeDir ? [`${s.claudeDir}/projects/x`] : [])]));
    await writeChart(opts.chart, compareChartSpec(rows, `First-request tokens per run — ${manifest}`), dirs, opts.cwd);
  }
  const failed = rows.filter((r) => r.error !== null).length;
  return {
    command: "compare",
    inputs: envelopeInputs(...inputs),
    health,
    ...(failed ? { failure: `${failed} of ${rows.length} run(s) could not be read (see the warnings)` } : {}),
    data: { baseline, runs: rows, groups },
    report: {
      title: `Comparison — ${manifest}`,
      summary: [["runs", rows.length, "int"], ["configurations", groups.length, "int"], ["baseline", baseline ?? "none (--baseline LABEL)"]],
      tables: [runsTable(rows, columns), groupsTable(groups, baseline), healthTable(health)],
      warnings: [...warnings, ...healthWarnings(health)],
    },
  };
}

function pickColumns(arg: string | undefined): Array<keyof CompareRow> {
  if (!arg) return DEFAULT_COLUMNS;
  const keys = arg.split(",").map((s) => s.trim()).filter(Boolean);
  const bad = keys.filter((k) => !(k in COMPARE_COLUMNS));
  if (bad.length) throw new UsageError(`--columns: unknown ${bad.join(", ")}; choose from ${Object.keys(COMPARE_COLUMNS).join(", ")}`);
  return keys as Array<keyof CompareRow>;
}

/** A run's own files replace the command line's: each run is read as if given alone. */
function runOptions(spec: RunSpec, opts: CompareOptions): CommonOptions {
  return {
    ...opts,
    claudeDir: spec.claudeDir ? [spec.claudeDir] : opts.claudeDir,
    debugFile: spec.debugFile,
    rpcLog: spec.rpcLog,
    streamJson: spec.streamJson,
    baseline: undefined,
  };
}

function emptyRow(spec: RunSpec): CompareRow {
  const row = Object.fromEntries(Object.keys(COMPARE_COLUMNS).map((k) => [k, null])) as unknown as CompareRow;
  return { ...row, label: spec.label, run: spec.name, requests: 0, toolResults: 0, malformed: 0, error: null };
}

function rowOf(spec: RunSpec, s: SessionAnalysis): CompareRow {
  const main = s.requests.totals.find((t) => t.chain === "main") ?? s.requests.totals[0];
  const instr = s.instructions.rows.filter((r) => !r.removed);
  const sum = (f: (r: (typeof instr)[number]) => number | null) => (instr.length ? instr.reduce((n, r) => n + (f(r) ?? 0), 0) : null);
  const withProbe = instr.find((r) => r.probe !== null);
  const checks = new Map<string, number>();
  for (const r of s.outputs.rows) checks.set(r.check, (checks.get(r.check) ?? 0) + 1);
  const servers = s.debug?.result.servers ?? [];
  const res = s.run?.run.result ?? null;
  const inv = s.inventory;
  const top = (c: Record<string, number>) => Object.entries(c).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return {
    label: spec.label,
    run: spec.name,
    session: s.sessionId,
    version: top(inv.versions),
    model: top(Object.fromEntries(Object.entries(inv.models).filter(([m]) => m !== "<synthetic>"))),
    requests: s.requests.totals.reduce((n, t) => n + t.requests, 0),
    firstRequestTokens: main?.firstTotalInputTokens ?? null,
    lastRequestTokens: main?.lastTotalInputTokens ?? null,
    deltaVsBaseline: null,
    baselineLabel: null,
    instructionServers: instr.length ? [...new Set(instr.map((r) => r.server))].join(", ") : null,
    instructionChars: sum((r) => r.chars),
    keptChars: instr.some((r) => r.truncated) ? sum((r) => r.keptChars ?? r.chars) : null,
    sourceChars: instr.some((r) => r.sourceChars !== null) ? sum((r) => r.sourceChars ?? r.chars) : null,
    truncated: instr.length ? instr.some((r) => r.truncated) : null,
    codePoints: sum((r) => r.codePoints),
    utf8Bytes: sum((r) => r.utf8Bytes),
    renderedChars: instr[0]?.renderedChars ?? null,
    tokensPerChar: null,
    probeBegin: withProbe?.probe?.begin ?? null,
    probeEnd: withProbe?.probe?.end ?? null,
    probeLast: withProbe?.probe?.lastMarker ?? null,
    answer: s.instructions.answer?.text?.trim() ?? res?.result?.trim() ?? null,
    answerMatches: s.instructions.answer?.matches ?? null,
    firstMethod: s.rpc?.result.firstMethod ?? null,
    era: s.rpc?.result.era ?? null,
    initializeMsAfterProbe: s.rpc?.result.initialize?.msAfterProbe ?? null,
    debugEra: servers.map((x) => x.protocolEra).find((x) => x !== null) ?? null,
    negotiatedProtocolVersion: servers.map((x) => x.negotiatedProtocolVersion).find((x) => x !== null) ?? null,
    connectMs: servers.length ? Math.max(...servers.map((x) => x.connectMs ?? 0)) : null,
    runtimeArm: s.debug?.result.runtimeArm ?? null,
    toolResults: s.outputs.rows.length,
    checks: checks.size ? [...checks].map(([c, n]) => `${c}×${n}`).join(" ") : null,
    largestResultChars: s.outputs.rows.length ? Math.max(...s.outputs.rows.map((r) => r.fullChars ?? r.chars)) : null,
    countTokensCalls: s.debug?.result.countTokensCalls ?? null,
    costUsd: res?.totalCostUsd ?? null,
    turns: res?.numTurns ?? null,
    durationMs: res?.durationMs ?? null,
    malformed: s.health.malformedCount,
    error: null,
  };
}

function runsTable(rows: CompareRow[], columns: Array<keyof CompareRow>): Table {
  const notes = ["Δ vs baseline = this run's first request − the mean first request of the baseline label's runs"];
  if (rows.some((r) => r.error)) notes.push("runs with an error could not be read; see the error column (--columns …,error) and stderr");
  return {
    id: "runs",
    title: "Runs",
    columns: columns.map((k) => col(k, COMPARE_COLUMNS[k][0], COMPARE_COLUMNS[k][1])),
    rows: rows.map((r) => ({ ...r })),
    notes,
  };
}

function groupsTable(groups: CompareGroup[], baseline: string | null): Table {
  return {
    id: "groups",
    title: "Per configuration (repeats grouped)",
    columns: [
      col("label", "label"), col("runs", "runs", "int"), col("firstRequestMin", "request 1 min", "int"), col("firstRequestMax", "request 1 max", "int"),
      col("spread", "spread", "int"), col("deltaVsBaseline", `Δ vs ${baseline ?? "baseline"}`, "signed"), col("instructionChars", "instr. chars", "int"),
      col("truncated", "truncated", "bool"), col("answersAgree", "answers agree", "bool"), col("answerMatches", "answers match", "bool"),
      col("era", "era"), col("costUsd", "cost (sum)", "usd"),
    ],
    rows: groups.map((g) => ({ ...g })),
    notes: [`largest spread between repeats of one label: ${Math.max(0, ...groups.map((g) => g.spread ?? 0))} tokens`],
  };
}
