import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { requestsAnalysis } from "../../src/analyses/requests.js";
import { OPEN_CHAINS } from "../../src/analyses/open-chains.js";
import { Fanout } from "../../src/analyses/analysis.js";
import { readRecords } from "../../src/pipeline/runner.js";
import { emptyHealth } from "../../src/records/health.js";
import { transcriptSource } from "../../src/records/transcript-source.js";
import type { InputFile } from "../../src/sources/input.js";
import { assistant, attachment, jsonl, toolResult, userText } from "../builders.js";

async function run(chains: Record<string, string>) {
  const fan = new Fanout({ requests: requestsAnalysis });
  const inputs: InputFile[] = Object.keys(chains).map((c) => ({ path: "-", kind: "transcript", bytes: 0, sha256: "", chain: c }));
  for (const input of inputs) {
    for await (const r of readRecords(input, transcriptSource, emptyHealth(), {
      stdin: Readable.from([Buffer.from(chains[input.chain!]!)]),
    }))
      fan.step(r);
  }
  const r = fan.finish().requests;
  return { ...r, requests: r.requests.toArray() };
}

test("fragments of one response merge: max of each usage field, never the sum or the first", async () => {
  const u1 = { input_tokens: 3, cache_creation_input_tokens: 500, cache_read_input_tokens: 2000, output_tokens: 2 };
  const u2 = {
    input_tokens: 3,
    cache_creation_input_tokens: 500,
    cache_read_input_tokens: 2000,
    output_tokens: 441,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 500 },
  };
  const r = await run({
    main: jsonl(
      userText("hi"),
      assistant({ id: "msg_A", requestId: "req_A", usage: u1, stop: null, blocks: [{ type: "thinking", thinking: "" }] }),
      assistant({ id: "msg_A", requestId: "req_A", usage: u1, stop: null, blocks: [{ type: "text", text: "x" }] }),
      assistant({
        id: "msg_A",
        requestId: "req_A",
        usage: u2,
        stop: "tool_use",
        blocks: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: {} }],
      }),
    ),
  });
  assert.equal(r.requests.length, 1);
  const q = r.requests[0]!;
  assert.equal(q.fragments, 3);
  assert.equal(q.totalInputTokens, 2503);
  assert.equal(q.outputTokens, 441);
  assert.equal(q.outputPlaceholder, false);
  assert.equal(q.cacheCreation1h, 500);
  assert.equal(q.cacheCreation5m, 0);
  assert.deepEqual(q.toolUses, [{ id: "toolu_1", name: "Bash" }]);
  assert.equal(q.line, 2);
  assert.equal(r.totals[0]!.cacheReadInputTokens, 2000);
});

test("interleaved tool results (asst X, result A, asst X, result B) all count as added before the next request", async () => {
  const r = await run({
    main: jsonl(
      assistant({
        id: "msg_X",
        usage: { cache_read_input_tokens: 1000 },
        stop: null,
        blocks: [{ type: "tool_use", id: "t_a", name: "Read", input: {} }],
      }),
      toolResult("t_a", "aaaa"),
      assistant({
        id: "msg_X",
        usage: { cache_read_input_tokens: 1000 },
        stop: "tool_use",
        blocks: [{ type: "tool_use", id: "t_b", name: "Read", input: {} }],
      }),
      toolResult("t_b", [
        { type: "text", text: "bbbbbb" },
        { type: "image", source: {} },
      ]),
      attachment({ type: "mcp_instructions_delta", addedNames: ["lab"], addedBlocks: ["## lab\nabc"], removedNames: [] }),
      assistant({ id: "msg_Y", usage: { cache_read_input_tokens: 1100 } }),
    ),
  });
  assert.equal(r.requests.length, 2);
  const [x, y] = r.requests;
  assert.equal(x!.fragments, 2);
  assert.equal(y!.deltaTokens, 100);
  assert.equal(y!.added.toolResults, 2);
  assert.equal(y!.added.toolResultChars, 10);
  assert.equal(y!.added.images, 1);
  assert.equal(y!.added.attachments, 1);
  // 148 chars of wrapper before "## lab\n"+text minus the 7 of "## lab\n" already counted: the rendered block.
  assert.equal(
    y!.added.attachmentChars,
    "<system-reminder>\n# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n## lab\nabc\n</system-reminder>"
      .length,
  );
  assert.equal(y!.added.attachmentCharsExact, true);
});

