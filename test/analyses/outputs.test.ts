import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { Fanout } from "../../src/analyses/analysis.js";
import { fullTextOf, outputsAnalysis } from "../../src/analyses/outputs.js";
import { assembleOutputs, type OutputEvidence } from "../../src/analyses/outputs-join.js";
import { addDebugRecord, emptyDebugFacts, matchAnnotation } from "../../src/analyses/outputs-evidence.js";
import { requestsAnalysis } from "../../src/analyses/requests.js";
import { staircaseRows } from "../../src/analyses/staircase.js";
import { readDebugLog } from "../read.js";
import { readRecords } from "../../src/pipeline/runner.js";
import { emptyHealth } from "../../src/records/health.js";
import { transcriptSource } from "../../src/records/transcript-source.js";
import { toolDefsByName } from "../../src/records/tools-list.js";
import { assistant, jsonl, toolResult, userText } from "../builders.js";

const use = (id: string, name: string, input: Record<string, unknown>) => ({ type: "tool_use", id, name, input });
const usage = (total: number) => ({ input_tokens: 1, cache_creation_input_tokens: total - 1, cache_read_input_tokens: 0 });

async function run(text: string, ev: Partial<OutputEvidence> = {}) {
  const fan = new Fanout({ requests: requestsAnalysis, outputs: outputsAnalysis });
  const input = { path: "-", kind: "transcript" as const, bytes: 0, sha256: "", chain: "main" };
  for await (const r of readRecords(input, transcriptSource, emptyHealth(), { stdin: Readable.from([Buffer.from(text)]) })) fan.step(r);
  const res = fan.finish();
  return assembleOutputs(res.outputs, { requests: res.requests.requests.toArray(), saved: new Map(), debug: null, tools: null, ...ev });
}

test("a result is carried by the next new request; Δ tokens and tokens per char come from it", async () => {
  const text = "x".repeat(45_000);
  const rows = await run(
    jsonl(
      userText("call it"),
      assistant({ id: "msg_1", usage: usage(3295), blocks: [use("toolu_A", "mcp__big__emit_text", { chars: 45000 })] }),
      toolResult("toolu_A", [{ type: "text", text }], { toolUseResult: [{ type: "text", text }] }),
      assistant({ id: "msg_2", usage: usage(3295 + 17514) }),
    ),
  );
  assert.equal(rows.length, 1);
  const r = rows[0]!;
  assert.deepEqual([r.tool, r.server, r.toolName, r.inputSummary], ["mcp__big__emit_text", "big", "emit_text", "chars=45000"]);
  assert.deepEqual([r.check, r.modelSaw, r.chars, r.fullChars, r.resultChars], ["inline", "inline", 45000, 45000, 45000]);
  assert.deepEqual([r.requestIndex, r.deltaTokens, r.resultsInRequest, r.lastRequestTokens], [2, 17514, 1, 20809]);
  assert.equal(r.tokensPerChar!.toFixed(3), "0.389");
  assert.equal(r.countTokensConsulted, null, "no debug log: unknown, not false");
});

test("CJK: chars, code points and UTF-8 bytes differ; an astral char is 2 chars and 1 code point", async () => {
  const text = "漢字テスト😀";
  const rows = await run(
    jsonl(
      assistant({ id: "msg_1", usage: usage(100), blocks: [use("toolu_C", "mcp__big__emit_text", { chars: 7 })] }),
      toolResult("toolu_C", text),
      assistant({ id: "msg_2", usage: usage(120) }),
    ),
  );
  assert.deepEqual([rows[0]!.chars, rows[0]!.codePoints, rows[0]!.utf8Bytes], [7, 6, 19]);
});

