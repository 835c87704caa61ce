import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, ROOT, runCli, sample } from "../helpers.js";
import { writeResumedHome } from "../resume-home.js";

/** Every sample folder that is a Claude config dir (holds projects/). */
function configDirs(): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    if (existsSync(join(d, "projects"))) return void out.push(d);
    if (depth > 3) return;
    for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(join(d, e.name), depth + 1);
  };
  walk(sample(), 0);
  return out.sort();
}

interface Expected {
  sessions: Set<string>;
  results: number;
  resultChars: number;
  checks: Record<string, number>;
  requests: Map<string, number>;
  followUpReads: number;
}

/** A listed session as a target: its main file, or for an orphan subagent folder its id. */
const one = (s: { path: string; sessionId: string; mainFileMissing?: boolean }, dir: string) =>
  s.mainFileMissing ? [s.sessionId, "--claude-dir", dir] : [s.path];

/** What `servers` must say, summed here from `outputs` and `instructions` JSON of each session on its own. */
async function expectedFrom(dir: string) {
  const list = parseEnvelope(await runCli(["sessions", "--claude-dir", dir, "--json"]), "sessions");
  const byServer = new Map<string, Expected>();
  const instr = new Map<string, { deliveries: number; chars: number; truncated: number }>();
  for (const s of list.sessions) {
    const out = parseEnvelope(await runCli(["outputs", ...one(s, dir), "--json"]), "outputs");
    for (const r of out.toolResults) {
      if (r.server === null) continue;
      const e: Expected = byServer.get(r.server) ?? {
        sessions: new Set(),
        results: 0,
        resultChars: 0,
        checks: {},
        requests: new Map(),
        followUpReads: 0,
      };
      byServer.set(r.server, e);
      e.sessions.add(s.sessionId);
      e.results++;
      e.resultChars += r.resultChars ?? 0;
      e.checks[r.check] = (e.checks[r.check] ?? 0) + 1;
      e.followUpReads += r.followUpReadCount;
      if (r.deltaTokens !== null && r.requestIndex !== null) e.requests.set(`${s.sessionId}/${r.chain}#${r.requestIndex}`, r.deltaTokens);
    }
    const ins = parseEnvelope(await runCli(["instructions", ...one(s, dir), "--json"]), "instructions");
    for (const i of ins.instructions) {
      if (i.removed) continue;
      const e = instr.get(i.server) ?? { deliveries: 0, chars: 0, truncated: 0 };
      instr.set(i.server, e);
      e.deliveries++;
      e.chars += i.chars;
      if (i.truncated) e.truncated++;
    }
  }
  return { sessions: list.sessions.length, byServer, instr };
}

for (const dir of configDirs()) {
  test(`servers on ${dir.slice(sample().length + 1)}: the per-server sums equal outputs and instructions session by session`, async () => {
    const j = parseEnvelope(await runCli(["servers", "--claude-dir", dir, "--json"]), "servers");
    const want = await expectedFrom(dir);
    assert.equal(j.sessions.length, want.sessions);
    for (const [name, e] of want.byServer) {
      const row = j.servers.find((r: { name: string }) => r.name === name);
      assert.ok(row, `no row for ${name}`);
      assert.equal(row.results, e.results, name);
      assert.equal(row.resultChars, e.resultChars, name);
      assert.equal(
        row.deltaTokens,
        [...e.requests.values()].reduce((a, b) => a + b, 0),
        name,
      );
      assert.equal(row.followUpReads, e.followUpReads, name);
      for (const [c, n] of Object.entries(e.checks)) assert.equal(row.checks[c], n, `${name} ${c}`);
      assert.ok(row.sessions >= e.sessions.size);
    }
    for (const [name, e] of want.instr) {
      const row = j.servers.find((r: { name: string }) => r.name === name);
      assert.ok(row, `no row for ${name}`);
      assert.deepEqual(row.instructions, e, name);
    }
  });
}

