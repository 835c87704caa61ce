import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assistant, jsonl, toolResult, userText } from "../builders.js";
import { parseEnvelope, runCli } from "../helpers.js";

// The join of a subagent to its parent's Task/Agent results, end to end from a config dir (FORMATS.md 3,
// 4.6, 11): a resumed subagent, the .meta.json toolUseId link (and damaged sidecars), and the notes that
// say why a result was joined to no chain. The shapes of the review's cases c10, c16b and c19.

const SID = "5ab10000-0000-4000-8000-000000000001";

function configDir(t: { after: (fn: () => void) => void }): { home: string; project: string; subagents: string } {
  const home = mkdtempSync(join(tmpdir(), "subjoin-"));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const project = join(home, "projects", "-home-dev-proj");
  const subagents = join(project, SID, "subagents");
  mkdirSync(subagents, { recursive: true });
  return { home, project, subagents };
}

const own = { sessionId: SID };
const side = (agentId: string) => ({ sessionId: SID, isSidechain: true, agentId });
const usage = (cc: number, cr: number, out: number) => ({
  input_tokens: 1,
  cache_creation_input_tokens: cc,
  cache_read_input_tokens: cr,
  output_tokens: out,
});

/** A parent calling Task once per entry, each result carrying the given usage (and agentId when given). */
function parent(calls: Array<{ id: string; prompt: string; agentId?: string; usage: ReturnType<typeof usage> }>): string {
  return jsonl(
    userText("go", own),
    ...calls.flatMap((c) => [
      assistant({ stop: "tool_use", blocks: [{ type: "tool_use", id: c.id, name: "Task", input: { prompt: c.prompt } }], extra: own }),
      toolResult(c.id, "done", {
        ...own,
        toolUseResult: { status: "completed", prompt: c.prompt, ...(c.agentId ? { agentId: c.agentId } : {}), usage: c.usage },
      }),
    ]),
    assistant({ extra: own }),
  );
}

const placeholder = (agentId: string, cc: number, cr: number, out: number) =>
  assistant({ usage: usage(cc, cr, out), stop: null, extra: side(agentId) });

test("a resumed subagent in requests --json and the table: both legs take their result's output, no missing-file note", async (t) => {
  const d = configDir(t);
  writeFileSync(
    join(d.project, `${SID}.jsonl`),
    parent([
      { id: "toolu_T1", prompt: "Find foo", agentId: "a7be2f0", usage: usage(3000, 5000, 777) },
      { id: "toolu_T2", prompt: "Now find bar", agentId: "a7be2f0", usage: usage(200, 8000, 888) },
    ]),
  );
  writeFileSync(
    join(d.subagents, "agent-a7be2f0.jsonl"),
    jsonl(
      userText("Find foo", side("a7be2f0")),
      placeholder("a7be2f0", 3000, 5000, 1),
      userText("Now find bar", side("a7be2f0")),
      placeholder("a7be2f0", 200, 8000, 2),
    ),
  );
  const j = parseEnvelope(await runCli(["requests", SID, "--claude-dir", d.home, "--json"]), "requests");
  assert.deepEqual(
    j.requests.filter((q: any) => q.chain === "a7be2f0").map((q: any) => [q.outputTokens, q.outputTokensRecorded, q.outputSource]),
    [
      [777, 1, "parent-task-result"],
      [888, 2, "parent-task-result"],
    ],
  );
  assert.deepEqual(
    j.subagents.map((s: any) => [s.chain, s.joinedBy, s.lastRequestIndex, s.matchesLastRequest, s.unjoinedReason]),
    [
      ["a7be2f0", "agentId", 1, true, null],
      ["a7be2f0", "agentId", 2, true, null],
    ],
  );
  const total = j.totals.find((x: any) => x.chain === "a7be2f0");
  assert.deepEqual([total.outputTokens, total.outputPlaceholders, total.outputFromParent], [1665, 0, 2]);
  const r = await runCli(["requests", SID, "--claude-dir", d.home, "--wide"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, / 777\^ /);
  assert.match(r.stdout, / 888\^ /);
  assert.match(r.stdout, /│ total │ 2 requests\s+│[^\n]* 1,665 /);
  assert.match(
    r.stdout,
    /\^ output of requests 1, 2 is the parent's Task results' toolUseResult\.usage\.output_tokens \(a resumed subagent: one result per leg, at [^)]+\.jsonl:3, [^)]+\.jsonl:5\)/,
  );
  assert.doesNotMatch(r.stdout, /subagent file missing|joined to no chain|differs from/);
});

