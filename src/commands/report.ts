import { debugWithRun } from "../assemble/headless-section.js";
import { assembleSession, type AssembledSession } from "../assemble/session.js";
import { gatherSession } from "../pipeline/gather-session.js";
import type { CommandOutput } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { lazyProperty, withLazyTables, type Chart, type ColumnKind, type OutputDocument, type Table } from "../report/model.js";
import { requestsChartSpec, requestsChartTitle } from "../render/chart.js";
import { headlessTables } from "../report/headless-tables.js";
import { summaryTable } from "../report/summary-table.js";
import type { CommonOptions } from "./common.js";
import { debugTables } from "../report/debug-tables.js";
import { instructionsDocument } from "../report/instructions-tables.js";
import { annotationsTable, readsTable, resultsTable, savedTable } from "../report/outputs-tables.js";
import { instructionsOptions, PROBE_OPTIONS, type ProbeCliOptions } from "./probe-options.js";
import { progressReporter } from "./progress.js";
import { TOOLS_OPTION, VERBOSE_OPTION } from "./outputs.js";
import type { CommandSpec } from "./registry.js";
import { requestTables } from "../report/requests-tables.js";
import { compactionTrigger } from "../report/compaction-note.js";
import { orphanNote } from "./requests.js";
import { rpcTables } from "../report/rpc-tables.js";
import { toolsSummary, toolsTables } from "../report/tools-tables.js";
import { collectBeforeWriting } from "../sources/memory.js";
import { OUTPUT, LOOKUP } from "./options.js";

export type ReportOptions = CommonOptions & ProbeCliOptions & { tools?: string; verbose?: boolean };

export const reportCommand: CommandSpec = {
  command: "report [target]",
  describe: "one forensic report of a session: requests, instructions, tool outputs, debug log, MCP message log and claude -p run",
  common: [...OUTPUT, ...LOOKUP, "debug-file", "rpc-log", "stream-json", "baseline"],
  examples: [
    [
      "ccforensics report c0ffee00 --claude-dir samples/claude-home --rpc-log samples/demo/rpc-log.jsonl --stream-json samples/demo/claude-p.stream.jsonl --tools samples/demo/big-tools-list.json",
      "the bundled demo from a clone (ccforensics demo runs this anywhere)",
    ],
    [
      "ccforensics report --stream-json samples/demo/claude-p.stream.jsonl --claude-dir samples/claude-home --format markdown -o appendix.md",
      "the session named in a claude -p output, as a write-up appendix",
    ],
  ],
  positionals: { target: { describe: "session id or prefix (6+ chars), transcript path, or - for stdin; optional with --stream-json" } },
  options: { ...PROBE_OPTIONS, tools: TOOLS_OPTION, verbose: VERBOSE_OPTION },
  run: (argv) => runReport(argv.target, argv as ReportOptions),
};

export async function runReport(target: string | undefined, opts: ReportOptions): Promise<CommandOutput> {
  const io = instructionsOptions(opts);
  const s = assembleSession(await gatherSession(target, { ...opts, progress: progressReporter(opts.stderr, opts.stderrIsTTY) }), io);
  collectBeforeWriting();
  return {
    command: "report",
    inputs: s.inputs,
    health: s.health,
    data: reportData(s),
    document: withLazyTables(documentHead(s), () => reportTables(s)),
  };
}

/**
 * The document's title, chart and warnings. The chart is drawn by the HTML page only, and built when read:
 * it reads every request again (from the spool file past 5,000) and copies each point.
 */
function documentHead(s: AssembledSession): Omit<OutputDocument, "tables"> {
  const head = { title: `Session report — ${s.sessionId ?? s.resolved.target}` };
  const withChart = s.requests.requests.length ? lazyProperty(head, "charts", () => [requestsChart(s)]) : head;
  return Object.assign(withChart, { warnings: [...s.warnings, ...healthWarnings(s.health)] });
}

/** The JSON sections, under the names of the single commands (CONTRACT.md): null or empty, never missing. */
export function reportData(s: AssembledSession): Record<string, unknown> {
  const l = s.instructions;
  return {
    summary: sessionSummary(s),
    requests: s.requests.requests,
    totals: s.requests.totals,
    subagents: s.requests.subagents,
    instructions: l.rows,
    answer: l.answer,
    baseline: l.baseline,
    pendingServers: l.pending,
    toolResults: s.outputs.rows,
    tools: s.tools.rows,
    systemPrompt: s.tools.systemPrompt,
    debug: s.debug ? debugWithRun(s.debug.result.debug, s.run?.section ?? null) : null,
    rpc: s.rpc?.result ?? null,
    run: s.run?.section ?? null,
    inventory: s.inventory,
  };
}

