import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli, sample } from "../helpers.js";

// samples/chains (samples/gen/make-chains.mjs): the shapes of FORMATS.md section 11.
const HOME = sample("chains", "claude");
const PROJECT = join(HOME, "projects", "-home-dev-ledger");
const PARENT = "c4a1c4a1-0000-4000-8000-000000000001";
const MIXED = "c4a1c4a1-0000-4000-8000-000000000002";
const ORPHAN = "c4a1c4a1-0000-4000-8000-000000000003";
const RESUMED = "c4a1c4a1-0000-4000-8000-0000000000f0";
const file = (...p: string[]) => join(PROJECT, ...p);
const read = (p: string) => readFileSync(p, "utf8");

const byChain = (rows: any[]) => {
  const m = new Map<string, any[]>();
  for (const r of rows) m.set(r.chain, [...(m.get(r.chain) ?? []), r]);
  return m;
};

// ---- point 2: a subagent's true output count comes from the parent's Task/Agent result

test("subagent output: the last request takes the parent's usage.output_tokens, the file's placeholder kept as recorded", async () => {
  const j = parseEnvelope(await runCli(["requests", PARENT, "--claude-dir", HOME, "--json"]), "requests");
  const chains = byChain(j.requests);
  for (const [agent, output, recorded] of [
    ["a7be2f0", 1545, 1],
    ["a3d9c41", 938, 4],
  ] as const) {
    const last = chains.get(agent)!.at(-1);
    assert.equal(last.outputTokens, output, `${agent}: the parent's count`);
    assert.equal(last.outputTokensRecorded, recorded, `${agent}: the file's placeholder`);
    assert.equal(last.outputSource, "parent-task-result");
    assert.equal(last.outputPlaceholder, false);
    // Only the last request: the earlier ones had their own final fragment.
    for (const r of chains.get(agent)!.slice(0, -1)) assert.equal(r.outputSource, "final-fragment");
    const t = j.totals.find((x: any) => x.chain === agent);
    const sum = chains.get(agent)!.reduce((n: number, r: any) => n + r.outputTokens, 0);
    assert.equal(t.outputTokens, sum, `${agent}: totals follow the confirmed count`);
    assert.equal(t.outputPlaceholders, 0);
    assert.equal(t.outputFromParent, 1);
  }
  const main = j.totals.find((x: any) => x.chain === "main");
  assert.equal(main.task, null);
});

test("subagent output: each subagent's duration, tool uses and total tokens, joined by agentId or by prompt", async () => {
  const j = parseEnvelope(await runCli(["requests", PARENT, "--claude-dir", HOME, "--json"]), "requests");
  const a = j.totals.find((x: any) => x.chain === "a7be2f0").task;
  assert.deepEqual(
    [
      a.tool,
      a.joinedBy,
      a.agentId,
      a.status,
      a.totalDurationMs,
      a.totalToolUseCount,
      a.totalTokens,
      a.matchesLastRequest,
      a.lastRequestIndex,
    ],
    ["Task", "agentId", "a7be2f0", "completed", 18230, 2, 7821, true, 3],
  );
  const b = j.totals.find((x: any) => x.chain === "a3d9c41").task;
  assert.deepEqual([b.tool, b.joinedBy, b.agentId, b.totalDurationMs, b.usage.outputTokens], ["Agent", "prompt", null, 16870, 938]);
  assert.equal(j.subagents.length, 2);
  assert.equal(j.subagents[0].line, 6, "the parent's result record");
});

test("subagent output: a usage that does not match the last request's input side changes nothing", async () => {
  // The same parent with one cache-read count off by one: no longer the subagent's last request.
  const parent = read(file(`${PARENT}.jsonl`)).replace(
    /"cache_read_input_tokens":6202,"cache_creation":/,
    '"cache_read_input_tokens":6203,"cache_creation":',
  );
  assert.notEqual(parent, read(file(`${PARENT}.jsonl`)), "the sample holds the figure this test edits");
  const stdin = parent + read(file(PARENT, "subagents", "agent-a7be2f0.jsonl"));
  const j = parseEnvelope(await runCli(["requests", "-", "--json"], { stdin }), "requests");
  const last = byChain(j.requests).get("a7be2f0")!.at(-1);
  assert.equal(last.outputTokens, 1);
  assert.equal(last.outputSource, "placeholder");
  assert.equal(j.totals.find((x: any) => x.chain === "a7be2f0").task.matchesLastRequest, false);
});

test("subagent output on stdin: parent and subagent piped together are two chains, joined the same way", async () => {
  const stdin = read(file(`${PARENT}.jsonl`)) + read(file(PARENT, "subagents", "agent-a7be2f0.jsonl"));
  const j = parseEnvelope(await runCli(["requests", "-", "--json"], { stdin }), "requests");
  assert.deepEqual(
    j.totals.map((t: any) => t.chain),
    ["main", "a7be2f0"],
  );
  const last = byChain(j.requests).get("a7be2f0")!.at(-1);
  assert.deepEqual([last.outputTokens, last.outputTokensRecorded, last.outputSource], [1545, 1, "parent-task-result"]);
});