test("budget: the content-replacement stub is what the model saw; cleared: microcompact ids and the cleared text", async () => {
  const stub =
    "<persisted-output>\nOutput too large (44.9KB). Full output saved to: /home/dev/.claude/projects/k/s/tool-results/toolu_B.txt\n\nPreview (first 2KB):\nline\n...\n</persisted-output>";
  const full = "y".repeat(46_000);
  const rows = await run(
    jsonl(
      assistant({
        id: "msg_1",
        usage: usage(1000),
        blocks: [use("toolu_B", "Read", { file_path: "/a.log" }), use("toolu_D", "Bash", { command: "ls" })],
      }),
      toolResult("toolu_B", full),
      toolResult("toolu_D", "a\nb", { toolUseResult: { stdout: "a\nb", stderr: "" } }),
      { type: "content-replacement", sessionId: "s-1", replacements: [{ kind: "tool-result", toolUseId: "toolu_B", replacement: stub }] },
      assistant({ id: "msg_2", usage: usage(2000), blocks: [use("toolu_E", "Bash", { command: "cat x" })] }),
      {
        type: "system",
        subtype: "microcompact_boundary",
        content: "Context microcompacted",
        microcompactMetadata: { preTokens: 2000, tokensSaved: 10, compactedToolIds: ["toolu_D"] },
      },
      toolResult("toolu_E", "[Old tool result content cleared]"),
      assistant({ id: "msg_3", usage: usage(1990) }),
    ),
  );
  const [b, d, e] = rows;
  assert.deepEqual(
    [b!.check, b!.originalCheck, b!.chars, b!.resultChars, b!.reportedSize, b!.savedFormat, b!.modelSaw],
    ["budget", "inline", stub.length, 46000, "44.9KB", "text", "preview"],
  );
  assert.equal(b!.savedPath, "/home/dev/.claude/projects/k/s/tool-results/toolu_B.txt");
  assert.deepEqual([d!.check, d!.originalCheck, d!.modelSaw, d!.fullChars], ["cleared", "inline", "cleared", 3]);
  assert.deepEqual([e!.check, e!.originalCheck], ["cleared", null]);
  assert.equal(b!.resultsInRequest, 2, "two results share request 2");
});

test("compactions: a result before a compaction's boundary is carried by no request; after a microcompaction it is, uncharged", async () => {
  const rows = await run(
    jsonl(
      assistant({ id: "msg_1", usage: usage(9000), blocks: [use("toolu_A", "Bash", { command: "a" })] }),
      toolResult("toolu_A", "a".repeat(3000)),
      { type: "system", subtype: "compact_boundary", compactMetadata: { trigger: "auto", preTokens: 9800 } },
      userText("This session is being continued from a previous conversation.", { isCompactSummary: true }),
      assistant({ id: "msg_2", usage: usage(2000), blocks: [use("toolu_B", "Bash", { command: "b" })] }),
      toolResult("toolu_B", "b".repeat(500)),
      {
        type: "system",
        subtype: "microcompact_boundary",
        microcompactMetadata: { trigger: "auto", preTokens: 2600, tokensSaved: 1500, compactedToolIds: ["toolu_X"] },
      },
      assistant({ id: "msg_3", usage: usage(1200) }),
    ),
  );
  const [a, b] = rows;
  assert.deepEqual(
    [a!.requestIndex, a!.deltaTokens, a!.afterCompaction, a!.compaction?.kind, a!.resultsInRequest],
    [null, null, true, "compact", null],
  );
  assert.deepEqual(
    [b!.requestIndex, b!.deltaTokens, b!.tokensPerChar, b!.afterCompaction, b!.compaction?.kind, b!.compaction?.tokensSaved],
    [3, null, null, true, "micro", 1500],
  );
});

