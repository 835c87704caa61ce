import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { takenInstructions } from "../../src/analyses/rpc.js";
import { parseEnvelope, runCli } from "../helpers.js";

// One message log, several connections: Claude Code's short probe connections before the session, and
// logs that hold clients of different eras. Written as the lab server logs both ways (`--log FILE`):
// `{"t", "dir": "in"|"out", …the JSON-RPC message}`, one line each, appended across connections.

const dir = mkdtempSync(join(tmpdir(), "ccf-rpcconn-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "claude-code", version: "2.1.285" },
};
const CLIENT = { name: "claude-code", version: "2.1.285" };

type Line = [ms: number, dir: "in" | "out", msg: Record<string, unknown>];
const at = (ms: number) => new Date(Date.UTC(2026, 8, 30, 5, 0, 0) + ms).toISOString();
function writeLog(name: string, lines: Line[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map(([ms, d, m]) => `${JSON.stringify({ t: at(ms), dir: d, jsonrpc: "2.0", ...m })}\n`).join(""));
  return path;
}
const discover = (ms: number): Line => [ms, "in", { id: "server-discover-probe-1", method: "server/discover", params: { _meta: META } }];
const notFound = (ms: number): Line => [ms, "out", { id: "server-discover-probe-1", error: { code: -32601, message: "Method not found" } }];
const initialize = (ms: number, version = "2025-11-25", clientInfo: object = CLIENT): Line => [
  ms,
  "in",
  { id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo } },
];
const initResult = (ms: number, instructions: string, version = "2025-11-25"): Line => [
  ms,
  "out",
  { id: 0, result: { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: "lab", version: "0.0.1" }, instructions } },
];
const initialized = (ms: number): Line => [ms, "in", { method: "notifications/initialized" }];
const discoverResult = (ms: number, instructions: string): Line => [
  ms,
  "out",
  {
    id: "server-discover-probe-1",
    result: {
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "lab", version: "0.0.1" } },
      instructions,
    },
  },
];
const toolsList = (ms: number, modern: boolean): Line[] => [
  [ms, "in", { id: 1, method: "tools/list", params: modern ? { _meta: META } : {} }],
  [ms + 1, "out", { id: 1, result: { tools: [] } }],
];

async function rpcOf(file: string): Promise<Record<string, any>> {
  return parseEnvelope(await runCli(["rpc", file, "--json"]), "rpc").rpc;
}

test("a probe connection before the session: the session's own handshake is described, the probe connection counted apart", async () => {
  const file = writeLog("legacy-with-probe-connection.jsonl", [
    // Connection 1: probe, fallback, initialized, closed: it only shook hands.
    discover(0),
    notFound(2),
    initialize(5),
    initResult(7, "PROBE-CONNECTION"),
    initialized(8),
    // Connection 2, the session: the same handshake, 40 ms from probe to initialize, then work.
    discover(3000),
    notFound(3010),
    initialize(3040),
    initResult(3042, "SESSION"),
    initialized(3043),
    ...toolsList(3044, false),
  ]);
  const r = await rpcOf(file);
  assert.equal(r.handshake, 2);
  assert.equal(r.era, "legacy");
  assert.equal(r.firstMethod, "server/discover");
  assert.deepEqual(r.initialize, { protocolVersion: "2025-11-25", msAfterProbe: 40 });
  assert.deepEqual(r.probe, {
    id: "server-discover-probe-1",
    protocolVersion: "2026-07-28",
    clientName: "claude-code",
    clientVersion: "2.1.285",
    answered: "error",
    errorCode: -32601,
  });
  assert.equal(r.probeConnectionCount, 1);
  assert.deepEqual(r.probeConnections, [
    { handshake: 1, line: 1, methods: ["server/discover", "initialize", "notifications/initialized"] },
  ]);
  assert.deepEqual(
    r.handshakes.map((h: any) => [h.index, h.probeConnection, h.style]),
    [
      [1, true, "discover-then-initialize"],
      [2, false, "discover-then-initialize"],
    ],
  );
  // The same client, era and handshake both times: one kind of handshake, not a mixed log.
  assert.equal(r.mixedHandshakes, null);
  assert.deepEqual(r.warnings, [
    "1 probe connection that only shook hands (handshake 1: server/discover, initialize, notifications/initialized); first method, era, probe and initialize describe handshake 2, the session's own",
  ]);
  assert.equal(takenInstructions(r as any)?.line, 9);
});