test("<synthetic> and API error records are counted apart, never requests", async () => {
  const r = await run({
    main: jsonl(
      assistant({ id: "msg_1", usage: { cache_read_input_tokens: 10 } }),
      assistant({ model: "<synthetic>", usage: { cache_read_input_tokens: 0 } }),
      assistant({ id: "msg_e", extra: { isApiErrorMessage: true } }),
      assistant({ id: "msg_2", usage: { cache_read_input_tokens: 30 } }),
    ),
  });
  assert.deepEqual(
    r.requests.map((q) => [q.index, q.deltaTokens]),
    [
      [1, null],
      [2, 20],
    ],
  );
  assert.equal(r.totals[0]!.synthetic, 1);
  assert.equal(r.totals[0]!.apiErrors, 1);
});

test("a request whose fragments never carry stop_reason is flagged as a placeholder output", async () => {
  const r = await run({
    main: jsonl(
      assistant({ id: "m", stop: null, usage: { output_tokens: 3 } }),
      assistant({ id: "m", stop: null, usage: { output_tokens: 3 } }),
    ),
  });
  assert.equal(r.requests[0]!.outputPlaceholder, true);
  assert.equal(r.totals[0]!.outputPlaceholders, 1);
});

test("chains are separate; a message id already seen in another chain is a duplicate left out of totals", async () => {
  const r = await run({
    main: jsonl(
      assistant({ id: "msg_1", usage: { cache_read_input_tokens: 100 } }),
      assistant({ id: "msg_2", usage: { cache_read_input_tokens: 150 } }),
    ),
    a123: jsonl(
      assistant({ id: "msg_1", usage: { cache_read_input_tokens: 100 } }),
      assistant({ id: "msg_9", usage: { cache_read_input_tokens: 400 } }),
    ),
  });
  const sub = r.requests.filter((q) => q.chain === "a123");
  assert.deepEqual(
    sub.map((q) => [q.index, q.duplicateOf, q.deltaTokens]),
    [
      [1, "main#1", null],
      [2, null, 300],
    ],
  );
  const t = r.totals.find((x) => x.chain === "a123")!;
  assert.equal(t.requests, 1);
  assert.equal(t.duplicates, 1);
  assert.equal(t.totalInputTokens, 403);
});

test("fall back to requestId, then uuid, when message.id is missing", async () => {
  const a = assistant({ requestId: "req_Q", usage: { cache_read_input_tokens: 5 } }) as any;
  delete a.message.id;
  const b = JSON.parse(JSON.stringify(a));
  b.uuid = "other";
  const r = await run({ main: jsonl(a, b) });
  assert.equal(r.requests.length, 1);
  assert.equal(r.requests[0]!.fragments, 2);
});

const boundary = (trigger: string, preTokens: number) => ({
  parentUuid: null,
  logicalParentUuid: "u-before",
  type: "system",
  subtype: "compact_boundary",
  content: "Conversation compacted",
  compactMetadata: { trigger, preTokens },
});
const SUMMARY = "This session is being continued from a previous conversation that ran out of context.";

