import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { requestsAnalysisWith } from "../../src/analyses/requests.js";
import { Fanout } from "../../src/analyses/analysis.js";
import { readRecords } from "../../src/pipeline/runner.js";
import { emptyHealth } from "../../src/records/health.js";
import { subagentTranscriptSource, transcriptSource } from "../../src/records/transcript-source.js";
import type { InputFile } from "../../src/sources/input.js";
import { assistant, jsonl, toolResult, userText } from "../builders.js";

// Joining a subagent to its parent's Task/Agent results (FORMATS.md 4.6, 11): a resumed subagent (one
// agentId, one result per leg), the .meta.json toolUseId link, a prompt several chains share, and why a
// result was joined to no chain (/tmp review findings F1, F2, F4).

async function run(main: string, subs: Record<string, string>, taskLinks?: Map<string, string>) {
  const fan = new Fanout({ requests: requestsAnalysisWith({ taskLinks }) });
  const inputs: Array<[InputFile, string]> = [
    [{ path: "-", kind: "transcript", bytes: 0, sha256: "", chain: "main" }, main],
    ...Object.entries(subs).map(([c, t]): [InputFile, string] => [
      { path: "-", kind: "subagent-transcript", bytes: 0, sha256: "", chain: c },
      t,
    ]),
  ];
  for (const [input, text] of inputs) {
    const source = input.kind === "transcript" ? transcriptSource : subagentTranscriptSource;
    for await (const r of readRecords(input, source, emptyHealth(), { stdin: Readable.from([Buffer.from(text)]) })) fan.step(r);
  }
  const r = fan.finish().requests;
  return { ...r, requests: r.requests.toArray() };
}

const side = (agentId: string) => ({ isSidechain: true, agentId });
const input = (cc: number, cr: number) => ({ input_tokens: 1, cache_creation_input_tokens: cc, cache_read_input_tokens: cr });

/** A subagent's requests, `[cc, cr, output, stop]` each, with a prompt before each leg (a new leg: a resume). */
function subagent(agentId: string, legs: Array<{ prompt: string; requests: Array<[number, number, number, string | null]> }>) {
  return jsonl(
    ...legs.flatMap((leg) => [
      userText(leg.prompt, side(agentId)),
      ...leg.requests.map(([cc, cr, out, stop]) =>
        assistant({ usage: { ...input(cc, cr), output_tokens: out }, stop, extra: side(agentId) }),
      ),
    ]),
  );
}

interface Result {
  id: string;
  prompt: string;
  agentId?: string;
  usage: [number, number, number] | null;
}

/** The parent: one Task call and its result after another (a resume is a second call), then the end. */
function parent(results: Result[]) {
  return jsonl(
    userText("go"),
    ...results.flatMap((r) => [
      assistant({ stop: "tool_use", blocks: [{ type: "tool_use", id: r.id, name: "Task", input: { prompt: r.prompt } }] }),
      toolResult(r.id, "done", {
        toolUseResult: {
          status: "completed",
          prompt: r.prompt,
          ...(r.agentId ? { agentId: r.agentId } : {}),
          ...(r.usage ? { usage: { ...input(r.usage[0], r.usage[1]), output_tokens: r.usage[2] } } : {}),
        },
      }),
    ]),
    assistant({ stop: "end_turn" }),
  );
}

const rowsOf = (r: Awaited<ReturnType<typeof run>>, chain: string) =>
  r.requests.filter((q) => q.chain === chain).map((q) => [q.index, q.outputTokens, q.outputTokensRecorded, q.outputSource]);

const RESUMED = subagent("a7be2f0", [
  {
    prompt: "Find foo",
    requests: [
      [3000, 0, 40, "tool_use"],
      [3000, 5000, 1, null],
    ],
  },
  { prompt: "Now find bar", requests: [[200, 8000, 2, null]] },
]);

test("a resumed subagent: each result takes its own leg's last request, both placeholders become the parent's counts", async () => {
  const r = await run(
    parent([
      { id: "toolu_T1", prompt: "Find foo", agentId: "a7be2f0", usage: [3000, 5000, 777] },
      { id: "toolu_T2", prompt: "Now find bar", agentId: "a7be2f0", usage: [200, 8000, 888] },
    ]),
    { a7be2f0: RESUMED },
  );
  assert.deepEqual(rowsOf(r, "a7be2f0"), [
    [1, 40, 40, "final-fragment"],
    [2, 777, 1, "parent-task-result"],
    [3, 888, 2, "parent-task-result"],
  ]);
  assert.deepEqual(
    r.subagents.map((t) => [t.chain, t.joinedBy, t.lastRequestIndex, t.matchesLastRequest, t.outputTokensApplied, t.unjoinedReason]),
    [
      ["a7be2f0", "agentId", 2, true, 777, null],
      ["a7be2f0", "agentId", 3, true, 888, null],
    ],
  );
  const t = r.totals.find((x) => x.chain === "a7be2f0")!;
  assert.deepEqual([t.outputTokens, t.outputPlaceholders, t.outputFromParent], [40 + 777 + 888, 0, 2]);
});

test("a resumed subagent: a result whose usage matches no leg changes nothing and is checked against its own leg", async () => {
  const r = await run(
    parent([
      { id: "toolu_T1", prompt: "Find foo", agentId: "a7be2f0", usage: [3000, 5001, 777] },
      { id: "toolu_T2", prompt: "Now find bar", agentId: "a7be2f0", usage: [200, 8000, 888] },
    ]),
    { a7be2f0: RESUMED },
  );
  assert.deepEqual(rowsOf(r, "a7be2f0"), [
    [1, 40, 40, "final-fragment"],
    [2, 1, 1, "placeholder"],
    [3, 888, 2, "parent-task-result"],
  ]);
  assert.deepEqual(
    r.subagents.map((t) => [t.lastRequestIndex, t.matchesLastRequest]),
    [
      [2, false],
      [3, true],
    ],
  );
  const t = r.totals.find((x) => x.chain === "a7be2f0")!;
  assert.deepEqual([t.outputTokens, t.outputPlaceholders, t.outputFromParent], [40 + 1 + 888, 1, 1]);
});

