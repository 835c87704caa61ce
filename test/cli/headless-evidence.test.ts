import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli } from "../helpers.js";

// The shape FORMATS.md 11 describes for `claude -p` output: one assistant event per content block, usage
// repeated on each, stop_reason null on every one; the result's usage.output_tokens is the sum of the
// requests' final counts (161 + 2,045 + 427 + 247 = 2,880).
const SID = "5e5e5e5e-0000-4000-8000-00000000005e";
const OUT = [161, 2045, 427, 247];

function usage(i: number) {
  return { input_tokens: 3, cache_creation_input_tokens: 1000 * (i + 1), cache_read_input_tokens: 20000 + 500 * i, output_tokens: OUT[i] };
}

function stream(resultOutput: number): string {
  const lines: object[] = [
    { type: "system", subtype: "init", session_id: SID, cwd: "/tmp/x", model: "claude-opus-5-5", tools: ["Bash"], mcp_servers: [] },
  ];
  for (let i = 0; i < OUT.length; i++) {
    const id = `msg_0${i}`;
    const last = i === OUT.length - 1;
    lines.push({
      type: "assistant",
      session_id: SID,
      parent_tool_use_id: null,
      uuid: `a${i}t`,
      message: {
        id,
        model: "claude-opus-5-5",
        role: "assistant",
        stop_reason: null,
        usage: usage(i),
        content: [{ type: "text", text: "ok" }],
      },
    });
    if (!last) {
      lines.push({
        type: "assistant",
        session_id: SID,
        parent_tool_use_id: null,
        uuid: `a${i}u`,
        message: {
          id,
          model: "claude-opus-5-5",
          role: "assistant",
          stop_reason: null,
          usage: usage(i),
          content: [{ type: "tool_use", id: `toolu_${i}`, name: "Bash", input: {} }],
        },
      });
      lines.push({
        type: "user",
        session_id: SID,
        parent_tool_use_id: null,
        uuid: `u${i}`,
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: "x".repeat(100 * (i + 1)) }] },
      });
    }
  }
  lines.push({
    type: "result",
    subtype: "success",
    session_id: SID,
    num_turns: 4,
    duration_ms: 9000,
    total_cost_usd: 0.1,
    usage: { input_tokens: 12, cache_creation_input_tokens: 10000, cache_read_input_tokens: 83000, output_tokens: resultOutput },
    modelUsage: {},
  });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

/** The same requests as a transcript of the session (what -p writes under ~/.claude/projects). */
function transcript(): string {
  const lines: object[] = [];
  for (let i = 0; i < OUT.length; i++) {
    lines.push({
      type: "assistant",
      sessionId: SID,
      uuid: `t${i}`,
      parentUuid: null,
      isSidechain: false,
      cwd: "/tmp/x",
      version: "2.1.39",
      timestamp: `2026-11-01T10:00:0${i}.000Z`,
      message: {
        id: `msg_0${i}`,
        model: "claude-opus-5-5",
        role: "assistant",
        stop_reason: null,
        usage: usage(i),
        content: [{ type: "text", text: "ok" }],
      },
    });
  }
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

function setup(resultOutput = 2880): { dir: string; run: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), "ccf-headless-"));
  const run = join(dir, "run.jsonl");
  writeFileSync(run, stream(resultOutput));
  const home = join(dir, "claude");
  mkdirSync(join(home, "projects", "-tmp-x"), { recursive: true });
  return { dir, run, home };
}

