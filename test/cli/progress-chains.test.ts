import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assistant, jsonl, toolResult, userText } from "../builders.js";
import { parseEnvelope, runCli } from "../helpers.js";

// A 2.1.30 session (FORMATS.md 1.4): the parent embeds both subagents' records in agent_progress records, as
// 2.1.14–2.1.39 did. subagents/agent-a1111111.jsonl is there; the file of a2222222 is not (deleted, moved, or
// left out of a snapshot). Review finding F3 (case c02).
const SID = "c0200000-0000-4000-8000-000000000002";
const env = { sessionId: SID, version: "2.1.30", cwd: "/home/dev/proj" };
const side = (agentId: string) => ({ ...env, isSidechain: true, agentId });
const usage = (cc: number, cr: number, out: number) => ({
  input_tokens: 1,
  cache_creation_input_tokens: cc,
  cache_read_input_tokens: cr,
  output_tokens: out,
});
const grep = (id: string) => ({ type: "tool_use", id, name: "Grep", input: { pattern: "x" } });

/** A subagent's records: its prompt, a request calling Grep (two fragments: text, then the tool_use), the result, a last request with no final fragment. */
function subagent(agent: string, prompt: string, [cc1, cr1, cc2, cr2]: number[], last: number) {
  const x = side(agent);
  return [
    userText(prompt, x),
    assistant({ id: `msg_${agent}_1`, usage: usage(cc1!, cr1!, 5), stop: null, blocks: [{ type: "text", text: "looking" }], extra: x }),
    assistant({ id: `msg_${agent}_1`, usage: usage(cc1!, cr1!, 30), stop: "tool_use", blocks: [grep(`toolu_${agent}_0`)], extra: x }),
    toolResult(`toolu_${agent}_0`, "match ".repeat(10), x),
    assistant({ id: `msg_${agent}_2`, usage: usage(cc2!, cr2!, last), stop: null, blocks: [{ type: "text", text: "found" }], extra: x }),
  ];
}

/** The agent_progress record Claude Code wrote into the parent for one of a subagent's records. */
function progress(rec: any, parentToolUseID: string) {
  return {
    ...env,
    isSidechain: false,
    type: "progress",
    data: {
      type: "agent_progress",
      agentId: rec.agentId,
      prompt: "",
      normalizedMessages: [],
      message: { type: rec.type, message: rec.message, uuid: rec.uuid, timestamp: rec.timestamp, requestId: rec.requestId },
    },
    toolUseID: `agent_${rec.uuid}`,
    parentToolUseID,
    uuid: `p-${rec.uuid}`,
    timestamp: rec.timestamp,
  };
}

const task = (agentId: string, cc: number, cr: number, out: number) => ({ status: "completed", agentId, usage: usage(cc, cr, out) });

function config(): string {
  const s1 = subagent("a1111111", "Find foo", [3000, 5000, 200, 8000], 1);
  const s2 = subagent("a2222222", "Find bar", [3100, 5000, 300, 8100], 2);
  const main = [
    userText("do two tasks", env),
    assistant({
      id: "msg_P1",
      usage: usage(2000, 10000, 90),
      stop: "tool_use",
      blocks: [
        { type: "tool_use", id: "toolu_T1", name: "Task", input: { prompt: "Find foo" } },
        { type: "tool_use", id: "toolu_T2", name: "Task", input: { prompt: "Find bar" } },
      ],
      extra: env,
    }),
    ...s1.map((r) => progress(r, "toolu_T1")),
    ...s2.map((r) => progress(r, "toolu_T2")),
    toolResult("toolu_T1", "foo is in a.js", { ...env, toolUseResult: task("a1111111", 200, 8000, 1545) }),
    toolResult("toolu_T2", "bar is in b.js", { ...env, toolUseResult: task("a2222222", 300, 8100, 938) }),
    assistant({ id: "msg_P2", usage: usage(100, 12000, 20), extra: env }),
  ];
  const dir = mkdtempSync(join(tmpdir(), "ccf-progress-"));
  const proj = join(dir, "projects", "-home-dev-proj");
  mkdirSync(join(proj, SID, "subagents"), { recursive: true });
  writeFileSync(join(proj, `${SID}.jsonl`), jsonl(...main));
  writeFileSync(join(proj, SID, "subagents", "agent-a1111111.jsonl"), jsonl(...s1));
  return dir;
}