test("a subagent file piped on stdin is labelled as it is read from disk: kind subagent-transcript, chain its agent id", async () => {
  const path = file(PARENT, "subagents", "agent-a7be2f0.jsonl");
  const fromDisk = parseEnvelope(await runCli(["requests", path, "--json"]), "requests");
  assert.deepEqual([fromDisk.inputs[0].kind, fromDisk.inputs[0].chain], ["subagent-transcript", "a7be2f0"]);
  for (const cmd of ["requests", "tools", "report"]) {
    const piped = parseEnvelope(await runCli([cmd, "-", "--json"], { stdin: read(path) }), cmd);
    assert.deepEqual(
      piped.inputs.map((i: any) => [i.path, i.kind, i.chain]),
      [["-", "subagent-transcript", "a7be2f0"]],
      cmd,
    );
  }
  const piped = parseEnvelope(await runCli(["requests", "-", "--json"], { stdin: read(path) }), "requests");
  assert.deepEqual(
    piped.requests.map((r: any) => [r.chain, r.index]),
    fromDisk.requests.map((r: any) => [r.chain, r.index]),
  );
  // A main file piped stays main, its parent and subagent together too (the first record is the parent's).
  for (const stdin of [read(file(`${PARENT}.jsonl`)), read(file(`${PARENT}.jsonl`)) + read(path)]) {
    const j = parseEnvelope(await runCli(["requests", "-", "--json"], { stdin }), "requests");
    assert.deepEqual([j.inputs[0].kind, j.inputs[0].chain], ["transcript", "main"]);
  }
});