/** The c16b shape: the subagent got other words than the parent's prompt; its sidecar names the tool_use id. */
function metaCase(d: ReturnType<typeof configDir>, sidecar: string | undefined): void {
  writeFileSync(
    join(d.project, `${SID}.jsonl`),
    parent([{ id: "toolu_T1", prompt: "Parent wording of the prompt", usage: usage(1000, 8000, 999) }]),
  );
  writeFileSync(
    join(d.subagents, "agent-a0000000000000001.jsonl"),
    jsonl(userText("Different wording the subagent got", side("a0000000000000001")), placeholder("a0000000000000001", 1000, 8000, 1)),
  );
  if (sidecar !== undefined) writeFileSync(join(d.subagents, "agent-a0000000000000001.meta.json"), sidecar);
}

test("a result joined to no chain: the Subagents table shows its tool_use id as such, never in the agent column", async (t) => {
  const d = configDir(t);
  metaCase(d, undefined);
  const csv = await runCli(["requests", SID, "--claude-dir", d.home, "--format", "csv"]);
  assert.equal(csv.code, 0, csv.stderr);
  const lines = csv.stdout.split(/\r?\n/);
  const head = lines.findIndex((l) => l.startsWith("table,agent,"));
  assert.ok(head >= 0, csv.stdout);
  const cols = lines[head]!.split(",");
  const row = lines[head + 1]!.split(",");
  assert.equal(row[cols.indexOf("agent")], "", "no agent id is known: the raw cell is empty");
  assert.equal(row[cols.indexOf("toolUseId")], "toolu_T1");
  const table = await runCli(["requests", SID, "--claude-dir", d.home, "--wide"]);
  const sub = table.stdout.slice(table.stdout.indexOf("Subagents ("));
  assert.match(sub, /│ agent +│ .* │ result at +│ tool_use id +│/);
  assert.match(sub, /│ \? +│ Task .*\.jsonl:3 +│ toolu_T1 +│/);
});

test("the .meta.json toolUseId joins the subagent (joinedBy toolUseId) and its last request takes the parent's output", async (t) => {
  const d = configDir(t);
  metaCase(d, JSON.stringify({ agentType: "general-purpose", toolUseId: "toolu_T1" }));
  const r = await runCli(["requests", SID, "--claude-dir", d.home, "--json"]);
  const j = parseEnvelope(r, "requests");
  assert.equal(r.stderr, "");
  const last = j.requests.find((q: any) => q.chain === "a0000000000000001");
  assert.deepEqual([last.outputTokens, last.outputTokensRecorded, last.outputSource], [999, 1, "parent-task-result"]);
  assert.deepEqual(
    j.subagents.map((s: any) => [s.chain, s.joinedBy, s.matchesLastRequest]),
    [["a0000000000000001", "toolUseId", true]],
  );
  // The sidecar is read, not an input of its own.
  assert.ok(j.inputs.every((i: any) => !i.path.endsWith(".meta.json") && !("parentToolUseId" in i)));
});

test("without a sidecar the result is joined to no chain, and the note says why (no link), not that a file is missing", async (t) => {
  const d = configDir(t);
  metaCase(d, undefined);
  const j = parseEnvelope(await runCli(["requests", SID, "--claude-dir", d.home, "--json"]), "requests");
  assert.deepEqual(
    j.subagents.map((s: any) => [s.chain, s.joinedBy, s.unjoinedReason]),
    [[null, null, "no-link"]],
  );
  assert.equal(j.requests.find((q: any) => q.chain === "a0000000000000001").outputSource, "placeholder");
  const r = await runCli(["requests", SID, "--claude-dir", d.home]);
  assert.match(
    r.stdout,
    /1 result\(s\) with no agentId and no tool_use link \(agent_progress, \.meta\.json\), whose prompt starts no subagent chain read: joined to no chain/,
  );
  assert.doesNotMatch(r.stdout, /subagent file missing/);
});

