import { rpcAnalysis, type RpcResult } from "../analyses/rpc.js";
import { countRecord, emptyHealth, type Health } from "../analyses/health.js";
import type { LineStats } from "../records/debug.js";
import { readRpcLog, type RpcRecord } from "../records/rpc.js";
import type { CommandOutput } from "../report/envelope.js";
import { findingsTable } from "../report/findings.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { col, type ColumnKind, type Table } from "../report/model.js";
import { evidenceInput } from "../sources/evidence.js";
import type { InputFile } from "../sources/input.js";
import type { CommonOptions } from "./common.js";
import { MAX_TIMELINE_ROWS } from "./debug.js";
import type { CommandSpec } from "./registry.js";
import { OUTPUT } from "./options.js";

export const rpcCommand: CommandSpec = {
  command: "rpc <file>",
  describe: "timeline and handshake classification from an MCP JSON-RPC message log",
  common: [...OUTPUT, "strict"],
  examples: [
    ["ccforensics rpc samples/logs/rpc/legacy-fallback.lab.jsonl", "which handshake Claude Code used with a lab server: probe, fallback, era"],
    ["ccforensics rpc samples/logs/rpc/dual-era-trap.mixed.log --format markdown", "mixed log formats; the dual-era trap flagged"],
  ],
  positionals: { file: { describe: "message log: raw JSON-RPC, wrapper objects, lab summaries, Claude Desktop mcp.log, mcp-logs-<server>/*.jsonl; - for stdin" } },
  run: (argv) => runRpc(String(argv.file), argv),
};

export async function runRpc(file: string, opts: CommonOptions): Promise<CommandOutput> {
  const input = evidenceInput(file, "rpc-log");
  const { result, health } = await analyseRpcLog(input, opts);
  return {
    command: "rpc",
    inputs: [input],
    health,
    data: { rpc: result },
    report: {
      title: `MCP message log — ${input.path}`,
      summary: rpcSummary(result),
      tables: [...rpcTables(result), healthTable(health)],
      warnings: healthWarnings(health),
    },
  };
}

/** The one pass over a message log; noise lines are records (counted in `rpc.noise`), bad JSON is malformed. */
export async function analyseRpcLog(
  input: InputFile,
  opts: CommonOptions,
  also?: (rec: Exclude<RpcRecord, { kind: "malformed" }>) => void,
): Promise<{ result: RpcResult; health: Health }> {
  const health = emptyHealth();
  const stats: LineStats = { lines: 0, blankLines: 0 };
  const state = rpcAnalysis.init();
  for await (const rec of readRpcLog(input, { stdin: opts.stdin, stats })) {
    if (rec.kind === "malformed") countRecord(health, { ...rec, chain: "rpc" });
    else {
      health.records += 1;
      rpcAnalysis.step(state, rec);
      also?.(rec);
    }
  }
  health.lines = stats.lines;
  health.blankLines = stats.blankLines;
  return { result: rpcAnalysis.finish(state), health };
}

function rpcSummary(r: RpcResult): Array<[string, unknown, ColumnKind?]> {
  const p = r.probe;
  const out: Array<[string, unknown, ColumnKind?]> = [
    ["messages", r.messages, "int"],
    ["formats", Object.entries(r.sources).sort((a, b) => a[0].localeCompare(b[0])).map(([k, v]) => `${k} ${v}`).join(", ")],
    ["noise lines", r.noise, "int"],
    ["responses logged", r.responsesLogged],
    ["first method", r.firstMethod],
    ["era", r.era],
    ["probe", p ? `server/discover id ${String(p.id)}, _meta ${p.protocolVersion ?? "—"}, client ${p.clientName ?? "?"} ${p.clientVersion ?? ""}`.trim() : null],
    ["probe answered", p ? `${p.answered}${p.errorCode !== null ? ` ${p.errorCode}` : ""}${r.probeOutcome !== p.answered ? ` (${r.probeOutcome})` : ""}` : null],
    ["initialize", r.initialize ? `protocolVersion ${r.initialize.protocolVersion ?? "?"}${r.initialize.msAfterProbe !== null ? `, ${r.initialize.msAfterProbe} ms after the probe` : ""}` : null],
    ["handshakes in log", r.handshakes.length, "int"],
  ];
  if (r.clientLog) out.push(["Claude Code log", `${r.clientLog.entries} entries, era ${r.clientLog.protocolEra ?? "?"}, negotiated ${r.clientLog.negotiatedProtocolVersion ?? "?"}`]);
  return out;
}

const ARROW: Record<string, string> = { c2s: "→ server", s2c: "← server" };

/** Handshakes, instructions carriers, findings and the message timeline; reused by `report`. */
export function rpcTables(r: RpcResult): Table[] {
  const tables: Table[] = [
    {
      id: "rpc:handshakes",
      title: "Handshakes",
      columns: [
        col("index", "#", "int"),
        col("firstMethod", "first method"),
        col("probeId", "probe id"),
        col("probeVersion", "probe _meta version"),
        col("client", "client"),
        col("answered", "answered"),
        col("outcome", "outcome"),
        col("initVersion", "initialize version"),
        col("msAfterProbe", "init after probe", "ms"),
        col("era", "era"),
        col("modernRequests", "modern requests", "int"),
        col("discoverInstructions", "discover instr.", "int"),
        col("initInstructions", "initialize instr.", "int"),
      ],
      rows: r.handshakes.map((h) => ({
        index: h.index,
        firstMethod: h.firstMethod,
        probeId: h.probe?.id ?? null,
        probeVersion: h.probe?.protocolVersion ?? null,
        client: h.probe?.clientName ? `${h.probe.clientName} ${h.probe.clientVersion ?? ""}`.trim() : h.initialize?.clientName ? `${h.initialize.clientName} ${h.initialize.clientVersion ?? ""}`.trim() : null,
        answered: h.probe ? `${h.probe.answered}${h.probe.errorCode !== null ? ` ${h.probe.errorCode}` : ""}` : null,
        outcome: h.probe?.outcome ?? null,
        initVersion: h.initialize?.protocolVersion ?? null,
        msAfterProbe: h.initialize?.msAfterProbe ?? null,
        era: h.era,
        modernRequests: h.modernRequests,
        discoverInstructions: h.probe?.instructionsChars ?? null,
        initInstructions: h.initialize?.instructionsChars ?? null,
      })),
    },
  ];
  if (r.instructions.length) {
    tables.push({
      id: "rpc:instructions",
      title: "Responses carrying instructions",
      columns: [col("handshake", "handshake", "int"), col("method", "answers"), col("id", "id"), col("line", "line", "int"), col("chars", "chars", "int")],
      rows: r.instructions.map((c) => ({ ...c })),
    });
  }
  if (r.warnings.length) tables.push(findingsTable(r.warnings));
  const shown = r.timeline.slice(0, MAX_TIMELINE_ROWS);
  tables.push({
    id: "rpc:timeline",
    title: "Messages",
    columns: [col("line", "line", "int"), col("offsetMs", "+ms", "int"), col("dir", "dir"), col("shape", "kind"), col("method", "method"), col("id", "id"), col("note", "note")],
    rows: shown.map((t) => ({ ...t, dir: t.dir ? ARROW[t.dir] : null, id: t.id === null ? null : String(t.id) })),
    notes: shown.length < r.timeline.length ? [`first ${shown.length} of ${r.timeline.length} messages shown (--json has all)`] : [],
  });
  return tables;
}
