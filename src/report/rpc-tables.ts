import type { MixedHandshakes, RpcResult } from "../analyses/rpc.js";
import { MAX_TIMELINE_ROWS } from "./debug-tables.js";
import { findingsTable } from "./findings.js";
import { col, type Table } from "./model.js";

const ARROW: Record<string, string> = { c2s: "→ server", s2c: "← server" };

/** The values that differ in a mixed log, e.g. `protocolVersions 2025-06-18, 2024-11-05`. */
export function mixedText(m: MixedHandshakes): string {
  return Object.entries(m)
    .filter(([, v]) => (v as unknown[]).length > 1)
    .map(([k, v]) => `${k} ${(v as string[]).join(", ")}`)
    .join("; ");
}

/** Handshakes, instructions carriers, findings and the message timeline; reused by `report`. */
export function rpcTables(r: RpcResult): Table[] {
  // A Claude Desktop log of several servers: each connection is of one server, and says which.
  const named = r.servers.length > 1;
  const serverOf = new Map(r.handshakes.map((h) => [h.index, h.server]));
  const tables: Table[] = [
    {
      id: "rpc:handshakes",
      title: "Handshakes",
      columns: [
        col("index", "#", "int", { priority: 1 }),
        ...(named ? [col("server", "server", "text", { priority: 1 })] : []),
        col("connection", "connection", "text", { priority: 3 }),
        col("firstMethod", "first method", "text", { priority: 1 }),
        col("probeId", "probe id"),
        col("probeVersion", "probe _meta version"),
        col("client", "client"),
        col("answered", "answered", "text", { priority: 2, marks: [{ key: "errorCode", text: " " }] }),
        col("outcome", "outcome", "text", { priority: 1 }),
        col("initVersion", "initialize version"),
        col("msAfterProbe", "init after probe", "ms"),
        col("era", "era", "text", { priority: 1 }),
        col("modernRequests", "modern requests", "int"),
        col("discoverInstructions", "discover instr.", "int"),
        col("initInstructions", "initialize instr.", "int"),
      ],
      rows: r.handshakes.map((h) => ({
        index: h.index,
        server: h.server,
        connection: h.probeConnection ? "probe only" : h.index === r.handshake ? "session (summary)" : "session",
        firstMethod: h.firstMethod,
        probeId: h.probe?.id ?? null,
        probeVersion: h.probe?.protocolVersion ?? null,
        client: h.probe?.clientName
          ? `${h.probe.clientName} ${h.probe.clientVersion ?? ""}`.trim()
          : h.initialize?.clientName
            ? `${h.initialize.clientName} ${h.initialize.clientVersion ?? ""}`.trim()
            : null,
        answered: h.probe?.answered ?? null,
        errorCode: h.probe?.errorCode ?? null,
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
      columns: [
        col("handshake", "handshake", "int", { priority: 1 }),
        ...(named ? [col("logServer", "server", "text", { priority: 1 })] : []),
        col("method", "answers", "text", { priority: 1 }),
        col("id", "id", "id", { priority: 3 }),
        col("line", "line", "int", { priority: 2 }),
        col("chars", "chars", "int", { priority: 1 }),
      ],
      rows: r.instructions.map((c) => ({ ...c, logServer: serverOf.get(c.handshake) ?? null })),
    });
  }
  if (named) {
    tables.push({
      id: "rpc:servers",
      title: "Servers in the log",
      columns: [
        col("name", "server", "text", { priority: 1 }),
        col("messages", "messages", "int", { priority: 2 }),
        col("handshakes", "connections (#)", "text", { priority: 1 }),
        col("handshake", "session #", "int", { priority: 1 }),
        col("era", "era", "text", { priority: 1 }),
        col("firstMethod", "first method", "text", { priority: 2 }),
        col("probeConnections", "probe connections (#)", "text", { priority: 2 }),
        col("instructionLines", "instructions at line", "text", { priority: 2 }),
        col("mixed", "mixed handshakes", "text", { priority: 3 }),
      ],
      rows: r.servers.map((x) => ({
        name: x.name,
        messages: x.messages,
        handshakes: x.handshakes.join(", "),
        handshake: x.handshake,
        era: x.era,
        firstMethod: x.firstMethod,
        probeConnections: x.probeConnections.join(", ") || null,
        instructionLines: x.instructionLines.join(", ") || null,
        mixed: x.mixedHandshakes ? mixedText(x.mixedHandshakes) : "no",
      })),
      notes: ["each server is its own connection: handshakes, probe connections and response ids are matched within a server"],
    });
  }
  if (r.warnings.length) tables.push(findingsTable(r.warnings));
  const shown = r.timeline.slice(0, MAX_TIMELINE_ROWS);
  tables.push({
    id: "rpc:timeline",
    title: "Messages",
    columns: [
      col("line", "line", "int", { priority: 1 }),
      col("offsetMs", "+ms", "int", { priority: 2 }),
      col("dir", "dir", "text", { priority: 1 }),
      col("shape", "kind", "text", { priority: 2 }),
      col("method", "method", "text", { priority: 1 }),
      col("id", "id", "id", { priority: 3 }),
      col("note", "note", "text", { priority: 2 }),
    ],
    rows: shown.map((t) => ({ ...t, dir: t.dir ? ARROW[t.dir] : null, id: t.id === null ? null : String(t.id) })),
    notes: shown.length < r.timeline.length ? [`first ${shown.length} of ${r.timeline.length} messages shown (--json has all)`] : [],
  });
  return tables;
}