test("a legacy probe connection, then a modern session: era, probe answer and first method are the session's, and the mix is flagged", async () => {
  const file = writeLog("probe-connection-then-modern.jsonl", [
    discover(0),
    notFound(2),
    initialize(5),
    initResult(7, "OLD"),
    initialized(8),
    discover(2000),
    discoverResult(2003, "NEW"),
    ...toolsList(2005, true),
  ]);
  const r = await rpcOf(file);
  assert.equal(r.handshake, 2);
  assert.equal(r.era, "modern");
  assert.equal(r.probe.answered, "result");
  assert.equal(r.probe.errorCode, null);
  assert.equal(r.initialize, null);
  assert.equal(r.probeOutcome, "result");
  assert.equal(r.probeConnectionCount, 1);
  assert.deepEqual(r.mixedHandshakes, {
    eras: ["legacy", "modern"],
    styles: ["discover-then-initialize", "discover"],
    protocolVersions: ["2025-11-25", "2026-07-28"],
    clients: ["claude-code 2.1.285"],
  });
  assert.equal(takenInstructions(r as any)?.method, "server/discover");
  assert.equal(takenInstructions(r as any)?.line, 7);
});

test("two clients of different eras in one log: flagged, each connection's handshake described", async () => {
  const file = writeLog("two-clients.jsonl", [
    // An older client with no probe: initialize 2025-06-18, then work.
    initialize(0, "2025-06-18", { name: "claude-ai", version: "0.1.0" }),
    initResult(3, "FOR-DESKTOP", "2025-06-18"),
    initialized(4),
    ...toolsList(5, false),
    // Claude Code on the modern path.
    discover(60_000),
    discoverResult(60_002, "FOR-CODE"),
    ...toolsList(60_004, true),
  ]);
  const r = await rpcOf(file);
  assert.equal(r.probeConnectionCount, 0);
  assert.equal(r.handshake, 2);
  assert.equal(r.era, "modern");
  assert.deepEqual(r.mixedHandshakes, {
    eras: ["legacy", "modern"],
    styles: ["initialize", "discover"],
    protocolVersions: ["2025-06-18", "2026-07-28"],
    clients: ["claude-ai 0.1.0", "claude-code 2.1.285"],
  });
  assert.deepEqual(
    r.handshakes.map((h: any) => h.description),
    [
      "initialize 2025-06-18; client claude-ai 0.1.0; era legacy",
      "server/discover _meta 2026-07-28 → result; client claude-code 2.1.285; era modern",
    ],
  );
  const mixed = r.warnings.find((w: string) => w.startsWith("mixed handshakes:"));
  assert.equal(
    mixed,
    "mixed handshakes: this log holds connections that shook hands differently (eras legacy, modern; handshakes initialize, discover; protocol versions 2025-06-18, 2026-07-28; clients claude-ai 0.1.0, claude-code 2.1.285), so one summary does not fit them all — handshake 1: initialize 2025-06-18; client claude-ai 0.1.0; era legacy; handshake 2: server/discover _meta 2026-07-28 → result; client claude-code 2.1.285; era modern; the summary describes handshake 2",
  );
  // The table says which row is the session the summary describes.
  const table = await runCli(["rpc", file, "--format", "markdown"]);
  assert.match(table.stdout, /mixed handshakes/);
  assert.match(table.stdout, /\| connection \| session \| session \(summary\) \|/);
});

test("one session appended per run, the same client each time: no probe connections, not mixed", async () => {
  const run = (t: number): Line[] => [discover(t), discoverResult(t + 2, "X"), ...toolsList(t + 4, true)];
  const r = await rpcOf(writeLog("appended-runs.jsonl", [...run(0), ...run(10_000)]));
  assert.equal(r.handshakes.length, 2);
  assert.equal(r.handshake, 1);
  assert.equal(r.probeConnectionCount, 0);
  assert.equal(r.mixedHandshakes, null);
  assert.deepEqual(r.warnings, []);
});