test("copies: a result and call repeated in another chain (fork, resume copy) are listed once, and counted as copies", async () => {
  const fan = new Fanout({ requests: requestsAnalysis, outputs: outputsAnalysis });
  const history = jsonl(
    assistant({ id: "msg_1", usage: usage(1000), blocks: [use("toolu_A", "mcp__lab__ping", {})] }),
    toolResult("toolu_A", "p".repeat(500)),
    assistant({ id: "msg_2", usage: usage(1300) }),
  );
  const fork = history.replace(/"isSidechain":false/g, '"isSidechain":true,"agentId":"afork"');
  for (const [chain, text] of [
    ["main", history],
    ["afork", fork],
  ] as const) {
    const input = { path: "-", kind: "transcript" as const, bytes: 0, sha256: "", chain };
    for await (const r of readRecords(input, transcriptSource, emptyHealth(), { stdin: Readable.from([Buffer.from(text)]) })) fan.step(r);
  }
  const res = fan.finish();
  const rows = assembleOutputs(res.outputs, { requests: res.requests.requests.toArray(), saved: new Map(), debug: null, tools: null });
  assert.deepEqual(
    rows.map((r) => [r.toolUseId, r.chain, r.requestIndex, r.deltaTokens]),
    [["toolu_A", "main", 2, 300]],
  );
  assert.equal(res.outputs.copies, 1);
  assert.equal(res.outputs.toolUses.length, 1);
});

test("follow-up reads: later calls naming the saved file, parallel reads counted once per request", async () => {
  const path = "/Users/other/.claude/projects/k/s/tool-results/mcp-big-emit_text-1789556911031.txt";
  const msg = `Error: result (66,000 characters) exceeds maximum allowed tokens. Output has been saved to ${path}.\nFormat: Plain text`;
  const rows = await run(
    jsonl(
      assistant({ id: "msg_1", usage: usage(3890), blocks: [use("toolu_T", "mcp__big__emit_text", { chars: 66000 })] }),
      toolResult("toolu_T", msg, { toolUseResult: [{ type: "text", text: "z".repeat(66000) }] }),
      assistant({
        id: "msg_2",
        usage: usage(4880),
        blocks: [
          use("toolu_R1", "Read", { file_path: path, offset: 1, limit: 400 }),
          use("toolu_R2", "Read", { file_path: path, offset: 401, limit: 400 }),
        ],
      }),
      toolResult("toolu_R1", "     1\tz"),
      toolResult("toolu_R2", "   401\tz"),
      assistant({
        id: "msg_3",
        usage: usage(33185),
        blocks: [use("toolu_G", "Bash", { command: "grep -c zulu mcp-big-emit_text-1789556911031.txt" })],
      }),
      toolResult("toolu_G", "166"),
      assistant({ id: "msg_4", usage: usage(33200) }),
    ),
  );
  const t = rows[0]!;
  assert.deepEqual([t.check, t.reportedChars, t.resultChars, t.deltaTokens], ["token", 66000, 66000, 990]);
  assert.deepEqual(
    t.followUpReads.map((f) => [f.tool, f.offset, f.limit, f.requestIndex, f.deltaTokens]),
    [
      ["Read", 1, 400, 3, 28305],
      ["Read", 401, 400, 3, 28305],
      ["Bash", null, null, 4, 15],
    ],
  );
  assert.equal(t.followUpReadCount, 3);
  assert.equal(t.followUpTokens, 28305 + 15);
  const stairs = staircaseRows([{ run: "r", rows }]);
  assert.deepEqual(
    stairs.map((s) => s.toolUseId),
    ["toolu_T"],
    "reads of a saved file are not steps of their own",
  );
  assert.equal(stairs[0]!.followUpReads, 3);
});

