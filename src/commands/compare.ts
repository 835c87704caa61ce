import { COMPARE_COLUMNS } from "../report/compare-columns.js";
import { applyBaselines, compareFit, DEFAULT_COLUMNS, groupRows, totalCost, type CompareRow } from "../analyses/compare.js";
import type { Gathered, RpcEvidence } from "../assemble/evidence.js";
import { readRpcEvidence } from "../pipeline/evidence.js";
import { evidenceInput } from "../sources/evidence.js";
import { compareFitTable, compareResidualsTable } from "../report/compare-fit-tables.js";
import { documentHealth, type Health } from "../records/health.js";
import { compileProbe } from "../analyses/probe.js";
import { UsageError } from "../errors.js";
import { compareChart } from "../render/chart.js";
import { inputConfigDir } from "../output/write-guard.js";
import type { CommandOutput, OutputFile } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { compareGroupsTable, compareRunsTable, compareSpreadsTable } from "../report/compare-tables.js";
import type { InputFile } from "../sources/input.js";
import { readRuns, type RunSpec } from "../pipeline/manifest.js";
import { runGatherOptions } from "../pipeline/runs-targets.js";
import type { CommonOptions } from "./common.js";
import { envelopeInputs } from "../assemble/inputs.js";
import type { CommandSpec } from "./registry.js";
import { compareRow, envText } from "../assemble/compare-row.js";
import { assembleSession } from "../assemble/session.js";
import { gatherSession } from "../pipeline/gather-session.js";
import { COMMON_OPTIONS, CONFIG_DIR, OUTPUT } from "./options.js";
import { SEARCH_HINT } from "../sources/discover.js";

export interface CompareOptions extends CommonOptions {
  columns?: string;
  chart?: string;
}

export const compareCommand: CommandSpec = {
  command: "compare <manifest-or-runs-dir>",
  describe: "one row per run for the cross-run tables of a write-up; repeats of a label grouped with their spread",
  common: [...OUTPUT, "strict", ...CONFIG_DIR, "baseline"],
  examples: [
    ["ccforensics compare samples/runs --format markdown", "the seed's instructions table from a runs dir (ccforensics run writes one)"],
    [
      "ccforensics compare samples/runs/manifest.json --baseline none --columns label,run,firstRequestTokens,deltaVsBaseline,instructionChars,probeLast",
      "chosen columns against the runs labelled none",
    ],
    ["ccforensics compare samples/runs --chart first-request.svg", "also draw each run's first-request delta against the baseline"],
  ],
  positionals: { "manifest-or-runs-dir": { describe: "a manifest (JSON array of runs) or a runs dir (one folder per run with run.json)" } },
  options: {
    columns: {
      type: "string",
      describe: `comma list of columns (default ${DEFAULT_COLUMNS.join(",")}); any of: ${Object.keys(COMPARE_COLUMNS).join(", ")}`,
    },
    chart: { type: "string", describe: "also write an SVG chart of each run's first-request delta against the baseline" },
    // Here a label, not a target (session or transcript) as for the other commands.
    baseline: {
      ...COMMON_OPTIONS.baseline,
      describe: 'LABEL whose runs\' mean first request the deltas are against (default: runs marked "baseline": true, else the label none)',
    },
  },
  run: (argv) => runCompare(String(argv["manifest-or-runs-dir"] ?? ""), argv as CompareOptions),
};

