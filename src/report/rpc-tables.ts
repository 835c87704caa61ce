import type { RpcResult } from "../analyses/rpc.js";
import { MAX_TIMELINE_ROWS } from "./debug-tables.js";
import { findingsTable } from "./findings.js";
import { col, type Table } from "./model.js";

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
