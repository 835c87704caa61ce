import { test } from "node:test";
import assert from "node:assert/strict";
import { FleetAggregate, type SessionFacts } from "../../src/analyses/servers.js";
import { CopyLedger, recordSession } from "../../src/analyses/fleet-copies.js";
import type { ToolResultRow } from "../../src/analyses/outputs-join.js";
import type { InstructionRow } from "../../src/analyses/instructions-join.js";
import type { DebugServer } from "../../src/analyses/debug.js";

/** A result row with the fields the aggregate reads; the rest do not matter here. */
let nextId = 0;
function result(o: Partial<ToolResultRow> & { tool: string }): ToolResultRow {
  const split = /^mcp__(.+)__([^_].*)$/.exec(o.tool);
  return {
    toolUseId: `toolu_${++nextId}`,
    server: split ? split[1]! : null,
    toolName: split ? split[2]! : o.tool,
    check: "inline",
    resultChars: 100,
    deltaTokens: 40,
    requestIndex: 2,
    chain: "main",
    resultsInRequest: 1,
    followUpReadCount: 0,
    followUpTokens: null,
    ...o,
  } as ToolResultRow;
}

const instr = (server: string, chars: number, truncated: boolean): InstructionRow =>
  ({ server, chars, truncated, removed: false, chain: "main", uuid: null }) as InstructionRow;

/** Each call another session (one session id read twice is one session). */
let nextSession = 0;
function facts(o: Partial<SessionFacts>): SessionFacts {
  return { sessionId: `s${++nextSession}`, results: [], instructions: [], tools: [], debugServers: [], knownServers: [], ...o };
}

test("servers: sums per server across sessions, a request's growth once however many results it carried", () => {
  const agg = new FleetAggregate("server");
  agg.add(
    facts({
      results: [
        result({ tool: "mcp__big__emit_text", resultChars: 52_000, check: "size", deltaTokens: 1_027, requestIndex: 2 }),
        // Two results in request 3: its growth (900) is counted once, and the request is marked shared.
        result({
          tool: "mcp__big__emit_text",
          resultChars: 66_000,
          check: "token",
          deltaTokens: 900,
          requestIndex: 3,
          resultsInRequest: 2,
        }),
        result({ tool: "mcp__big__other", resultChars: 10, deltaTokens: 900, requestIndex: 3, resultsInRequest: 2 }),
        result({ tool: "Bash", resultChars: 5, deltaTokens: 7 }),
      ],
      tools: [
        {
          name: "mcp__big__emit_text",
          server: "big",
          loaded: true,
          deferred: true,
          defined: false,
          definitionChars: null,
          calls: 2,
          callIds: [],
          chains: ["main"],
        },
        {
          name: "mcp__big__other",
          server: "big",
          loaded: true,
          deferred: false,
          defined: true,
          definitionChars: 300,
          calls: 1,
          callIds: [],
          chains: ["main"],
        },
        {
          name: "Bash",
          server: null,
          loaded: true,
          deferred: false,
          defined: true,
          definitionChars: 900,
          calls: 1,
          callIds: [],
          chains: ["main"],
        },
      ],
      instructions: [instr("big", 2_061, true)],
    }),
  );
  agg.add(
    facts({
      // After a compaction boundary the growth is unknown: counted apart, never charged.
      results: [result({ tool: "mcp__big__emit_text", resultChars: 30_000, deltaTokens: null, requestIndex: 5 })],
      instructions: [instr("big", 1_000, false), instr("lab", 500, false)],
    }),
  );
  const rows = agg.rows();
  assert.deepEqual(
    rows.map((r) => r.name),
    ["big", "lab"],
  );
  const big = rows[0]!;
  assert.deepEqual([big.sessions, big.tools, big.toolsDeferred, big.toolsDefined, big.toolCalls, big.results], [2, 2, 1, 1, 3, 4]);
  assert.deepEqual(
    [big.resultChars, big.resultCharsMax, big.deltaTokens, big.deltaTokensUnknown, big.sharedRequests],
    [148_010, 66_000, 1_927, 1, 1],
  );
  assert.deepEqual([big.checks.inline, big.checks.size, big.checks.token, big.checks.budget], [2, 1, 1, 0]);
  assert.deepEqual(big.instructions, { deliveries: 2, chars: 3_061, truncated: 1 });
  assert.deepEqual([rows[1]!.sessions, rows[1]!.results, rows[1]!.instructions.deliveries], [1, 0, 1]);
});