test("a compaction boundary makes the next request a reset: no delta, the boundary's trigger and preTokens, a new segment", async () => {
  const r = await run({
    main: jsonl(
      assistant({ id: "m1", usage: { cache_read_input_tokens: 900 } }),
      boundary("auto", 950),
      userText(SUMMARY, { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
      assistant({ id: "m2", usage: { cache_read_input_tokens: 100 } }),
      userText("next"),
      assistant({ id: "m3", usage: { cache_read_input_tokens: 130 } }),
    ),
  });
  assert.deepEqual(
    r.requests.map((q) => [q.afterCompaction, q.deltaTokens, q.segment]),
    [
      [false, null, 1],
      [true, null, 2],
      [false, 30, 2],
    ],
  );
  assert.deepEqual(r.requests[1]!.compaction, {
    trigger: "auto",
    preTokens: 950,
    file: "-",
    line: 2,
    boundaries: 1,
    kind: "compact",
    tokensSaved: null,
  });
  assert.equal(r.requests[2]!.compaction, null);
  assert.equal(r.totals[0]!.compactions, 1);
});

test("a tool result and an attachment right before a boundary are added to no request; the summary is not user text", async () => {
  const r = await run({
    main: jsonl(
      assistant({
        id: "m1",
        usage: { cache_read_input_tokens: 900 },
        stop: "tool_use",
        blocks: [{ type: "tool_use", id: "t1", name: "Edit", input: {} }],
      }),
      toolResult("t1", "The file has been updated successfully."),
      attachment({ type: "edited_text_file", filename: "/x", snippet: "1\tx" }),
      boundary("auto", 980),
      userText(SUMMARY, { isCompactSummary: true }),
      assistant({ id: "m2", usage: { cache_read_input_tokens: 100 } }),
    ),
  });
  const a = r.requests[1]!.added;
  assert.deepEqual([a.toolResults, a.toolResultChars, a.attachments, a.userTextChars, a.compactSummaryChars], [0, 0, 0, 0, SUMMARY.length]);
});

test("several boundaries in one file: each reset names its own, two in a row count as one reset with both", async () => {
  const r = await run({
    main: jsonl(
      assistant({ id: "m1", usage: { cache_read_input_tokens: 900 } }),
      boundary("auto", 950),
      assistant({ id: "m2", usage: { cache_read_input_tokens: 100 } }),
      boundary("manual", 300),
      boundary("manual", 120),
      assistant({ id: "m3", usage: { cache_read_input_tokens: 90 } }),
    ),
  });
  assert.deepEqual(
    r.requests.map((q) => [
      q.deltaTokens,
      q.segment,
      q.compaction?.trigger ?? null,
      q.compaction?.preTokens ?? null,
      q.compaction?.boundaries ?? 0,
    ]),
    [
      [null, 1, null, null, 0],
      [null, 2, "auto", 950, 1],
      [null, 3, "manual", 120, 2],
    ],
  );
  assert.equal(r.totals[0]!.compactions, 3);
});

const micro = (tokensSaved: number, preTokens: number, ids: string[]) => ({
  type: "system",
  subtype: "microcompact_boundary",
  content: "Context microcompacted",
  level: "info",
  microcompactMetadata: { trigger: "auto", preTokens, tokensSaved, compactedToolIds: ids },
});

test("a microcompaction boundary makes the next request a reset, but what was added before it still counts as added", async () => {
  const r = await run({
    main: jsonl(
      assistant({
        id: "m1",
        usage: { cache_read_input_tokens: 35000 },
        stop: "tool_use",
        blocks: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }],
      }),
      toolResult("t1", "ccccccccc!"),
      micro(30000, 35000, ["t0"]),
      assistant({ id: "m2", usage: { cache_read_input_tokens: 5100 } }),
      userText("next"),
      assistant({ id: "m3", usage: { cache_read_input_tokens: 5130 } }),
    ),
  });
  assert.deepEqual(
    r.requests.map((q) => [q.afterCompaction, q.deltaTokens, q.compaction?.kind ?? null]),
    [
      [false, null, null],
      [true, null, "micro"],
      [false, 30, null],
    ],
  );
  assert.deepEqual(r.requests[1]!.compaction, {
    trigger: "auto",
    preTokens: 35000,
    file: "-",
    line: 3,
    boundaries: 1,
    kind: "micro",
    tokensSaved: 30000,
  });
  assert.deepEqual([r.requests[1]!.added.toolResults, r.requests[1]!.added.toolResultChars], [1, 10]);
  assert.equal(r.totals[0]!.compactions, 1);
});

test("a compaction and a microcompaction between two requests: the compaction decides (nothing before it counts as added)", async () => {
  for (const order of [
    [boundary("manual", 900), micro(10, 800, [])],
    [micro(10, 900, []), boundary("manual", 880)],
  ]) {
    const r = await run({
      main: jsonl(
        assistant({ id: "m1", usage: { cache_read_input_tokens: 900 } }),
        userText("lost"),
        ...order,
        assistant({ id: "m2", usage: { cache_read_input_tokens: 100 } }),
      ),
    });
    const q = r.requests[1]!;
    assert.deepEqual(
      [q.deltaTokens, q.compaction?.kind, q.compaction?.trigger, q.compaction?.boundaries, q.added.userTextChars],
      [null, "compact", "manual", 2, 0],
    );
  }
});