test("report --stream-json alone: the transcript is not here, the requests come from the stream's events", async () => {
  const { run, home } = setup();
  const j = parseEnvelope(await runCli(["report", "--claude-dir", home, "--stream-json", run, "--json"]), "report");
  assert.equal(j.summary.transcriptMissing, true);
  assert.equal(j.summary.requestsFrom, "claude-p-output");
  assert.equal(j.summary.requestsAllChains, 4);
  assert.deepEqual(
    j.requests.map((r: any) => r.fragments),
    [2, 2, 2, 1],
  );
  assert.deepEqual(
    j.requests.map((r: any) => r.totalInputTokens),
    [21003, 22503, 24003, 25503],
  );
  assert.deepEqual(
    j.requests.map((r: any) => r.added.toolResultChars),
    [0, 100, 200, 300],
  );
  assert.deepEqual(
    j.requests.map((r: any) => r.outputSource),
    ["claude-p-result", "claude-p-result", "claude-p-result", "claude-p-result"],
  );
  assert.deepEqual(
    j.requests.map((r: any) => r.outputTokensRecorded),
    OUT,
  );
  assert.equal(j.totals[0].outputPlaceholders, 0);
  const t = await runCli(["report", "--claude-dir", home, "--stream-json", run]);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /transcript +│ not found on this machine/);
  assert.match(t.stdout, /requests \(all chains\) +│ +4/);
  assert.match(t.stdout, /read from the claude -p output's assistant events/);
});

test("report - --stream-json with empty stdin: the stream's 4 requests, not 0", async () => {
  const { run } = setup();
  const j = parseEnvelope(await runCli(["report", "-", "--stream-json", run, "--json"], { stdin: "" }), "report");
  assert.equal(j.summary.requests, 4);
  assert.equal(j.summary.requestsFrom, "claude-p-output");
  assert.equal(j.summary.transcriptMissing, false);
});

test("requests --stream-json alone: the same rows, with a note that the transcript was not found", async () => {
  const { run, home } = setup();
  const j = parseEnvelope(await runCli(["requests", "--claude-dir", home, "--stream-json", run, "--json"]), "requests");
  assert.equal(j.requestsFrom, "claude-p-output");
  assert.equal(j.requests.length, 4);
  assert.ok(j.inputs.some((i: any) => i.kind === "stream-json"));
  const t = await runCli(["requests", "--claude-dir", home, "--stream-json", run]);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, new RegExp(`transcript of session ${SID} not found on this machine`));
  assert.doesNotMatch(t.stdout, /streaming placeholder/);
  assert.match(t.stdout, /add up to the claude -p result's usage\.output_tokens/);
});

test("transcript found: output counts confirmed by the result are not placeholders; a mismatch keeps the flag", async () => {
  for (const [resultOutput, source, placeholders] of [
    [2880, "claude-p-result", 0],
    [2881, "placeholder", 4],
  ] as const) {
    const { run, home } = setup(resultOutput);
    writeFileSync(join(home, "projects", "-tmp-x", `${SID}.jsonl`), transcript());
    const j = parseEnvelope(await runCli(["report", "--claude-dir", home, "--stream-json", run, "--json"]), "report");
    assert.equal(j.summary.requestsFrom, "transcript");
    assert.equal(j.summary.transcriptMissing, false);
    assert.deepEqual(
      j.requests.map((r: any) => r.outputSource),
      Array(4).fill(source),
      `result ${resultOutput}`,
    );
    assert.deepEqual(
      j.requests.map((r: any) => r.outputPlaceholder),
      Array(4).fill(placeholders > 0),
    );
    assert.deepEqual(
      j.requests.map((r: any) => r.outputTokens),
      OUT,
    );
    assert.equal(j.totals[0].outputPlaceholders, placeholders);
    // Without the run the transcript alone cannot tell: placeholders, as recorded.
    const alone = parseEnvelope(await runCli(["requests", "--claude-dir", home, SID, "--json"]), "requests");
    assert.deepEqual(
      alone.requests.map((r: any) => r.outputSource),
      Array(4).fill("placeholder"),
    );
  }
});