test("servers: no target reads every session under the config dirs and never stdin; - reads stdin", async () => {
  const home = sample("claude-home");
  const stdin = readFileSync(sample("basic", "11111111-2222-4333-8444-555555555555.jsonl"));
  const all = parseEnvelope(await runCli(["servers", "--claude-dir", home, "--json"], { stdin }), "servers");
  assert.equal(all.sessions.length, 3);
  assert.ok(all.inputs.every((i: { path: string }) => i.path !== "-"));
  const piped = parseEnvelope(await runCli(["servers", "-", "--json"], { stdin }), "servers");
  assert.deepEqual(
    piped.inputs.map((i: { path: string }) => i.path),
    ["-"],
  );
  const demo = parseEnvelope(await runCli(["servers", "--claude-dir", home, "--project", "lab-demo", "--json"]), "servers");
  assert.equal(demo.sessions.length, 1);
  assert.deepEqual(
    demo.servers.map((r: { name: string }) => r.name),
    ["big", "lab"],
  );
});

test("servers: the demo session's servers, its first request's make-up, and the debug log's connection states", async () => {
  const j = parseEnvelope(await runCli(["servers", "c0ffee00", "--claude-dir", sample("claude-home"), "--json"]), "servers");
  const [big, lab] = j.servers;
  assert.deepEqual(
    [big.name, big.results, big.checks.size, big.checks.token, big.followUpReads, big.resultCharsMax],
    ["big", 2, 1, 1, 1, 66_000],
  );
  assert.deepEqual([lab.name, lab.tools, lab.toolsDeferred, lab.instructions.truncated, lab.instructions.chars], ["lab", 3, 3, 1, 2_061]);
  assert.equal(big.connectionFailures, 0);
  const c = j.sessions[0];
  assert.equal(c.snapshot, true);
  assert.equal(c.tokensSource, "estimate");
  assert.ok(c.systemPromptChars > 6_000 && c.mcpToolChars > 0 && c.instructionsChars > 2_061);
  assert.deepEqual(
    c.toolDefinitions.map((d: { server: string }) => d.server),
    ["big"],
  );
});