export async function runCompare(manifest: string, opts: CompareOptions): Promise<CommandOutput> {
  const columns = pickColumns(opts.columns);
  const specs = await readRuns(manifest);
  const probe = compileProbe();
  const healths: Health[] = [];
  const inputs: InputFile[][] = [];
  const warnings: string[] = [];
  const rows: CompareRow[] = [];
  const alongside: Health[] = [];
  for (const spec of specs) {
    if (spec.failed) {
      warnings.push(`${spec.name} (${spec.from}): ${spec.failed}`);
      rows.push({ ...emptyRow(spec), error: spec.failed });
      continue;
    }
    try {
      const ev = await gatherSession(spec.session, runGatherOptions(opts, spec));
      const more = await readOtherLogs(spec);
      // Every server's tools/list counts for the tool annotations, not only the first log's; each tool keeps
      // the server run.json names its log by, so tools of the same name on two servers are told apart.
      if (ev.rpc && more.length) {
        const own = (g: Gathered<RpcEvidence>) =>
          g.result.tools.map((t) => ({ ...t, server: t.server ?? spec.rpcLogServers?.[g.input.path] ?? null }));
        ev.rpc = { ...ev.rpc, result: { ...ev.rpc.result, tools: [ev.rpc, ...more].flatMap(own) } };
      }
      const s = assembleSession({ ...ev, otherRpc: more, rpcServers: spec.rpcLogServers }, { probe, wrapperTokens: null });
      healths.push(s.health);
      alongside.push(...more.map((m) => m.health));
      inputs.push(
        s.inputs,
        more.map((m) => m.input),
      );
      warnings.push(...s.warnings.map((w) => `${spec.name}: ${w}`));
      const logs = [...(s.rpc ? [s.rpc.result] : []), ...more.map((m) => m.result.rpc)];
      const row = compareRow(spec, s, logs);
      if (spec.runFailed) {
        // Its figures are shown (they are what the transcript holds), but a cut-short run is no measurement.
        warnings.push(`${spec.name} (${spec.from}): ${spec.runFailed}; left out of the groups, the baseline and the fit`);
        row.error = spec.runFailed;
      }
      rows.push(row);
    } catch (e) {
      // One broken run must not hide the others: it gets a row with its error.
      // Whole, on one line: "searched:" and the dirs after it are what a reader needs to mend the manifest.
      const [head = "", ...rest] = (e as Error).message
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean);
      // A runs dir's run is looked up in its own folder only: --claude-dir and CLAUDE_CONFIG_DIR would not help.
      const hint = spec.confined ? head.replace(SEARCH_HINT, RUN_FOLDER_HINT) : head;
      const tail = spec.confined ? rest.map((l) => l.replace(SEARCH_HINT, RUN_FOLDER_HINT)) : rest;
      const read = tail.length ? `${hint} ${tail.join(", ")}` : hint;
      const msg = spec.runFailed ? `${spec.runFailed}; ${read}` : read;
      warnings.push(`${spec.name} (${spec.from}): ${msg}`);
      rows.push({ ...emptyRow(spec), error: msg });
    }
  }
  // Each run's health is already its document's; merging them whole keeps their shares.
  const health = documentHealth([
    ...healths.map((h) => ({ health: h, share: "whole" as const })),
    ...alongside.map((h) => ({ health: h, share: "bad-lines" as const })),
  ]);
  // Only the runs that were read and finished are measurements: the baseline, the groups and the fit are theirs.
  const good = rows.map((r, i) => [r, i] as const).filter(([r]) => r.error === null);
  const baseline = applyBaselines(
    good.map(([r]) => r),
    { cli: opts.baseline, perRun: good.map(([, i]) => specs[i]!.baseline), envs: good.map(([, i]) => specs[i]!.env) },
  );
  if (opts.baseline && !rows.some((r) => r.label === opts.baseline))
    throw new UsageError(
      `--baseline ${opts.baseline}: no run has that label (labels: ${[...new Set(rows.map((r) => r.label))].join(", ")})`,
    );
  // The baseline's label is there, but no run of it finished: every Δ is unknown, and it must say why.
  const has = (label: string) => rows.some((r) => r.label === label);
  const meant =
    opts.baseline ??
    rows.find((_, i) => specs[i]!.baseline === true)?.label ??
    (has("none") ? "none" : has("baseline") ? "baseline" : null);
  if (meant !== null && has(meant) && !good.some(([r]) => r.label === meant))
    warnings.push(`baseline ${meant}: none of its runs finished, so no run has a Δ vs baseline (their errors say why)`);
  const groups = groupRows(good.map(([r]) => r));
  const fit = compareFit(rows);
  const leftOut = rows.filter((r) => r.error !== null);
  const groupsTable = compareGroupsTable(groups, baseline);
  if (leftOut.length)
    groupsTable.notes = [
      ...(groupsTable.notes ?? []),
      `left out of the groups, the baseline and the fit (their error says why): ${leftOut.map((r) => r.run).join(", ")}`,
    ];
  const cost = totalCost(rows);
  const files: OutputFile[] = [];
  const chart = compareChart(rows, manifest);
  if (opts.chart) {
    // The output step guards the path (output/write-guard.ts); each run's config dir, named or holding its session, is added.
    const dirs = specs.flatMap((s) => [...(s.claudeDir ? [s.claudeDir] : []), ...(inputConfigDir(s.session, opts.cwd) ?? [])]);
    files.push({
      kind: "chart",
      path: opts.chart,
      spec: chart.spec,
      protect: dirs,
    });
  }
  const failed = rows.filter((r) => r.error !== null).length;
  return {
    command: "compare",
    inputs: envelopeInputs(...inputs),
    health,
    ...(failed ? { failure: `${failed} of ${rows.length} run(s) could not be read or did not finish (see the warnings)` } : {}),
    data: { baseline, runs: rows, groups, totalCostUsd: cost, fit },
    files,
    document: {
      title: `Comparison — ${manifest}`,
      summary: [
        ["runs", rows.length, "int"],
        ["configurations", groups.length, "int"],
        ["baseline", baseline ?? "none (--baseline LABEL)"],
        ["cost (all runs)", cost, "usd"],
      ],
      tables: [
        compareRunsTable(rows, columns),
        groupsTable,
        ...(groups.some((g) => g.runs > 1) ? [compareSpreadsTable(groups)] : []),
        // Two numbers need two sizes of one script at least; below that there is nothing to show.
        ...(fit.scripts.some((f) => f.wrapperFrom !== null) ? [compareFitTable(fit), compareResidualsTable(fit)] : []),
        healthTable(health),
      ],
      charts: [chart],
      warnings: [...warnings, ...healthWarnings(health)],
    },
  };
}