export interface SessionSummary {
  sessionId: string | null;
  transcript: string | null;
  project: string | null;
  versions: string[];
  models: string[];
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  chains: string[];
  /** Every chain's requests (main and subagents); `requestsMainChain` is what `sessions` counts. */
  requests: number;
  requestsAllChains: number;
  requestsMainChain: number;
  /** "transcript", or "claude-p-output" when the transcript was missing or empty and the run's events were read. */
  requestsFrom: AssembledSession["requestsFrom"];
  transcriptMissing: boolean;
  /** An orphan subagent folder: the main file is gone, its subagents were read. */
  mainFileMissing: boolean;
  firstRequestTokens: number | null;
  lastRequestTokens: number | null;
  /** `compact_boundary` records of the main chain, each starting a new segment. */
  compactions: number;
  /** The chain those two are of: "main", else the first chain read (an orphan folder has no main chain). */
  firstLastChain: string | null;
  toolResultsDir: string | null;
  debugLog: string | null;
  rpcLog: string | null;
  streamJson: string | null;
  toolsList: string | null;
  costUsd: number | null;
  numTurns: number | null;
}

export function sessionSummary(s: AssembledSession): SessionSummary {
  const inv = s.inventory;
  const main = s.requests.totals.find((t) => t.chain === "main") ?? s.requests.totals[0];
  const all = s.requests.totals.reduce((n, t) => n + t.requests, 0);
  const byCount = (c: Record<string, number>) =>
    Object.entries(c)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([k]) => k);
  return {
    sessionId: s.sessionId,
    transcript: s.transcript,
    project: byCount(inv.cwds)[0] ?? null,
    versions: Object.keys(inv.versions).sort((a, b) => a.localeCompare(b, "en", { numeric: true })),
    models: byCount(inv.models).filter((m) => m !== "<synthetic>"),
    firstTimestamp: inv.firstTimestamp,
    lastTimestamp: inv.lastTimestamp,
    chains: s.requests.totals.map((t) => t.chain),
    requests: all,
    requestsAllChains: all,
    requestsMainChain: s.requests.totals.find((t) => t.chain === "main")?.requests ?? 0,
    requestsFrom: s.requestsFrom,
    transcriptMissing: s.transcriptMissing,
    mainFileMissing: s.resolved.mainMissing === true,
    firstRequestTokens: main?.firstTotalInputTokens ?? null,
    lastRequestTokens: main?.lastTotalInputTokens ?? null,
    compactions: main?.compactions ?? 0,
    firstLastChain: main?.chain ?? null,
    toolResultsDir: s.outputs.toolResultsDir,
    debugLog: s.debug?.input.path ?? null,
    rpcLog: s.rpc?.input.path ?? null,
    streamJson: s.run?.input.path ?? null,
    toolsList: s.toolsList?.path ?? null,
    costUsd: s.run?.run.result?.totalCostUsd ?? null,
    numTurns: s.run?.run.result?.numTurns ?? null,
  };
}

function summaryPairs(x: SessionSummary, s: AssembledSession): Array<[string, unknown, ColumnKind?]> {
  return [
    ["session", x.sessionId],
    [
      "transcript",
      x.transcriptMissing
        ? `not found on this machine (searched: ${s.resolved.searched.join(", ")})`
        : x.mainFileMissing
          ? orphanNote(x.sessionId, s.resolved.inputs.length, s.resolved.oldLayout)
          : (x.transcript ?? "(stdin)"),
    ],
    ["project (cwd)", x.project],
    ["Claude Code", x.versions.join(", ")],
    ["models", x.models.join(", ")],
    ["first record", x.firstTimestamp, "time"],
    ["last record", x.lastTimestamp, "time"],
    ["chains", `${x.chains.length} (${x.chains.join(", ")})`],
    ["requests (all chains)", x.requestsAllChains, "int"],
    ...(x.requestsFrom === "claude-p-output"
      ? [["requests read from", "the claude -p output's assistant events (no transcript requests)"] as [string, unknown]]
      : []),
    ...firstLast(x),
    ...(x.compactions > 0 ? [["compactions (main chain)", compactionsText(s)] as [string, unknown]] : []),
    ...toolResultsLines(s),
    ["MCP instruction deliveries", s.instructions.rows.length, "int"],
    ["tool-results folder", x.toolResultsDir],
    ["debug log", x.debugLog ?? "none given or found"],
    ["MCP message log", x.rpcLog ?? "none given (--rpc-log)"],
    ["claude -p output", x.streamJson ?? "none given (--stream-json)"],
    ...(x.toolsList ? [["tools/list", x.toolsList] as [string, unknown]] : []),
    ["cost (total_cost_usd)", x.costUsd, "usd"],
    ["files read", s.inputs.length, "int"],
  ];
}

/**
 * The tool results listed (the transcripts'). When the requests were read from the claude -p output's events, those
 * events' tool results are what the requests count as added (`+results`): both figures, each saying where it is from.
 */