test("debug log: count_tokens inside the tool's window, Persisted matched by file name", async () => {
  const path = "/Users/x/.claude/projects/k/s/tool-results/toolu_S.json";
  const stub = `<persisted-output>\nOutput too large (51.7KB). Full output saved to: ~/.claude/projects/k/s/tool-results/toolu_S.json\n\nPreview (first 2KB):\n[\n...\n</persisted-output>`;
  const log = [
    "2026-09-16T10:00:01.500Z [DEBUG] [API REQUEST] /v1/messages/count_tokens x-client-request-id=aaaa source=sdk",
    "2026-09-16T10:00:02.100Z [DEBUG] [API REQUEST] /v1/messages/count_tokens x-client-request-id=bbbb source=sdk",
    `2026-09-16T10:00:02.200Z [DEBUG] Persisted tool result to ${path} (51.7KB)`,
    "2026-09-16T10:00:09.000Z [DEBUG] [API REQUEST] /v1/messages/count_tokens x-client-request-id=cccc source=sdk",
  ].join("\n");
  const facts = emptyDebugFacts("d.txt");
  for (const r of await readDebugLog({ path: "-", kind: "debug-log", bytes: 0, sha256: "" }, { stdin: Readable.from([Buffer.from(log)]) }))
    addDebugRecord(facts, r);
  const first = assistant({ id: "msg_1", usage: usage(3295), blocks: [use("toolu_S", "mcp__big__emit_text", { chars: 52000 })] });
  const result = toolResult("toolu_S", stub, { toolUseResult: [{ type: "text", text: "q".repeat(52000) }] });
  // The window runs from the tool_use record to the tool_result record; the 10:00:09 request lies outside it.
  first.timestamp = "2026-09-16T10:00:01.000Z";
  result.timestamp = "2026-09-16T10:00:02.300Z";
  const rows = await run(jsonl(first, result, assistant({ id: "msg_2", usage: usage(4322) })), { debug: facts });
  const r = rows[0]!;
  assert.deepEqual([r.countTokensConsulted, r.countTokensRequests, r.persistedLogged, r.persistedSize], [true, 2, true, "51.7KB"]);
});

test("fullTextOf: the shapes of toolUseResult", () => {
  assert.equal(fullTextOf("plain"), "plain");
  assert.equal(fullTextOf([{ type: "text", text: "ab" }, { type: "image" }, { type: "text", text: "c" }]), "abc");
  assert.equal(fullTextOf({ stdout: "out", stderr: "err", interrupted: false }), "outerr");
  assert.equal(fullTextOf({ type: "text", file: { filePath: "/a", content: "file body" } }), "file body");
  assert.equal(fullTextOf({ content: [{ type: "text", text: "mcp" }] }), "mcp");
  assert.equal(fullTextOf({ filePath: "/a", structuredPatch: [] }), null);
  assert.equal(fullTextOf([{ type: "image" }]), null);
});

test("matchAnnotation: a declared limit explains size above it and inline between 50,000 and it", () => {
  const tools = toolDefsByName([
    { name: "emit_text_annotated", maxResultSizeChars: 300000, alwaysLoad: null },
    { name: "emit_text", maxResultSizeChars: null, alwaysLoad: null },
  ]);
  assert.deepEqual(matchAnnotation(tools, "emit_text_annotated", "big", 66000, "inline"), {
    annotated: true,
    maxResultSizeChars: 300000,
    annotationExplains: true,
    annotationAmbiguous: false,
  });
  assert.deepEqual(matchAnnotation(tools, "emit_text_annotated", "big", 320000, "size"), {
    annotated: true,
    maxResultSizeChars: 300000,
    annotationExplains: true,
    annotationAmbiguous: false,
  });
  assert.equal(matchAnnotation(tools, "emit_text_annotated", "big", 320000, "inline").annotationExplains, false);
  assert.equal(
    matchAnnotation(tools, "emit_text_annotated", "big", 30000, "inline").annotationExplains,
    null,
    "below 50,000 the annotation plays no part",
  );
  assert.deepEqual(matchAnnotation(tools, "emit_text", "big", 66000, "token"), {
    annotated: false,
    maxResultSizeChars: null,
    annotationExplains: null,
    annotationAmbiguous: false,
  });
  assert.equal(matchAnnotation(null, "emit_text", "big", 1, "inline").annotated, null);
  assert.equal(matchAnnotation(tools, "Bash", null, 1, "inline").annotated, null);
});
