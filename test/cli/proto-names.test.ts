import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli } from "../helpers.js";

/**
 * Evidence text that names a property of Object.prototype, used as a record type, attachment kind, system
 * subtype, version, entrypoint, cwd, model, MCP server and tool name, tool_use id and session id. Counted
 * in plain `{}` objects, `constructor` read `function Object() { [native code] }` as its count, `__proto__`
 * was never counted, and a tool_use id `constructor` read as a budget stub (an internal error in outputs).
 */
const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
const S = "c0ffee00-1111-4222-8333-444444444444";

function session(): string {
  const out: unknown[] = [];
  let i = 0;
  const base = (extra: Record<string, unknown>) => ({
    parentUuid: null,
    isSidechain: false,
    sessionId: S,
    cwd: "/w",
    uuid: `r${i}`,
    timestamp: new Date(Date.UTC(2026, 8, 16, 10, 0, i++)).toISOString(),
    ...extra,
  });
  const usage = (n: number) => ({ input_tokens: n, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 });
  out.push(base({ type: "user", message: { role: "user", content: "hi" } }));
  for (const n of NAMES) {
    out.push(base({ type: n }));
    out.push(base({ type: "attachment", attachment: { type: n } }));
    out.push(base({ type: "system", subtype: n, version: n, entrypoint: n, cwd: n, content: "x" }));
    out.push(
      base({
        type: "attachment",
        attachment: { type: "mcp_instructions_delta", addedNames: [n], addedBlocks: [`## ${n}\nhello`], removedNames: [] },
      }),
    );
    out.push(
      base({
        type: "assistant",
        version: n,
        requestId: `req_${n}`,
        message: {
          id: `msg_${n}`,
          type: "message",
          role: "assistant",
          model: n,
          stop_reason: "tool_use",
          content: [
            { type: "tool_use", id: n, name: `mcp__${n}__${n}`, input: {} },
            { type: "tool_use", id: `toolu_${n}`, name: n, input: {} },
          ],
          usage: usage(10 + i),
        },
      }),
    );
    out.push(
      base({
        type: "user",
        message: {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: n, content: "0123456789" },
            { type: "tool_result", tool_use_id: `toolu_${n}`, content: "abc" },
          ],
        },
      }),
    );
    out.push(base({ type: "user", sessionId: n, message: { role: "user", content: "x" } }));
  }
  out.push(
    base({
      type: "assistant",
      requestId: "req_last",
      message: {
        id: "msg_last",
        type: "message",
        role: "assistant",
        model: "m",
        stop_reason: "end_turn",
        content: [{ type: "text", text: "ok" }],
        usage: usage(500),
      },
    }),
  );
  return out.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

let root: string;
let cfg: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), "ccf-proto-names-"));
  cfg = join(root, "cfg");
  mkdirSync(join(cfg, "projects", "-w"), { recursive: true });
  writeFileSync(join(cfg, "projects", "-w", `${S}.jsonl`), session());
});
after(() => rmSync(root, { recursive: true, force: true }));

/** Each name once, in the order first seen: own keys of the parsed JSON, `__proto__` among them. */
const once = (...pre: Array<[string, number]>) => [...pre, ...NAMES.map((n): [string, number] => [n, 1])];

test("inventory --json: names of Object.prototype count like any other, in every facet, in first-seen order", async () => {
  const j = parseEnvelope(await runCli(["inventory", S, "--claude-dir", cfg, "--json"]), "inventory");
  const inv = j.inventory;
  assert.deepEqual(Object.entries(inv.unknownTypes), once());
  assert.deepEqual(Object.entries(j.health.unknownTypes), once());
  assert.deepEqual(Object.entries(inv.attachmentKinds), [
    ["__proto__", 1],
    ["mcp_instructions_delta", 5],
    ...NAMES.slice(1).map((n) => [n, 1]),
  ]);
  assert.deepEqual(Object.entries(inv.systemSubtypes), once());
  assert.deepEqual(Object.entries(inv.entrypoints), once());
  assert.deepEqual(Object.entries(inv.models), [...NAMES.map((n) => [n, 1]), ["m", 1]]);
  assert.deepEqual(
    Object.entries(inv.versions),
    NAMES.map((n) => [n, 2]),
  );
  assert.deepEqual(Object.entries(inv.sessionIds), [[S, 32], ...NAMES.map((n) => [n, 1])]);
  assert.deepEqual(Object.entries(inv.cwds), [["/w", 32], ...NAMES.map((n) => [n, 1])]);
  assert.equal(inv.recordTypes.__proto__, 1);
  assert.equal(inv.recordTypes.constructor, 1);
  assert.ok(!("unknownTypesOther" in inv) && !("unknownTypesOther" in j.health), "below the cap there is no Other");
});

test("inventory table and stderr: counts are numbers, __proto__ listed", async () => {
  const r = await runCli(["inventory", S, "--claude-dir", cfg]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /native code/);
  assert.match(r.stderr, /unknown record types passed over: __proto__ ×1, constructor ×1, toString ×1, hasOwnProperty ×1, valueOf ×1/);
  assert.match(r.stdout, /│ __proto__\s+│\s+1 │/);
  assert.match(r.stdout, /│ constructor\s+│\s+1 │/);
});

test("servers --json: knownChars stays a number; every command and format runs with such names", async () => {
  const s = parseEnvelope(await runCli(["servers", "--claude-dir", cfg, "--json"]), "servers");
  const row = JSON.stringify(s).match(/"knownChars":([^,}]+)/)?.[1];
  assert.equal(row, "180", "5 attachments of 36 chars (`## name\\nhello` kinds rendered) and no user text");
  assert.deepEqual(s.servers.map((x: any) => x.server).sort(), [...NAMES].sort());
  for (const cmd of ["inventory", "requests", "outputs", "tools", "servers", "report", "instructions", "sessions"]) {
    for (const fmt of [["--json"], ["--format", "markdown"], ["--format", "csv"], []]) {
      const target = cmd === "servers" || cmd === "sessions" ? [] : [S];
      const r = await runCli([cmd, ...target, "--claude-dir", cfg, ...fmt]);
      assert.equal(r.code, 0, `${cmd} ${fmt.join(" ")}: ${r.stderr}`);
      assert.doesNotMatch(r.stdout + r.stderr, /native code|internal error/, `${cmd} ${fmt.join(" ")}`);
    }
  }
});

test("outputs: a tool_use id named like a prototype property is neither a budget stub nor cleared", async () => {
  const j = parseEnvelope(await runCli(["outputs", S, "--claude-dir", cfg, "--json"]), "outputs");
  const rows = j.toolResults.map((r: any) => [r.toolUseId, r.server, r.check, r.resultChars]);
  assert.deepEqual(
    rows.filter((r: any) => r[1] !== null),
    NAMES.map((n) => [n, n, "inline", 10]),
  );
});

test("sessions: a version named __proto__ is listed", async () => {
  const j = parseEnvelope(await runCli(["sessions", "--claude-dir", cfg, "--json"]), "sessions");
  assert.deepEqual(j.sessions[0].versions, ["__proto__", "constructor", "hasOwnProperty", "toString", "valueOf"]);
  assert.equal(j.sessions[0].project, "/w");
});