function pickColumns(arg: string | undefined): Array<keyof CompareRow> {
  if (!arg) return DEFAULT_COLUMNS;
  const keys = arg
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = keys.filter((k) => !(k in COMPARE_COLUMNS));
  if (bad.length) throw new UsageError(`--columns: unknown ${bad.join(", ")}; choose from ${Object.keys(COMPARE_COLUMNS).join(", ")}`);
  return keys as Array<keyof CompareRow>;
}

function emptyRow(spec: RunSpec): CompareRow {
  const row = Object.fromEntries(Object.keys(COMPARE_COLUMNS).map((k) => [k, null])) as unknown as CompareRow;
  // The session the manifest named, when it named one, even if it was never found.
  const session = spec.session !== "" ? spec.session : null;
  return {
    ...row,
    label: spec.label,
    run: spec.name,
    env: envText(spec.env),
    session,
    requests: 0,
    toolResults: 0,
    malformed: 0,
    damaged: 0,
    error: null,
  };
}

/** The message logs of a run's other servers (the first is read with the session). */
async function readOtherLogs(spec: RunSpec): Promise<Array<Gathered<RpcEvidence>>> {
  const out: Array<Gathered<RpcEvidence>> = [];
  for (const path of spec.rpcLogs.filter((p) => p !== spec.rpcLog))
    out.push(await readRpcEvidence(evidenceInput(path, "rpc-log"), {}, { sentTexts: true }));
  return out;
}

/** Where a runs dir's session must be, in place of the lookup's --claude-dir hint. */
const RUN_FOLDER_HINT = "(a runs dir's session is looked up only in its run folder's own config dir: claude/, or the run.json claudeDir)";