test("a subagent whose file is missing is read from the parent's agent_progress records; one whose file is there is read from it alone", async () => {
  const dir = config();
  try {
    for (const spill of [undefined, "0"]) {
      const r = await runCli(["requests", SID, "--claude-dir", dir, "--json"], { env: spill ? { CCFORENSICS_SPOOL_ROWS: spill } : {} });
      const j = parseEnvelope(r, "requests");
      assert.deepEqual(
        j.totals.map((t: any) => [t.chain, t.source, t.requests, t.totalInputTokens, t.duplicates]),
        [
          ["main", "file", 2, 12001 + 12101, 0],
          ["a2222222", "progress", 2, 8101 + 8401, 0],
          ["a1111111", "file", 2, 8001 + 8201, 0],
        ],
      );
      const rows = j.requests.filter((q: any) => q.chain === "a2222222");
      // Two fragments of one message in progress records: one request, max per field, not summed.
      assert.deepEqual(
        rows.map((q: any) => [q.index, q.fragments, q.outputTokensRecorded, q.totalInputTokens, q.deltaTokens, q.added.toolResults]),
        [
          [1, 2, 30, 8101, null, 0],
          [2, 1, 2, 8401, 300, 1],
        ],
      );
      // Read where the progress records lie, and the parent's Task result gives the last request its output.
      assert.ok(rows.every((q: any) => q.file.endsWith(`${SID}.jsonl`)));
      assert.deepEqual([rows[1].outputTokens, rows[1].outputSource], [938, "parent-task-result"]);
      // The file's chain as it was: its own rows, from its own file, no progress copy counted twice.
      const own = j.requests.filter((q: any) => q.chain === "a1111111");
      assert.ok(own.every((q: any) => q.file.endsWith("agent-a1111111.jsonl")));
      assert.deepEqual(
        own.map((q: any) => [q.fragments, q.outputTokens]),
        [
          [2, 30],
          [1, 1545],
        ],
      );
      assert.deepEqual(
        j.subagents.map((t: any) => [t.agentId, t.chain, t.joinedBy]),
        [
          ["a1111111", "a1111111", "agentId"],
          ["a2222222", "a2222222", "agentId"],
        ],
      );
    }
    const md = await runCli(["requests", SID, "--claude-dir", dir, "--format", "markdown"]);
    assert.match(md.stdout, /Requests \(subagent a2222222, read from the parent's progress records: its file was not read\)/);
    assert.match(md.stdout, /Requests \(subagent a1111111\)\n/);
    assert.doesNotMatch(md.stdout, /joined to no chain read/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("report and outputs count the progress-only subagent's requests and its tool result; --no-subagents reads neither", async () => {
  const dir = config();
  try {
    const rep = parseEnvelope(await runCli(["report", SID, "--claude-dir", dir, "--json"]), "report");
    assert.equal(rep.summary.requestsAllChains, 6);
    const out = parseEnvelope(await runCli(["outputs", SID, "--claude-dir", dir, "--json"]), "outputs");
    const grepOf = (agent: string) => out.toolResults.find((t: any) => t.toolUseId === `toolu_${agent}_0`);
    assert.deepEqual([grepOf("a2222222")?.tool, grepOf("a2222222")?.chars, grepOf("a2222222")?.requestIndex], ["Grep", 60, 2]);
    assert.match(grepOf("a2222222").file, new RegExp(`${SID}\\.jsonl$`));
    assert.match(grepOf("a1111111").file, /agent-a1111111\.jsonl$/);
    assert.equal(out.toolResults.length, 4);
    const main = parseEnvelope(await runCli(["requests", SID, "--claude-dir", dir, "--json", "--no-subagents"]), "requests");
    assert.deepEqual(
      main.totals.map((t: any) => t.chain),
      ["main"],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