test("subagent output in tables: a mark on the count, one note, the subagents table", async () => {
  const r = await runCli(["requests", PARENT, "--claude-dir", HOME]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, / 1,545\^ │/);
  assert.match(r.stdout, / 938\^\s+│/);
  assert.match(
    r.stdout,
    /\^ output of request 3 is the parent's Task result \(toolUseResult\.usage\.output_tokens at [^)]+\.jsonl:6\), whose input side equals this request's; the file recorded 1/,
  );
  assert.match(r.stdout, /Subagents \(the parent's Task\/Agent results\)/);
  assert.match(r.stdout, /│ a7be2f0 │ Task\s+│ completed │ agentId\s+│ 18,230 ms │\s+2 │\s+7,821 │\s+3 │\s+1,545 │ yes\s+│/);
  const csv = await runCli(["requests", PARENT, "--claude-dir", HOME, "--format", "csv"]);
  assert.match(csv.stdout, /outputFromParent/);
});

test("subagent output in report: the subagent's totals and the report's JSON sections", async () => {
  const j = parseEnvelope(await runCli(["report", PARENT, "--claude-dir", HOME, "--json"]), "report");
  assert.equal(j.totals.find((x: any) => x.chain === "a7be2f0").outputTokens, 46 + 37 + 1545);
  assert.equal(j.subagents.length, 2);
});

// ---- point 5: one file, several chains

test("several chains in one file: a sidechain record and a resume copy are chains of their own, no delta in the main chain", async () => {
  for (const mode of ["file", "stdin"] as const) {
    const args = mode === "file" ? ["requests", file(`${MIXED}.jsonl`), "--json"] : ["requests", "-", "--json"];
    const j = parseEnvelope(await runCli(args, mode === "stdin" ? { stdin: read(file(`${MIXED}.jsonl`)) } : {}), "requests");
    const chains = byChain(j.requests);
    assert.deepEqual([...chains.keys()], ["main", "a5e6f70", RESUMED], mode);
    assert.deepEqual(
      chains.get("main")!.map((r: any) => r.deltaTokens),
      [null, 59, 21],
      `${mode}: main-chain deltas only between its own requests`,
    );
    assert.ok(
      j.requests.every((r: any) => r.deltaTokens === null || r.deltaTokens >= 0),
      `${mode}: no negative delta`,
    );
    assert.equal(chains.get("a5e6f70")![0].totalInputTokens, 1313);
    assert.equal(chains.get(RESUMED)![0].sessionId, RESUMED);
  }
});

test("several chains in one file: tables say which is which", async () => {
  const r = await runCli(["requests", file(`${MIXED}.jsonl`)]);
  assert.match(r.stdout, /Requests \(main chain\)/);
  assert.match(r.stdout, /Requests \(subagent a5e6f70\)/);
  assert.match(r.stdout, new RegExp(`Requests \\(session ${RESUMED}, records of another session\\)`));
});

test("a subagent file on stdin or under another name is labelled with its agent, not as the main chain", async () => {
  const sub = read(file(PARENT, "subagents", "agent-a7be2f0.jsonl"));
  const r = await runCli(["requests", "-", "--format", "markdown"], { stdin: sub });
  assert.match(r.stdout, /Requests \(subagent a7be2f0\)/);
  assert.doesNotMatch(r.stdout, /main chain/);
  const byPath = await runCli(["requests", file(PARENT, "subagents", "agent-a7be2f0.jsonl"), "--format", "markdown"]);
  assert.match(byPath.stdout, /Requests \(subagent a7be2f0\)/);
  assert.doesNotMatch(byPath.stdout, /main chain/);
});

test("one file, several chains: a main-chain tool result is charged to the main chain's next request, not to a sidechain request between", async () => {
  const j = parseEnvelope(await runCli(["outputs", file(`${MIXED}.jsonl`), "--json"]), "outputs");
  assert.deepEqual(
    j.toolResults.map((r: any) => [r.line, r.chain, r.requestIndex, r.deltaTokens]),
    [[4, "main", 2, 59]],
  );
});

// ---- point 6: an orphan subagent folder is a session

test("orphan folder: sessions lists it, marked main file missing, with its subagent's times and cwd", async () => {
  const j = parseEnvelope(await runCli(["sessions", "--claude-dir", HOME, "--json"]), "sessions");
  const o = j.sessions.find((s: any) => s.sessionId === ORPHAN);
  assert.ok(o, "listed");
  assert.deepEqual([o.mainFileMissing, o.requests, o.subagents, o.project], [true, 0, 1, "/home/dev/ledger"]);
  assert.equal(o.firstTimestamp, "2026-02-12T08:00:00.000Z");
  assert.equal(j.sessions.find((s: any) => s.sessionId === PARENT).mainFileMissing, false);
  const t = await runCli(["sessions", "--claude-dir", HOME, "--format", "markdown"]);
  assert.match(t.stdout, new RegExp(`${ORPHAN} \\(main file missing\\)`));
});

test("orphan folder: the id (or a prefix) is looked up, requests and report read its subagents", async () => {
  const j = parseEnvelope(await runCli(["requests", ORPHAN, "--claude-dir", HOME, "--json"]), "requests");
  assert.deepEqual(
    j.totals.map((t: any) => [t.chain, t.requests]),
    [["a0c0ffe", 3]],
  );
  assert.deepEqual(
    j.inputs.map((i: any) => i.kind),
    ["subagent-transcript"],
  );
  const md = await runCli(["requests", ORPHAN, "--claude-dir", HOME]);
  assert.match(
    md.stdout,
    /main file missing: c4a1c4a1-0000-4000-8000-000000000003\.jsonl is not beside its subagents\/ folder; read its 1 subagent file/,
  );
  const rep = parseEnvelope(await runCli(["report", ORPHAN, "--claude-dir", HOME, "--json"]), "report");
  assert.equal(rep.summary.mainFileMissing, true);
  assert.equal(rep.summary.requestsMainChain, 0);
  assert.equal(rep.summary.requestsAllChains, 3);
  assert.equal(rep.summary.firstLastChain, "a0c0ffe");
  assert.match(rep.summary.toolResultsDir, /c4a1c4a1-0000-4000-8000-000000000003[\\/]tool-results$/);
});

test("orphan folder: with no target at a terminal it can be the newest session, ranked by its subagent file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-orphan-newest-"));
  const proj = join(dir, "projects", "-home-dev-ledger");
  mkdirSync(proj, { recursive: true });
  cpSync(file(ORPHAN), join(proj, ORPHAN), { recursive: true });
  const r = await runCli(["requests", "--claude-dir", dir, "--json"], { tty: { stdin: true } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`newest session: ${ORPHAN}`));
  assert.deepEqual(
    parseEnvelope(r, "requests").totals.map((t: any) => [t.chain, t.requests]),
    [["a0c0ffe", 3]],
  );
});