test("servers: a server's own spelling wins over its normalized tool-name form, and connection failures count per session", () => {
  const agg = new FleetAggregate("server");
  const dbg = (status: DebugServer["status"]) =>
    ({ name: "my.server", status, lastError: status === "failed" ? "ECONNREFUSED" : null }) as DebugServer;
  agg.add(facts({ results: [result({ tool: "mcp__my_server__get" })], debugServers: [dbg("failed")] }));
  agg.add(facts({ debugServers: [dbg("connected")] }));
  const [row] = agg.rows();
  assert.deepEqual(
    [row!.name, row!.sessions, row!.connectionFailures, row!.debugLogs, row!.lastError],
    ["my.server", 2, 1, 2, "ECONNREFUSED"],
  );
});

test("servers --by tool: one row per MCP tool, built-ins left out", () => {
  const agg = new FleetAggregate("tool");
  agg.add(
    facts({
      results: [
        result({ tool: "mcp__big__emit_text", requestIndex: 2, deltaTokens: 10 }),
        result({ tool: "mcp__big__emit_text", requestIndex: 3, deltaTokens: 20 }),
        result({ tool: "Read" }),
      ],
    }),
  );
  const rows = agg.rows();
  assert.deepEqual(
    rows.map((r) => [r.name, r.server, r.tool, r.results, r.deltaTokens]),
    [["mcp__big__emit_text", "big", "emit_text", 2, 30]],
  );
});

test("servers: a result another session already counted (a resume's copy of its history) is not counted again, nor its call", () => {
  const agg = new FleetAggregate("server");
  const sighting = (...callIds: string[]) => ({
    name: "mcp__lab__ping",
    server: "lab",
    loaded: true,
    deferred: false,
    defined: false,
    definitionChars: null,
    calls: callIds.length,
    callIds,
    chains: ["main"],
  });
  agg.add(
    facts({
      sessionId: "a",
      results: [result({ tool: "mcp__lab__ping", toolUseId: "toolu_A1", resultChars: 500, deltaTokens: 300 })],
      tools: [sighting("toolu_A1")],
    }),
  );
  agg.add(
    facts({
      sessionId: "b",
      results: [
        result({ tool: "mcp__lab__ping", toolUseId: "toolu_A1", resultChars: 500, deltaTokens: 300, chain: "a" }),
        result({ tool: "mcp__lab__ping", toolUseId: "toolu_B1", resultChars: 200, deltaTokens: 100 }),
      ],
      tools: [sighting("toolu_A1", "toolu_B1")],
    }),
  );
  const [lab] = agg.rows();
  assert.deepEqual([lab!.sessions, lab!.toolCalls, lab!.results, lab!.resultChars, lab!.deltaTokens], [2, 2, 2, 700, 400]);
});

test("fleet copies: the first occurrence is remembered at its place, in runs per chain, and named for every later copy", () => {
  const ledger = new CopyLedger();
  assert.equal(ledger.mark("m1", "s1/main", 1), null);
  assert.equal(ledger.mark("m2", "s1/main", 2), null);
  assert.equal(ledger.mark("m3", "s1/agent", 1), null);
  assert.equal(ledger.mark("m4", "s1/main", 3), null);
  assert.equal(ledger.mark("m2", "s2/s1", 2), "s1/main#2");
  assert.equal(ledger.mark("m3", "s2/s1", 3), "s1/agent#1");
  assert.equal(ledger.mark("m4", "s2/s1", 4), "s1/main#3");
  assert.equal(ledger.mark("m5", "s2/main", 1), null);
  assert.equal(ledger.mark("m5", "s3/main", 1), "s2/main#1");
  assert.equal(recordSession("main", "s9"), "s9");
  assert.equal(recordSession("a1a1a1a1-0000-4000-8000-000000000001", "s9"), "a1a1a1a1-0000-4000-8000-000000000001");
  assert.equal(recordSession("a123@a1a1a1a1-0000-4000-8000-000000000001", "s9"), "a1a1a1a1-0000-4000-8000-000000000001");
  assert.equal(recordSession("a0123456789abcdef", "s9"), "s9");
});