test("a request speaks for one result: a second result with the same usage matches it but fixes nothing twice", async () => {
  const sub = subagent("a1", [{ prompt: "p", requests: [[100, 200, 3, null]] }]);
  const r = await run(
    parent([
      { id: "toolu_A", prompt: "p", agentId: "a1", usage: [100, 200, 50] },
      { id: "toolu_B", prompt: "q", agentId: "a1", usage: [100, 200, 60] },
    ]),
    { a1: sub },
  );
  assert.deepEqual(rowsOf(r, "a1"), [[1, 50, 3, "parent-task-result"]]);
  assert.deepEqual(
    r.subagents.map((t) => [t.chain, t.lastRequestIndex, t.matchesLastRequest, t.outputTokensApplied]),
    [
      ["a1", 1, true, 50],
      ["a1", 1, true, 50],
    ],
  );
  assert.equal(r.totals.find((x) => x.chain === "a1")!.outputTokens, 50);
});

test("the .meta.json toolUseId link joins a result with no agentId whose prompt the subagent never got, before the prompt", async () => {
  const subs = {
    a0000000000000001: subagent("a0000000000000001", [{ prompt: "Different wording", requests: [[1000, 8000, 1, null]] }]),
    a0000000000000002: subagent("a0000000000000002", [{ prompt: "Parent wording", requests: [[100, 100, 3, null]] }]),
  };
  const main = parent([{ id: "toolu_T1", prompt: "Parent wording", usage: [1000, 8000, 999] }]);
  const without = await run(main, subs);
  // Without the link the prompt names the other chain, whose usage does not match.
  assert.deepEqual(
    without.subagents.map((t) => [t.chain, t.joinedBy, t.matchesLastRequest]),
    [["a0000000000000002", "prompt", false]],
  );
  assert.deepEqual(rowsOf(without, "a0000000000000001"), [[1, 1, 1, "placeholder"]]);
  const r = await run(main, subs, new Map([["toolu_T1", "a0000000000000001"]]));
  assert.deepEqual(
    r.subagents.map((t) => [t.chain, t.joinedBy, t.matchesLastRequest]),
    [["a0000000000000001", "toolUseId", true]],
  );
  assert.deepEqual(rowsOf(r, "a0000000000000001"), [[1, 999, 1, "parent-task-result"]]);
  assert.deepEqual(rowsOf(r, "a0000000000000002"), [[1, 3, 3, "placeholder"]]);
});

const TWINS = {
  a1aaaaa: subagent("a1aaaaa", [{ prompt: "Check the tests", requests: [[300, 7000, 2, null]] }]),
  a2bbbbb: subagent("a2bbbbb", [{ prompt: "Check the tests", requests: [[400, 9000, 2, null]] }]),
};

test("a prompt two chains share: the input side of each result's usage names its chain (joinedBy usage)", async () => {
  const r = await run(
    parent([
      { id: "toolu_T1", prompt: "Check the tests", usage: [400, 9000, 4444] },
      { id: "toolu_T2", prompt: "Check the tests", usage: [300, 7000, 3333] },
    ]),
    TWINS,
  );
  assert.deepEqual(
    r.subagents.map((t) => [t.toolUseId, t.chain, t.joinedBy, t.matchesLastRequest, t.unjoinedReason]),
    [
      ["toolu_T1", "a2bbbbb", "usage", true, null],
      ["toolu_T2", "a1aaaaa", "usage", true, null],
    ],
  );
  assert.deepEqual(rowsOf(r, "a1aaaaa"), [[1, 3333, 2, "parent-task-result"]]);
  assert.deepEqual(rowsOf(r, "a2bbbbb"), [[1, 4444, 2, "parent-task-result"]]);
});

test("why a result was joined to no chain: not read, no link, a prompt shared with no single usage match, a chain taken", async () => {
  const same = {
    a1aaaaa: subagent("a1aaaaa", [{ prompt: "Check the tests", requests: [[300, 7000, 2, null]] }]),
    a2bbbbb: subagent("a2bbbbb", [{ prompt: "Check the tests", requests: [[300, 7000, 2, null]] }]),
    a3ccccc: subagent("a3ccccc", [{ prompt: "once", requests: [[1, 1, 2, null]] }]),
  };
  const r = await run(
    parent([
      { id: "toolu_1", prompt: "x", agentId: "a9fffff", usage: [1, 1, 10] },
      { id: "toolu_2", prompt: "nobody got this", usage: [1, 1, 10] },
      { id: "toolu_3", prompt: "Check the tests", usage: [300, 7000, 10] },
      { id: "toolu_4", prompt: "once", usage: [1, 1, 10] },
      { id: "toolu_5", prompt: "once", usage: [1, 1, 11] },
    ]),
    same,
  );
  assert.deepEqual(
    r.subagents.map((t) => [t.toolUseId, t.chain, t.joinedBy, t.unjoinedReason, t.promptChains]),
    [
      ["toolu_1", null, null, "not-read", null],
      ["toolu_2", null, null, "no-link", null],
      ["toolu_3", null, null, "prompt-shared", 2],
      ["toolu_4", "a3ccccc", "prompt", null, null],
      ["toolu_5", null, null, "taken", null],
    ],
  );
  assert.ok(r.requests.filter((q) => q.chain !== "a3ccccc").every((q) => q.outputSource !== "parent-task-result"));
});
