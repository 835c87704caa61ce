import { unrecognisedText, type RpcResult } from "../analyses/rpc.js";
import { documentHealth } from "../records/health.js";
import { readRpcEvidence } from "../pipeline/evidence.js";
import type { CommandOutput } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import type { ColumnKind } from "../report/model.js";
import { evidenceInput } from "../sources/evidence.js";
import { mixedText, rpcTables } from "../report/rpc-tables.js";
import type { CommonOptions } from "./common.js";
import type { CommandSpec } from "./registry.js";
import { OUTPUT } from "./options.js";

export const rpcCommand: CommandSpec = {
  command: "rpc <file>",
  describe: "timeline and handshake classification from an MCP JSON-RPC message log",
  common: [...OUTPUT, "strict"],
  examples: [
    [
      "ccforensics rpc samples/logs/rpc/legacy-fallback.lab.jsonl",
      "which handshake Claude Code used with a lab server: probe, fallback, era",
    ],
    ["ccforensics rpc samples/logs/rpc/dual-era-trap.mixed.log --format markdown", "mixed log formats; the dual-era trap flagged"],
  ],
  positionals: {
    file: {
      describe: "message log: raw JSON-RPC, wrapper objects, lab summaries, Claude Desktop mcp.log, mcp-logs-<server>/*.jsonl; - for stdin",
    },
  },
  run: (argv) => runRpc(String(argv.file), argv),
};

export async function runRpc(file: string, opts: CommonOptions): Promise<CommandOutput> {
  const input = evidenceInput(file, "rpc-log");
  const ev = await readRpcEvidence(input, { stdin: opts.stdin });
  const result = ev.result.rpc;
  const health = documentHealth([{ health: ev.health, share: "whole" }]);
  return {
    command: "rpc",
    inputs: [input],
    health,
    data: { rpc: result },
    document: {
      title: `MCP message log — ${input.path}`,
      summary: rpcSummary(result),
      tables: [...rpcTables(result), healthTable(health)],
      // A file with no message at all is most likely the wrong file: said on stderr too, not only in the findings.
      warnings: [...(result.unrecognised ? [`${input.path}: ${unrecognisedText(result.unrecognised)}`] : []), ...healthWarnings(health)],
    },
  };
}

function rpcSummary(r: RpcResult): Array<[string, unknown, ColumnKind?]> {
  const p = r.probe;
  const out: Array<[string, unknown, ColumnKind?]> = [
    ["messages", r.messages, "int"],
    [
      "formats",
      Object.entries(r.sources)
        .sort((a, b) => a[0].localeCompare(b[0]))
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
    ],
    ["noise lines", r.noise, "int"],
    ["responses logged", r.responsesLogged],
    ["first method", r.firstMethod],
    ["era", r.era],
    [
      "probe",
      p
        ? `server/discover id ${String(p.id)}, _meta ${p.protocolVersion ?? "—"}, client ${p.clientName ?? "?"} ${p.clientVersion ?? ""}`.trim()
        : null,
    ],
    [
      "probe answered",
      p
        ? `${p.answered}${p.errorCode !== null ? ` ${p.errorCode}` : ""}${r.probeOutcome !== p.answered ? ` (${r.probeOutcome})` : ""}`
        : null,
    ],
    [
      "initialize",
      r.initialize
        ? `protocolVersion ${r.initialize.protocolVersion ?? "?"}${r.initialize.msAfterProbe !== null ? `, ${r.initialize.msAfterProbe} ms after the probe` : ""}`
        : null,
    ],
    ["handshakes in log", r.handshakes.length, "int"],
    ["handshake described", r.handshake, "int"],
    ...(r.servers.length > 0
      ? ([
          ["servers", r.servers.map((x) => x.name).join(", ")],
          ["summary describes", r.server !== null ? `${r.server} (handshake ${r.handshake ?? "?"})` : null],
        ] as Array<[string, unknown]>)
      : []),
    [
      "probe connections",
      r.probeConnectionCount > 0
        ? `${r.probeConnectionCount} (${r.probeConnections.map((c) => `#${c.handshake}: ${c.methods.join(", ")}`).join("; ")})`
        : 0,
    ],
    ["mixed handshakes", r.mixedHandshakes ? mixedText(r.mixedHandshakes) : "no"],
  ];
  if (r.clientLog)
    out.push([
      "Claude Code log",
      `${r.clientLog.entries} entries, era ${r.clientLog.protocolEra ?? "?"}, negotiated ${r.clientLog.negotiatedProtocolVersion ?? "?"}`,
    ]);
  return out;
}