test("servers --by tool: one row per MCP tool; --chart writes the size-against-cost SVG; csv keeps numbers raw", async () => {
  const dir = sample("outputs", "staircase", "claude");
  const j = parseEnvelope(await runCli(["servers", "--claude-dir", dir, "--by", "tool", "--json"]), "servers");
  assert.deepEqual(
    j.servers.map((r: { name: string; results: number }) => [r.name, r.results]),
    [
      ["mcp__big__emit_text", 9],
      ["mcp__big__emit_text_annotated", 2],
    ],
  );
  const svg = join(mkdtempSync(join(tmpdir(), "ccf-servers-")), "tools.svg");
  const r = await runCli(["servers", "--claude-dir", dir, "--by", "tool", "--chart", svg, "--format", "csv"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(readFileSync(svg, "utf8"), /^<svg/);
  assert.match(r.stdout, /^tools,mcp__big__emit_text,big,9,/m);
  const bad = await runCli(["servers", "--claude-dir", dir, "--chart", join(dir, "x.svg")]);
  assert.equal(bad.code, 2);
});

test("servers over many sessions keeps 50 warnings word for word and counts the rest; html carries the chart inline", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-fleet-warn-"));
  const { genFleet } = (await import(join(ROOT, "bench", "gen-fleet.mjs"))) as { genFleet(dir: string, n: number): void };
  genFleet(dir, 90);
  // Two in three sessions print a saved path; with the files gone each says so.
  for (const p of readdirSync(join(dir, "projects")))
    for (const s of readdirSync(join(dir, "projects", p)))
      if (!s.endsWith(".jsonl")) rmSync(join(dir, "projects", p, s), { recursive: true });
  const r = await runCli(["servers", "--claude-dir", dir, "--format", "html"]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.filter((l) => l.includes("saved output not found")).length, 50);
  assert.match(lines.at(-1)!, /… and 10 more warning\(s\) like these$/);
  assert.match(r.stdout, /<svg[^>]*>/);
  assert.match(r.stdout, /MCP tools: result size against cost — 90 session\(s\)/);
});

test("servers: a resumed session read alone is one session; the session it copies is not counted from its copies", async () => {
  for (const swap of [false, true]) {
    const dir = mkdtempSync(join(tmpdir(), "ccf-resumed-alone-"));
    const { first, resumed } = writeResumedHome(dir, swap);
    const file = (id: string) => join(dir, "projects", "-home-dev-alpha", `${id}.jsonl`);
    // Only the resumed file: A's records are in it as copies, and they are this file's.
    const alone = parseEnvelope(await runCli(["servers", file(resumed), "--json"]), "servers");
    assert.equal(alone.sessions.length, 1);
    assert.deepEqual(
      alone.servers.map((r: Record<string, any>) => [r.name, r.sessions, r.toolCalls, r.results, r.instructions.deliveries]),
      [["db", 1, 3, 3, 2]],
    );
    const byTool = parseEnvelope(await runCli(["servers", file(resumed), "--by", "tool", "--json"]), "servers");
    assert.deepEqual(
      byTool.servers.map((r: Record<string, any>) => [r.name, r.sessions]),
      [["mcp__db__query", 1]],
    );
    const text = await runCli(["servers", file(resumed)]);
    assert.match(text.stdout, /│ db +│ +1 │/);
    // Export's servers table counts the same way.
    const out = mkdtempSync(join(tmpdir(), "ccf-resumed-alone-out-"));
    const ex = await runCli(["export", file(resumed), "--to", out, "--as", "ndjson"]);
    assert.equal(ex.code, 0, ex.stderr);
    const exported = readFileSync(join(out, "servers.ndjson"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      exported.map((r) => [r.server, r.sessions]),
      [["db", 1]],
    );
    // The original alone is one session too; both together are two.
    const orig = parseEnvelope(await runCli(["servers", file(first), "--json"]), "servers");
    assert.deepEqual(
      orig.servers.map((r: Record<string, any>) => [r.name, r.sessions]),
      [["db", 1]],
    );
    const both = parseEnvelope(await runCli(["servers", file(resumed), file(first), "--json"]), "servers");
    assert.deepEqual(
      both.servers.map((r: Record<string, any>) => [r.name, r.sessions]),
      [["db", 2]],
    );
  }
});

test("servers: a resume's copies count once across the fleet (deliveries, calls by id, sessions), in any order, from two config dirs or a target given twice", async () => {
  const want = {
    sessions: 2,
    toolCalls: 3,
    results: 3,
    instructions: { deliveries: 2, chars: 3_061, truncated: 1 },
  };
  const pick = (r: Record<string, any>) => ({
    sessions: r.sessions,
    toolCalls: r.toolCalls,
    results: r.results,
    instructions: r.instructions,
  });
  for (const swap of [false, true]) {
    const dir = mkdtempSync(join(tmpdir(), "ccf-resumed-"));
    const { first, resumed } = writeResumedHome(dir, swap);
    const r = await runCli(["servers", "--claude-dir", dir, "--json"]);
    const [db] = parseEnvelope(r, "servers").servers;
    assert.deepEqual(pick(db), want, `resumed file read ${swap ? "first" : "second"}`);
    // The copy's saved output is its first session's: not looked up (and missed) in the resumed one's folder.
    assert.doesNotMatch(r.stderr, /saved output not found/);
    const byTool = parseEnvelope(await runCli(["servers", "--claude-dir", dir, "--by", "tool", "--json"]), "servers");
    assert.deepEqual(
      byTool.servers.map((t: { name: string; toolCalls: number }) => [t.name, t.toolCalls]),
      [["mcp__db__query", 3]],
    );
    // The same session in a second config dir (a migrated ~/.config/claude beside ~/.claude), or named twice.
    const other = mkdtempSync(join(tmpdir(), "ccf-resumed-copy-"));
    cpSync(dir, other, { recursive: true });
    const both = parseEnvelope(await runCli(["servers", "--claude-dir", dir, "--claude-dir", other, "--json"]), "servers");
    assert.deepEqual(pick(both.servers[0]), want);
    const twice = parseEnvelope(await runCli(["servers", resumed, first, resumed, "--claude-dir", dir, "--json"]), "servers");
    assert.deepEqual(pick(twice.servers[0]), want);
  }
});