test("every count says what it counts: sessions counts the main chain, report all chains; a subagent file is its own chain", async () => {
  const { home } = setup();
  const folder = join(home, "projects", "-tmp-x");
  writeFileSync(join(folder, `${SID}.jsonl`), transcript());
  mkdirSync(join(folder, SID, "subagents"), { recursive: true });
  const agent = join(folder, SID, "subagents", "agent-a77.jsonl");
  writeFileSync(
    agent,
    JSON.stringify({
      type: "assistant",
      sessionId: SID,
      agentId: "a77",
      isSidechain: true,
      uuid: "s1",
      parentUuid: null,
      cwd: "/tmp/x",
      timestamp: "2026-11-01T10:00:05.000Z",
      message: { id: "msg_s1", model: "claude-haiku-5", role: "assistant", stop_reason: "end_turn", usage: usage(0), content: [] },
    }) + "\n",
  );
  const s = await runCli(["sessions", "--claude-dir", home]);
  assert.equal(s.code, 0, s.stderr);
  assert.match(s.stdout, /requests \(main chain\)/);
  const sj = parseEnvelope(await runCli(["sessions", "--claude-dir", home, "--json"]), "sessions");
  assert.equal(sj.sessions[0].requests, 4);
  const r = parseEnvelope(await runCli(["report", "--claude-dir", home, SID, "--json"]), "report");
  assert.deepEqual([r.summary.requests, r.summary.requestsAllChains, r.summary.requestsMainChain], [5, 5, 4]);
  const sub = await runCli(["requests", agent]);
  assert.equal(sub.code, 0, sub.stderr);
  assert.match(sub.stdout, /Requests \(subagent a77\)/);
  assert.doesNotMatch(sub.stdout, /main chain/);
});

test("a run of one request: the result's output count is that request's when the input side matches, whatever its placeholder said", async () => {
  const S = "eeeeeeee-0000-4000-8000-000000000005";
  const usage = (out: number) => ({ input_tokens: 3, cache_creation_input_tokens: 20000, cache_read_input_tokens: 0, output_tokens: out });
  const assistantMsg = {
    model: "claude-opus-5-5",
    id: "msg_1",
    type: "message",
    role: "assistant",
    content: [{ type: "text", text: "hi" }],
    stop_reason: null,
    usage: usage(2),
  };
  for (const [resultInput, output, source] of [
    [3, 27, "claude-p-result"],
    [4, 2, "placeholder"],
  ] as const) {
    const dir = mkdtempSync(join(tmpdir(), "ccf-one-"));
    const run = join(dir, "run.stream.jsonl");
    const lines = [
      { type: "system", subtype: "init", cwd: "/tmp/x", session_id: S, tools: [], mcp_servers: [], model: "claude-opus-5-5" },
      { type: "assistant", message: assistantMsg, parent_tool_use_id: null, session_id: S },
      {
        type: "result",
        subtype: "success",
        is_error: false,
        num_turns: 1,
        result: "hi",
        session_id: S,
        usage: { ...usage(27), input_tokens: resultInput },
      },
    ];
    writeFileSync(run, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const j = parseEnvelope(await runCli(["requests", "--claude-dir", join(dir, "none"), "--stream-json", run, "--json"]), "requests");
    assert.deepEqual(
      j.requests.map((r: any) => [r.outputTokens, r.outputTokensRecorded, r.outputSource]),
      [[output, 2, source]],
    );
    assert.equal(j.totals[0].outputTokens, output);
  }
});

test("report --stream-json alone: the summary's tool results agree with the requests' +results, each figure saying where it is from", async () => {
  const { run, home } = setup();
  const j = parseEnvelope(await runCli(["report", "--claude-dir", home, "--stream-json", run, "--json"]), "report");
  const added = j.requests.reduce((n: number, r: any) => n + r.added.toolResults, 0);
  assert.equal(added, 3);
  assert.equal(j.run.toolResults, 3, "the run's user events carry 3 tool_result blocks");
  const t = await runCli(["report", "--claude-dir", home, "--stream-json", run]);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /tool results \(transcript\) +│ +0 +│/);
  assert.match(t.stdout, /tool results \(claude -p output\) +│ +3 +│/);
  assert.doesNotMatch(t.stdout, /│ tool results +│/);
  // With the transcript the summary's one line counts what the Tool outputs section lists, as before.
  writeFileSync(join(home, "projects", "-tmp-x", `${SID}.jsonl`), transcript());
  const found = await runCli(["report", "--claude-dir", home, "--stream-json", run]);
  assert.equal(found.code, 0, found.stderr);
  assert.match(found.stdout, /│ tool results +│ +0 +│/);
  assert.doesNotMatch(found.stdout, /tool results \(/);
});