test("a content-replacement stub is what the model saw: the result's chars become the stub's, before or just after the request", async () => {
  const stub = "<persisted-output>\nOutput too large (117.2KB). Full output saved to: /x/tool-results/t2.txt\n</persisted-output>";
  const replace = (id: string, replacement: unknown) => ({
    type: "content-replacement",
    replacements: [{ kind: "tool-result", toolUseId: id, replacement }],
  });
  const uses = [
    { type: "tool_use", id: "t1", name: "Bash", input: {} },
    { type: "tool_use", id: "t2", name: "Bash", input: {} },
  ];
  const r = await run({
    main: jsonl(
      assistant({ id: "m1", stop: "tool_use", blocks: uses }),
      toolResult("t1", "a".repeat(1000)),
      toolResult("t2", "b".repeat(1000)),
      replace("t2", stub),
      replace("t9", stub),
      assistant({ id: "m2", stop: "tool_use", blocks: [{ type: "tool_use", id: "t3", name: "Bash", input: {} }] }),
      toolResult("t3", "c".repeat(500)),
      assistant({ id: "m3" }),
      replace("t3", [{ type: "text", text: "short" }]),
      assistant({ id: "m4" }),
    ),
  });
  assert.deepEqual(
    r.requests.map((q) => [q.added.toolResults, q.added.toolResultChars]),
    [
      [0, 0],
      [2, 1000 + stub.length],
      [1, 5],
      [0, 0],
    ],
  );
});

test("a boundary without compactMetadata still resets; trigger and preTokens are unknown", async () => {
  const r = await run({
    main: jsonl(assistant({ id: "m1" }), { type: "system", subtype: "compact_boundary" }, assistant({ id: "m2" })),
  });
  assert.deepEqual(
    [r.requests[1]!.deltaTokens, r.requests[1]!.compaction?.trigger, r.requests[1]!.compaction?.preTokens],
    [null, null, null],
  );
});

test("isMeta user text is injected context, not user text", async () => {
  const r = await run({
    main: jsonl(
      assistant({ id: "m1" }),
      userText("<system-reminder>\nx\n</system-reminder>", { isMeta: true }),
      userText("real"),
      assistant({ id: "m2" }),
    ),
  });
  assert.equal(r.requests[1]!.added.userTextChars, 4);
  assert.equal(r.requests[1]!.added.metaTextChars, "<system-reminder>\nx\n</system-reminder>".length);
});

test("fragments of messages interleaved (A B A A B C A, then a copy of B in another chain): each lands on its own row (the newest open row is tried before the map)", async () => {
  const u = (out: number, inp = 3) => ({
    input_tokens: inp,
    cache_creation_input_tokens: 10,
    cache_read_input_tokens: 100,
    output_tokens: out,
  });
  const ids = ["A", "B", "A", "A", "B", "C", "A"];
  const r = await run({
    main: jsonl(
      userText("hi"),
      ...ids.map((id, i) => assistant({ id: `msg_${id}`, requestId: `req_${id}`, usage: u(i + 1, id === "C" ? 7 : 3), stop: null })),
    ),
    other: jsonl(assistant({ id: "msg_B", requestId: "req_B", usage: u(99), stop: "end_turn" })),
  });
  const rows = r.requests.map((q) => [q.chain, q.messageId, q.fragments, q.outputTokens, q.duplicateOf]);
  assert.deepEqual(rows, [
    ["main", "msg_A", 4, 7, null],
    ["main", "msg_B", 2, 5, null],
    ["main", "msg_C", 1, 6, null],
    ["other", "msg_B", 1, 99, "main#2"],
  ]);
  assert.equal(r.requests[2]!.totalInputTokens, 117);
  assert.equal(r.totals[0]!.requests, 3);
  assert.equal(r.totals[1]!.duplicates, 1);
});

