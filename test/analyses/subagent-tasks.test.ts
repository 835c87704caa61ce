import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { requestsAnalysis } from "../../src/analyses/requests.js";
import { Fanout } from "../../src/analyses/analysis.js";
import { promptKey } from "../../src/analyses/subagent-tasks.js";
import { createHash } from "node:crypto";
import { readRecords } from "../../src/pipeline/runner.js";
import { emptyHealth } from "../../src/records/health.js";
import { subagentTranscriptSource, transcriptSource } from "../../src/records/transcript-source.js";
import type { InputFile } from "../../src/sources/input.js";
import { assistant, jsonl, toolResult, userText } from "../builders.js";

/** The main chain's text, then each subagent's, as a session with its subagents folder is read. */
async function run(main: string, subs: Record<string, string>) {
  const fan = new Fanout({ requests: requestsAnalysis });
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

const LAST = { input_tokens: 1, cache_creation_input_tokens: 73, cache_read_input_tokens: 6202 };
const side = (agentId: string) => ({ isSidechain: true, agentId });

function subagent(agentId: string, prompt: string, lastOut: number, stop: string | null = null) {
  return jsonl(
    userText(prompt, side(agentId)),
    assistant({ usage: { input_tokens: 3, cache_creation_input_tokens: 6120, output_tokens: 40 }, extra: side(agentId) }),
    assistant({ usage: { ...LAST, output_tokens: lastOut }, stop, extra: side(agentId) }),
  );
}

function parent(results: Array<{ id: string; tool?: string; prompt: string; result: Record<string, unknown> }>, extra: string[] = []) {
  return jsonl(
    userText("go"),
    assistant({
      stop: "tool_use",
      blocks: results.map((r) => ({ type: "tool_use", id: r.id, name: r.tool ?? "Task", input: { prompt: r.prompt } })),
    }),
    ...results.map((r) => toolResult(r.id, "done", { toolUseResult: r.result })),
    ...extra.map((e) => JSON.parse(e)),
  );
}

const usage = (output: number, over: Record<string, number> = {}) => ({ ...LAST, output_tokens: output, ...over });

test("joined by agentId: the placeholder on the last request becomes the parent's count", async () => {
  const r = await run(parent([{ id: "toolu_A", prompt: "p", result: { agentId: "a1", usage: usage(1545), totalDurationMs: 5 } }]), {
    a1: subagent("a1", "p", 2),
  });
  const last = r.requests.filter((q) => q.chain === "a1").at(-1)!;
  assert.deepEqual([last.outputTokens, last.outputTokensRecorded, last.outputSource], [1545, 2, "parent-task-result"]);
  const t = r.totals.find((x) => x.chain === "a1")!;
  assert.deepEqual([t.outputTokens, t.outputPlaceholders, t.task?.joinedBy, t.task?.totalDurationMs], [40 + 1545, 0, "agentId", 5]);
});

test("joined by the tool_use id an agent_progress record names, when the result has no agentId", async () => {
  const progress = JSON.stringify({
    type: "progress",
    parentToolUseID: "toolu_A",
    data: { type: "agent_progress", agentId: "a1" },
    sessionId: "s-1",
  });
  const r = await run(parent([{ id: "toolu_A", prompt: "not the prompt", result: { usage: usage(900) } }], [progress]), {
    a1: subagent("a1", "p", 3),
  });
  assert.equal(r.subagents[0]!.joinedBy, "toolUseId");
  assert.equal(r.requests.at(-1)!.outputTokens, 900);
});

test("joined by prompt, but never when two chains start with the same prompt", async () => {
  const one = await run(parent([{ id: "toolu_A", prompt: "same", result: { usage: usage(700) } }]), { a1: subagent("a1", "same", 1) });
  assert.equal(one.subagents[0]!.joinedBy, "prompt");
  const two = await run(parent([{ id: "toolu_A", prompt: "same", result: { usage: usage(700) } }]), {
    a1: subagent("a1", "same", 1),
    a2: subagent("a2", "same", 1),
  });
  assert.equal(two.subagents[0]!.chain, null);
  assert.ok(two.requests.every((q) => q.outputSource !== "parent-task-result"));
});

test("a final fragment keeps its own count; a usage off on the input side changes nothing", async () => {
  const final = await run(parent([{ id: "toolu_A", prompt: "p", result: { agentId: "a1", usage: usage(1545) } }]), {
    a1: subagent("a1", "p", 1200, "end_turn"),
  });
  assert.deepEqual([final.requests.at(-1)!.outputTokens, final.requests.at(-1)!.outputSource], [1200, "final-fragment"]);
  assert.equal(final.subagents[0]!.matchesLastRequest, true);
  const off = await run(
    parent([{ id: "toolu_A", prompt: "p", result: { agentId: "a1", usage: usage(1545, { cache_read_input_tokens: 6203 }) } }]),
    {
      a1: subagent("a1", "p", 2),
    },
  );
  assert.deepEqual([off.requests.at(-1)!.outputTokens, off.requests.at(-1)!.outputSource], [2, "placeholder"]);
  assert.equal(off.subagents[0]!.matchesLastRequest, false);
});

test("a result whose subagent was not read is listed with no chain; other tools' results are not read at all", async () => {
  const r = await run(
    parent([
      { id: "toolu_A", prompt: "p", result: { agentId: "a9", usage: usage(10) } },
      { id: "toolu_B", tool: "Bash", prompt: "p", result: { agentId: "a1", usage: usage(10) } },
    ]),
    { a1: subagent("a1", "q", 2) },
  );
  assert.deepEqual(
    r.subagents.map((t) => [t.toolUseId, t.chain]),
    [["toolu_A", null]],
  );
});

test("a Task result that is an error string, or whose usage holds no counts, is listed and changes no request", async () => {
  const r = await run(
    parent([
      { id: "toolu_A", prompt: "p", result: "Error: agent interrupted" as unknown as Record<string, unknown> },
      { id: "toolu_B", prompt: "q", result: { agentId: "a2", usage: { input_tokens: "1", cache_read_input_tokens: -5 } } },
    ]),
    { a1: subagent("a1", "p", 2), a2: subagent("a2", "q", 3) },
  );
  assert.deepEqual(
    r.subagents.map((t) => [t.chain, t.joinedBy, t.status, t.matchesLastRequest]),
    [
      ["a1", "prompt", null, null],
      ["a2", "agentId", null, false],
    ],
  );
  assert.ok(r.requests.every((q) => q.outputSource !== "parent-task-result"));
});

test("promptKey: one crypto.hash call gives the Hash object's digest of the trimmed prompt, lone surrogates and all", () => {
  const whole = (t: unknown) => (typeof t === "string" && t.trim() !== "" ? createHash("sha1").update(t.trim()).digest("base64") : null);
  const texts: unknown[] = [
    "",
    "  ",
    "\n\t",
    "Explore the repo",
    "  padded  ",
    "é😀日本",
    "\ud800",
    "a\udc00b",
    "\ud83d\ude00",
    "\u0000",
    "x".repeat(100_000),
    5,
    null,
    undefined,
  ];
  for (let c = 0; c < 0x3000; c += 7) texts.push(`p${String.fromCharCode(c)}q`);
  for (const t of texts) assert.equal(promptKey(t), whole(t), JSON.stringify(t)?.slice(0, 40));
});