test("a damaged, huge or hostile sidecar is damage: a warning naming it, the join falls back, no crash", async (t) => {
  const cases: Array<[string, string | ((p: string) => void), RegExp]> = [
    ["not JSON", "{toolUseId: toolu_T1", /is not a JSON object/],
    ["an array", '["toolu_T1"]', /is not a JSON object/],
    ["not an id", JSON.stringify({ toolUseId: "toolu_T1\u001b[31m" }), /toolUseId is not a tool_use id/],
    ["a number", JSON.stringify({ toolUseId: 7 }), /toolUseId is not a tool_use id/],
    ["huge", JSON.stringify({ toolUseId: "toolu_T1", pad: "x".repeat(64 * 1024) }), /sidecar of \d+ bytes, over the 16384/],
    ["deep", "[".repeat(15000), /is not a JSON object/],
    ["not UTF-8", Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString("latin1"), /not UTF-8|not a JSON object/],
    ["a folder", (p) => mkdirSync(p), /not a regular file/],
    ["a link out of the tree", (p) => symlinkSync("/etc/hostname", p), /real path leaves/],
  ];
  for (const [what, make, reason] of cases) {
    const d = configDir(t);
    metaCase(d, typeof make === "string" ? make : undefined);
    if (what === "not UTF-8") writeFileSync(join(d.subagents, "agent-a0000000000000001.meta.json"), Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    if (typeof make === "function") make(join(d.subagents, "agent-a0000000000000001.meta.json"));
    const r = await runCli(["requests", SID, "--claude-dir", d.home, "--json"]);
    const j = parseEnvelope(r, "requests");
    const skipped = j.health.skipped.filter((s: any) => s.path.endsWith("agent-a0000000000000001.meta.json"));
    assert.equal(skipped.length, 1, `${what}: listed in health.skipped`);
    assert.match(skipped[0].reason, reason, what);
    assert.match(r.stderr, /agent-a0000000000000001\.meta\.json/, `${what}: a warning on stderr`);
    assert.doesNotMatch(r.stderr, /\u001b/, `${what}: no escape from evidence`);
    assert.deepEqual(
      j.subagents.map((s: any) => [s.chain, s.unjoinedReason]),
      [[null, "no-link"]],
      what,
    );
  }
});

test("a prompt two subagents share: each result's usage names its chain (joinedBy usage); identical usage names none, and the note says so", async (t) => {
  const d = configDir(t);
  const calls = [
    { id: "toolu_T1", prompt: "Check the tests", usage: usage(400, 9000, 4444) },
    { id: "toolu_T2", prompt: "Check the tests", usage: usage(300, 7000, 3333) },
  ];
  writeFileSync(join(d.project, `${SID}.jsonl`), parent(calls));
  const twin = (agent: string, cc: number, cr: number) =>
    writeFileSync(
      join(d.subagents, `agent-${agent}.jsonl`),
      jsonl(userText("Check the tests", side(agent)), placeholder(agent, cc, cr, 2)),
    );
  twin("a1aaaaa", 300, 7000);
  twin("a2bbbbb", 400, 9000);
  const j = parseEnvelope(await runCli(["requests", SID, "--claude-dir", d.home, "--json"]), "requests");
  assert.deepEqual(
    j.subagents.map((s: any) => [s.toolUseId, s.chain, s.joinedBy]),
    [
      ["toolu_T1", "a2bbbbb", "usage"],
      ["toolu_T2", "a1aaaaa", "usage"],
    ],
  );
  assert.deepEqual(
    j.requests.filter((q: any) => q.chain !== "main").map((q: any) => [q.chain, q.outputTokens, q.outputSource]),
    [
      ["a1aaaaa", 3333, "parent-task-result"],
      ["a2bbbbb", 4444, "parent-task-result"],
    ],
  );
  // Both subagents with the same input side: the usage cannot tell them apart.
  twin("a2bbbbb", 300, 7000);
  const same = await runCli(["requests", SID, "--claude-dir", d.home, "--json"]);
  assert.deepEqual(
    parseEnvelope(same, "requests").subagents.map((s: any) => [s.chain, s.unjoinedReason, s.promptChains]),
    [
      [null, "prompt-shared", 2],
      [null, "prompt-shared", 2],
    ],
  );
  const r = await runCli(["requests", SID, "--claude-dir", d.home]);
  assert.match(
    r.stdout,
    /2 result\(s\) whose prompt 2 subagent chains start with, and whose usage matches no single one of them on the input side: joined to no chain/,
  );
  assert.doesNotMatch(r.stdout, /subagent file missing/);
});

test("a result whose agentId names a subagent not read says so; --no-subagents too", async (t) => {
  const d = configDir(t);
  writeFileSync(join(d.project, `${SID}.jsonl`), parent([{ id: "toolu_T1", prompt: "p", agentId: "a7be2f0", usage: usage(1, 1, 5) }]));
  const r = await runCli(["requests", SID, "--claude-dir", d.home]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /1 result\(s\) whose agentId or tool_use link names a subagent that was not read \(its file missing, or --no-subagents\)/,
  );
  const j = parseEnvelope(await runCli(["requests", SID, "--claude-dir", d.home, "--json"]), "requests");
  assert.equal(j.subagents[0].unjoinedReason, "not-read");
});