test("orphan folder: report labels its first and last request with the chain, not the main chain", async () => {
  const r = await runCli(["report", ORPHAN, "--claude-dir", HOME, "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /last request \(chain a0c0ffe\)/);
  assert.doesNotMatch(r.stdout, /last request \(main chain\)/);
});

test("orphan folder: an ambiguous prefix names its folder, not a main file that is not there; --no-subagents says why nothing is read", async () => {
  const r = await runCli(["requests", "c4a1c4a1-0000-4", "--claude-dir", HOME]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /c4a1c4a1-0000-4000-8000-000000000003 {2}\S+c4a1c4a1-0000-4000-8000-000000000003[\\/]subagents[\\/] \(main file missing\)/,
  );
  const none = await runCli(["requests", ORPHAN, "--claude-dir", HOME, "--no-subagents"]);
  assert.equal(none.code, 0);
  assert.match(none.stderr, /main file missing: .*read its 0 subagent file\(s\)/);
});

// ---- records of another chain inside a main file, as Claude Code wrote them on disk

const SID = "7e570000-0000-4000-8000-000000000001";
/** One line of a main transcript in the 2.1.x envelope (FORMATS.md 4.3). */
const line = (uuid: string, parentUuid: string | null, o: Record<string, unknown>) =>
  JSON.stringify({ parentUuid, isSidechain: false, cwd: "/w", sessionId: SID, version: "2.1.39", ...o, uuid });
const say = (text: unknown) => ({ type: "user", message: { role: "user", content: text } });
const reply = (
  id: string,
  stop: string | null,
  cc: number,
  cr: number,
  out: number,
  content: unknown[] = [{ type: "text", text: "ok" }],
) => ({
  type: "assistant",
  requestId: `r${id}`,
  message: {
    id,
    model: "m",
    role: "assistant",
    content,
    stop_reason: stop,
    usage: { input_tokens: 3, cache_creation_input_tokens: cc, cache_read_input_tokens: cr, output_tokens: out },
  },
});

/** A config dir holding one main transcript `<SID>.jsonl` under a project folder; removed by the caller. */
function configWith(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "ccf-chains-"));
  const proj = join(dir, "projects", "-w");
  mkdirSync(proj, { recursive: true });
  writeFileSync(join(proj, `${SID}.jsonl`), lines.join("\n") + "\n");
  return dir;
}

test("an in-file sidechain between two fragments of a main request does not split it", async () => {
  const side = { isSidechain: true, agentId: "a7777777" };
  const dir = configWith([
    line("u-1", null, say("go")),
    line("u-2", "u-1", reply("m1", null, 100, 1000, 5, [{ type: "tool_use", id: "tA", name: "Task", input: { prompt: "p" } }])),
    line("u-3", null, { ...say("side prompt"), ...side }),
    line("u-4", "u-3", { ...reply("s1", "end_turn", 50, 500, 7), ...side }),
    line("u-5", "u-2", reply("m1", "tool_use", 100, 1000, 300, [{ type: "tool_use", id: "tB", name: "Bash", input: { command: "ls" } }])),
    line("u-6", "u-5", say([{ type: "tool_result", tool_use_id: "tB", content: "ls out" }])),
    line("u-7", "u-6", reply("m2", "end_turn", 200, 1100, 9)),
  ]);
  try {
    const j = parseEnvelope(await runCli(["requests", SID, "--claude-dir", dir, "--json"]), "requests");
    assert.deepEqual(
      j.requests.map((r: any) => [r.chain, r.index, r.fragments, r.outputTokens, r.outputSource, r.deltaTokens, r.duplicateOf]),
      [
        ["main", 1, 2, 300, "final-fragment", null, null],
        ["main", 2, 1, 9, "final-fragment", 200, null],
        ["a7777777", 1, 1, 7, "final-fragment", null, null],
      ],
    );
    const s = parseEnvelope(await runCli(["sessions", "--claude-dir", dir, "--json"]), "sessions");
    assert.equal(s.sessions.find((x: any) => x.sessionId === SID).requests, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("sidechain records with no agent id in a main file (older Claude Code) are a chain of their own, labelled from the root's uuid", async () => {
  const side = { isSidechain: true };
  const root = "5ide0000-0000-4000-8000-000000000003";
  const dir = configWith([
    line("u-1", null, say("go")),
    line("u-2", "u-1", reply("m1", "end_turn", 100, 1000, 5)),
    line(root, null, { ...say("side prompt no agentId"), ...side }),
    line("u-4", root, { ...reply("s1", "end_turn", 50, 500, 7), ...side }),
    line("u-5", "u-2", say("next")),
    line("u-6", "u-5", reply("m2", null, 0, 1000, 1)),
    line("u-7", "u-5", reply("m2", "end_turn", 200, 1100, 9)),
  ]);
  try {
    const j = parseEnvelope(await runCli(["requests", SID, "--claude-dir", dir, "--json"]), "requests");
    assert.deepEqual(
      j.requests.map((r: any) => [r.chain, r.index, r.fragments, r.deltaTokens, r.outputTokens]),
      [
        ["main", 1, 1, null, 5],
        ["main", 2, 2, 200, 9],
        ["sidechain-5ide0000", 1, 1, null, 7],
      ],
    );
    const md = await runCli(["requests", SID, "--claude-dir", dir, "--format", "markdown"]);
    assert.match(md.stdout, /Requests \(subagent sidechain-5ide0000\)/);
    const s = parseEnvelope(await runCli(["sessions", "--claude-dir", dir, "--json"]), "sessions");
    assert.equal(s.sessions.find((x: any) => x.sessionId === SID).requests, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