test("another chain's records between two fragments of a request do not split it (an inline sidechain mid-stream)", async () => {
  const side = { isSidechain: true, agentId: "a7777777" };
  const r = await run({
    main: jsonl(
      userText("go"),
      assistant({ id: "m1", usage: { cache_read_input_tokens: 1000, output_tokens: 5 }, stop: null }),
      userText("side prompt", side),
      assistant({ id: "s1", usage: { cache_read_input_tokens: 500, output_tokens: 7 }, extra: side }),
      assistant({ id: "m1", usage: { cache_read_input_tokens: 1000, output_tokens: 300 }, stop: "tool_use" }),
      toolResult("t1", "out"),
      assistant({ id: "m2", usage: { cache_read_input_tokens: 1200, output_tokens: 9 } }),
    ),
  });
  assert.deepEqual(
    r.requests.map((q) => [q.chain, q.index, q.messageId, q.fragments, q.outputTokens, q.outputSource, q.deltaTokens, q.duplicateOf]),
    [
      ["main", 1, "m1", 2, 300, "final-fragment", null, null],
      ["main", 2, "m2", 1, 9, "final-fragment", 200, null],
      ["a7777777", 1, "s1", 1, 7, "final-fragment", null, null],
    ],
  );
  assert.equal(r.totals.find((t) => t.chain === "main")!.duplicates, 0);
});

test(`a chain stays open while ${OPEN_CHAINS - 1} other chains are active, and is closed by one more`, async () => {
  for (const others of [OPEN_CHAINS - 1, OPEN_CHAINS]) {
    const between = Array.from({ length: others }, (_, i) => assistant({ id: `s${i}`, extra: { isSidechain: true, agentId: `a${i}` } }));
    const r = await run({
      main: jsonl(assistant({ id: "m1", stop: null }), ...between, assistant({ id: "m1", usage: { output_tokens: 300 } })),
    });
    const main = r.requests.filter((q) => q.chain === "main");
    const want =
      others < OPEN_CHAINS
        ? [[1, 2, 300, null]]
        : [
            [1, 1, 10, null],
            [2, 1, 300, "main#1"],
          ];
    assert.deepEqual(
      main.map((q) => [q.index, q.fragments, q.outputTokens, q.duplicateOf]),
      want,
      `${others} chains between`,
    );
  }
});

test("sidechain records with no agent id in a main file (older Claude Code) are a chain of their own, joined to their Task by prompt", async () => {
  const side = (uuid: string, parentUuid: string | null) => ({ isSidechain: true, uuid, parentUuid });
  const sideUsage = { input_tokens: 1, cache_creation_input_tokens: 50, cache_read_input_tokens: 500, output_tokens: 1 };
  const r = await run({
    main: jsonl(
      userText("go"),
      assistant({
        id: "m1",
        usage: { cache_creation_input_tokens: 100, cache_read_input_tokens: 1000 },
        blocks: [{ type: "tool_use", id: "toolu_T", name: "Task", input: { prompt: "side prompt" } }],
      }),
      userText("side prompt", side("5ide0000-0000-4000-8000-000000000001", null)),
      assistant({
        id: "s1",
        usage: sideUsage,
        stop: null,
        extra: side("5ide0000-0000-4000-8000-000000000002", "5ide0000-0000-4000-8000-000000000001"),
      }),
      toolResult("toolu_T", "done", {
        toolUseResult: { status: "completed", prompt: "side prompt", usage: { ...sideUsage, output_tokens: 77 } },
      }),
      assistant({ id: "m2", usage: { cache_creation_input_tokens: 200, cache_read_input_tokens: 1100 } }),
    ),
  });
  assert.deepEqual(
    r.requests.map((q) => [q.chain, q.index, q.deltaTokens, q.outputTokens, q.outputSource]),
    [
      ["main", 1, null, 10, "final-fragment"],
      ["main", 2, 200, 10, "final-fragment"],
      ["sidechain-5ide0000", 1, null, 77, "parent-task-result"],
    ],
  );
  assert.equal(r.requests[1]!.added.userTextChars, 0, "the sidechain's prompt is not added to the main chain");
  assert.deepEqual(
    r.subagents.map((t) => [t.chain, t.joinedBy, t.matchesLastRequest]),
    [["sidechain-5ide0000", "prompt", true]],
  );
});