function toolResultsLines(s: AssembledSession): Array<[string, unknown, ColumnKind?]> {
  const listed = s.outputs.rows.length;
  if (s.requestsFrom !== "claude-p-output" || !s.run) return [["tool results", listed, "int"]];
  return [
    ["tool results (transcript)", listed, "int"],
    ["tool results (claude -p output)", s.run.section.toolResults, "int"],
  ];
}

/** `2 (auto before request 7: 167,731 tokens; manual before request 12: 142,431 tokens) §`: each reset the requests table marks. */
function compactionsText(s: AssembledSession): string {
  const INT = new Intl.NumberFormat("en-US");
  const resets = [];
  for (const r of s.requests.requests) {
    if (r.chain !== "main" || !r.afterCompaction || r.compaction === null) continue;
    const c = r.compaction;
    const pre = c.preTokens === null ? "" : `: ${INT.format(c.preTokens)} tokens`;
    resets.push(`${compactionTrigger(c)} before request ${r.index}${pre}`);
  }
  const n = s.requests.totals.find((t) => t.chain === "main")?.compactions ?? 0;
  return `${n}${resets.length ? ` (${resets.join("; ")})` : ""} §`;
}

/** The first and last request's size, saying which chain they are of when it is not the main one. */
function firstLast(x: SessionSummary): Array<[string, unknown, ColumnKind?]> {
  if (x.firstLastChain === null || x.firstLastChain === "main") {
    return [
      ["first request (total input tokens)", x.firstRequestTokens, "int"],
      ["last request (main chain)", x.lastRequestTokens, "int"],
    ];
  }
  return [
    [`first request (chain ${x.firstLastChain}, total input tokens)`, x.firstRequestTokens, "int"],
    [`last request (chain ${x.firstLastChain})`, x.lastRequestTokens, "int"],
  ];
}

/** Token growth per request, at the head of the Requests section of the HTML page. */
function requestsChart(s: AssembledSession): Chart {
  const title = requestsChartTitle(s.sessionId ?? s.resolved.target);
  // Iterated, not toArray(): that would keep every spooled row for the rest of the run.
  const rows: Array<{ chain: string; index: number; totalInputTokens: number }> = [];
  for (const r of s.requests.requests)
    if (r.totalInputTokens !== null) rows.push({ chain: r.chain, index: r.index, totalInputTokens: r.totalInputTokens });
  return { title, section: "Requests", spec: requestsChartSpec(rows, title) };
}

function reportTables(s: AssembledSession): Table[] {
  const tag = (section: string, tables: Table[]) => tables.map((t) => ({ ...t, section }));
  const noHealth = (tables: Table[]) => tables.filter((t) => t.id !== "health");
  const ir = instructionsDocument(s.instructions);
  const out: Table[] = [
    ...tag("Summary", [summaryTable("summary", "Session", summaryPairs(sessionSummary(s), s))]),
    ...tag(
      "Requests",
      requestTables(s.requests).map((t) => (s.requestsFrom === "claude-p-output" ? { ...t, notes: [FROM_RUN, ...(t.notes ?? [])] } : t)),
    ),
    ...tag("MCP server instructions", [summaryTable("instructions-summary", "Findings", ir.summary ?? []), ...noHealth(ir.tables)]),
    ...tag("Tool definitions", [summaryTable("tools-summary", "Tools and system prompt", toolsSummary(s.tools)), ...toolsTables(s.tools)]),
    ...tag("Tool outputs", [
      resultsTable(s.outputs),
      ...[savedTable([s.outputs]), readsTable([s.outputs]), annotationsTable([s.outputs])].filter((t) => t.rows.length > 0),
    ]),
  ];
  out.push(
    ...tag(
      "Debug log",
      s.debug
        ? debugTables(debugWithRun(s.debug.result.debug, s.run?.section ?? null))
        : [none("debug", "Debug log", "no debug log given (--debug-file) or found at <config dir>/debug/<session>.txt")],
    ),
  );
  out.push(...tag("MCP message log", s.rpc ? rpcTables(s.rpc.result) : [none("rpc", "Handshake", "no MCP message log given (--rpc-log)")]));
  out.push(
    ...tag(
      "claude -p run",
      s.run
        ? headlessTables(s.run.section, s.debug?.result.debug.servers)
        : [none("run", "Run", "no claude -p output given (--stream-json)")],
    ),
  );
  out.push(...tag("Parse health", [healthTable(s.health)]));
  return out;
}

const FROM_RUN =
  "read from the claude -p output's assistant events (grouped by message id, max per field): the transcript was not found or held no requests";

function none(id: string, title: string, note: string): Table {
  return { id: `${id}:none`, title, columns: [], rows: [], notes: [note] };
}
