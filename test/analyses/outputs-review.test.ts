import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { Fanout } from "../../src/analyses/analysis.js";
import { outputsAnalysis } from "../../src/analyses/outputs.js";
import { assembleOutputs, mcpTokenLimitOf, type OutputEvidence } from "../../src/analyses/outputs-join.js";
import { addDebugRecord, emptyDebugFacts, withSavedSizes } from "../../src/analyses/outputs-evidence.js";
import { debugAnalysis } from "../../src/analyses/debug.js";
import { requestsAnalysis } from "../../src/analyses/requests.js";
import { readRecords } from "../../src/pipeline/runner.js";
import { emptyHealth } from "../../src/records/health.js";
import { approxSizeText, sizeTextExact } from "../../src/records/tool-output.js";
import { toolDefsByName } from "../../src/records/tools-list.js";
import { transcriptSource } from "../../src/records/transcript-source.js";
import { debugTables } from "../../src/report/debug-tables.js";
import { resultsTable, annotationsTable } from "../../src/report/outputs-tables.js";
import { cellText } from "../../src/render/cell.js";
import { renderCsv } from "../../src/render/csv.js";
import { readDebugLog } from "../read.js";
import { assistant, jsonl, toolResult } from "../builders.js";
import type { AssembledOutputs } from "../../src/assemble/outputs.js";

const use = (id: string, name: string, input: Record<string, unknown> = {}) => ({ type: "tool_use", id, name, input });
const usage = (total: number) => ({ input_tokens: 1, cache_creation_input_tokens: total - 1, cache_read_input_tokens: 0 });

async function run(text: string, ev: Partial<OutputEvidence> = {}) {
  const fan = new Fanout({ requests: requestsAnalysis, outputs: outputsAnalysis });
  const input = { path: "-", kind: "transcript" as const, bytes: 0, sha256: "", chain: "main" };
  for await (const r of readRecords(input, transcriptSource, emptyHealth(), { stdin: Readable.from([Buffer.from(text)]) })) fan.step(r);
  const res = fan.finish();
  return assembleOutputs(res.outputs, { requests: res.requests.requests.toArray(), saved: new Map(), debug: null, tools: null, ...ev });
}

const assembled = (rows: AssembledOutputs["rows"], more: Partial<AssembledOutputs> = {}): AssembledOutputs => ({
  target: "t",
  run: "t",
  sessionId: "s-1",
  transcript: "t.jsonl",
  toolResultsDir: null,
  debugLog: null,
  rows,
  copies: 0,
  unpaired: rows.filter((r) => !r.paired).length,
  inputs: [],
  parts: [],
  health: emptyHealth(),
  warnings: [],
  ...more,
});

// ── 1. `51.7KB` is a rounded size ──────────────────────────────────────────────

test("size text: only a byte count is exact; a KB/MB text is shown as approximate", () => {
  assert.equal(sizeTextExact("900 bytes"), true);
  assert.equal(sizeTextExact("51.7KB"), false);
  assert.equal(sizeTextExact("4.8MB"), false);
  assert.equal(approxSizeText("51.7KB"), "≈51.7 KB");
  assert.equal(approxSizeText("2KB"), "≈2 KB");
  assert.equal(approxSizeText("900 bytes"), "900 bytes");
});

test("debug persisted: bytes read off 51.7KB are flagged rounded, the table shows ≈51.7 KB; the saved file's size replaces them", async () => {
  const log = [
    "2026-09-16T10:00:02.200Z [DEBUG] Persisted tool result to /home/dev/.claude/projects/k/s/tool-results/toolu_S.json (51.7KB)",
    "2026-09-16T10:00:03.200Z [DEBUG] Persisted tool result to /home/dev/.claude/projects/k/s/tool-results/toolu_T.txt (900 bytes)",
  ].join("\n");
  const recs = await readDebugLog({ path: "-", kind: "debug-log", bytes: 0, sha256: "" }, { stdin: Readable.from([Buffer.from(log)]) });
  const s = debugAnalysis.init();
  for (const r of recs) debugAnalysis.step(s, r);
  const d = debugAnalysis.finish(s);
  assert.deepEqual(
    d.persisted.map((p) => [p.size, p.bytes, p.bytesExact, p.bytesFrom]),
    [
      ["51.7KB", 52941, false, "size-text"],
      ["900 bytes", 900, true, "size-text"],
    ],
  );
  const table = debugTables(d).find((t) => t.id === "debug:persisted")!;
  // The row keeps the count (CSV and any script sum it); the human formats show the rounded one as such.
  assert.deepEqual(
    table.rows.map((r) => [r.bytes, r.bytesExact]),
    [
      [52941, false],
      [900, true],
    ],
  );
  const bytes = table.columns.find((c) => c.key === "bytes")!;
  assert.deepEqual(
    table.rows.map((r) => cellText(r, bytes)),
    ["≈51.7 KB", "900"],
  );
  assert.equal(
    renderCsv({ title: "", tables: [table], warnings: [] }),
    "line,time,size,bytes,bytesExact,path\r\n" +
      "1,2026-09-16T10:00:02.200Z,51.7KB,52941,false,/home/dev/.claude/projects/k/s/tool-results/toolu_S.json\r\n" +
      "2,2026-09-16T10:00:03.200Z,900 bytes,900,true,/home/dev/.claude/projects/k/s/tool-results/toolu_T.txt\r\n",
  );
  // The saved file was found: its own size, exact.
  const joined = withSavedSizes(d.persisted, [{ savedPath: "~/.claude/projects/k/s/tool-results/toolu_S.json", savedBytes: 52927 }]);
  assert.deepEqual(
    joined.map((p) => [p.bytes, p.bytesExact, p.bytesFrom]),
    [
      [52927, true, "saved-file"],
      [900, true, "size-text"],
    ],
  );
  assert.deepEqual(
    debugTables({ ...d, persisted: joined })
      .find((t) => t.id === "debug:persisted")!
      .rows.map((r) => r.bytes),
    [52927, 900],
  );
});

// ── 2. white space before <persisted-output> ───────────────────────────────────

test("a <persisted-output> stub after leading white space (string, blocks, long preview) is still the size check", async () => {
  const stub =
    "<persisted-output>\nOutput too large (51.7KB). Full output saved to: /home/dev/.claude/projects/k/s/tool-results/toolu_W.txt\n\nPreview (first 2KB):\nline\n...\n</persisted-output>";
  const rows = await run(
    jsonl(
      assistant({
        id: "msg_1",
        usage: usage(1000),
        blocks: ["toolu_1", "toolu_2", "toolu_3", "toolu_4"].map((id) => use(id, "mcp__big__emit_text")),
      }),
      toolResult("toolu_1", `\n  ${stub}`),
      toolResult("toolu_2", [{ type: "text", text: `\r\n\t${stub}` }]),
      toolResult("toolu_3", [
        { type: "text", text: "\n" },
        { type: "text", text: stub },
      ]),
      toolResult("toolu_4", `${" ".repeat(300)}${stub.replace("line", "L".repeat(9000))}`),
      assistant({ id: "msg_2", usage: usage(2000) }),
    ),
  );
  assert.deepEqual(
    rows.map((r) => [r.check, r.variant, r.reportedSize, r.savedPath?.endsWith("toolu_W.txt")]),
    Array(4).fill(["size", "persisted-output", "51.7KB", true]),
  );
});

// ── 3. a result without its tool_use ───────────────────────────────────────────

test("a result whose tool_use is not in the transcript: tool an empty string (a string, as CONTRACT.md says) with paired false, counted, warned in the table as (unknown)", async () => {
  const rows = await run(
    jsonl(
      assistant({ id: "msg_1", usage: usage(1000), blocks: [use("toolu_A", "Bash", { command: "ls" })] }),
      toolResult("toolu_A", "a"),
      toolResult("toolu_GONE1", "b"),
      toolResult("toolu_GONE2", "c"),
      assistant({ id: "msg_2", usage: usage(2000) }),
    ),
  );
  assert.deepEqual(
    rows.map((r) => [r.toolUseId, r.tool, r.toolName, r.server, r.paired]),
    [
      ["toolu_A", "Bash", "Bash", null, true],
      ["toolu_GONE1", "", "", null, false],
      ["toolu_GONE2", "", "", null, false],
    ],
  );
  const t = resultsTable(assembled(rows));
  assert.deepEqual(
    t.rows.map((r) => r.tool),
    ["Bash", "(unknown)", "(unknown)"],
  );
  assert.ok(
    t.notes!.includes('2 result(s) have no tool_use with their id in the transcript: tool (unknown) ("" in JSON, paired false)'),
    t.notes!.join("\n"),
  );
});

// ── 4. two servers, one bare name ──────────────────────────────────────────────

const twoServers = () =>
  jsonl(
    assistant({ id: "msg_1", usage: usage(1000), blocks: [use("toolu_A", "mcp__a__search"), use("toolu_B", "mcp__b__search")] }),
    toolResult("toolu_A", "x".repeat(60_000)),
    toolResult("toolu_B", "y".repeat(60_000)),
    assistant({ id: "msg_2", usage: usage(2000) }),
  );

test("same bare name on two servers: a tools/list that names no server is not given to either (ambiguous)", async () => {
  const tools = toolDefsByName([{ name: "search", maxResultSizeChars: 300000, alwaysLoad: null }]);
  const rows = await run(twoServers(), { tools });
  assert.deepEqual(
    rows.map((r) => [r.tool, r.server, r.annotated, r.maxResultSizeChars, r.annotationAmbiguous]),
    [
      ["mcp__a__search", "a", null, null, true],
      ["mcp__b__search", "b", null, null, true],
    ],
  );
  assert.deepEqual(
    annotationsTable([assembled(rows)]).rows.map((r) => r.explains),
    Array(2).fill("ambiguous: several servers call this name and the tools/list does not say whose it is"),
  );
});

test("same bare name on two servers: definitions the log attributes to a server go to that server only", async () => {
  // The first definition of `search` is b's: before, mcp__a__search took it too.
  const tools = toolDefsByName([
    { name: "search", maxResultSizeChars: null, alwaysLoad: null, server: "b" },
    { name: "search", maxResultSizeChars: 300000, alwaysLoad: null, server: "a" },
  ]);
  const rows = await run(twoServers(), { tools });
  assert.deepEqual(
    rows.map((r) => [r.server, r.annotated, r.maxResultSizeChars, r.annotationExplains, r.annotationAmbiguous]),
    [
      ["a", true, 300000, true, false],
      ["b", false, null, null, false],
    ],
  );
});

test("one server calling the name: an unattributed tools/list is used as before", async () => {
  const tools = toolDefsByName([{ name: "search", maxResultSizeChars: 300000, alwaysLoad: null }]);
  const rows = await run(
    jsonl(
      assistant({ id: "msg_1", usage: usage(1000), blocks: [use("toolu_A", "mcp__a__search")] }),
      toolResult("toolu_A", "x".repeat(60_000)),
      assistant({ id: "msg_2", usage: usage(2000) }),
    ),
    { tools },
  );
  assert.deepEqual([rows[0]!.annotated, rows[0]!.maxResultSizeChars, rows[0]!.annotationAmbiguous], [true, 300000, false]);
});

// ── 5. the token limit that did not hold ───────────────────────────────────────

/** Seed 003's CJK run: 24,000 ideographs inline, request 2 grew by 49,964 tokens, no count_tokens. */
const cjk = (extra: unknown[] = []) => {
  const text = Array.from({ length: 24_000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join("");
  const first = assistant({ id: "msg_1", usage: usage(3295), blocks: [use("toolu_C", "mcp__big__emit_text", { chars: 24000 })] });
  const result = toolResult("toolu_C", [{ type: "text", text }], { toolUseResult: [{ type: "text", text }] });
  first.timestamp = "2026-09-16T10:00:01.000Z";
  result.timestamp = "2026-09-16T10:00:02.000Z";
  return jsonl(first, result, ...extra, assistant({ id: "msg_2", usage: usage(3295 + 49_964) }));
};

test("seed 003: an inline MCP result of 49,964 tokens with no count_tokens is flagged over the 25,000 limit", async () => {
  const rows = await run(cjk());
  const r = rows[0]!;
  assert.deepEqual(
    [r.check, r.chars, r.deltaTokens, r.resultsInRequest, r.mcpTokenLimit, r.overTokenLimitUnchecked],
    ["inline", 24000, 49964, 1, 25000, true],
  );
  const t = resultsTable(assembled(rows));
  assert.equal(t.rows[0]!.check, "inline (over 25,000 tok, unchecked)");
  assert.ok(
    t.notes!.some((n) =>
      n.startsWith("1 inline MCP result(s) cost more than the 25,000-token MCP limit (MAX_MCP_OUTPUT_TOKENS) with no token check"),
    ),
    t.notes!.join("\n"),
  );
  // With a debug log showing no count_tokens in the window, the same; the note then does not hedge.
  const facts = emptyDebugFacts("d.txt");
  const log = "2026-09-16T10:00:09.000Z [DEBUG] [API REQUEST] /v1/messages/count_tokens x-client-request-id=c source=sdk";
  for (const rec of await readDebugLog(
    { path: "-", kind: "debug-log", bytes: 0, sha256: "" },
    { stdin: Readable.from([Buffer.from(log)]) },
  ))
    addDebugRecord(facts, rec);
  const logged = await run(cjk(), { debug: facts });
  assert.deepEqual([logged[0]!.countTokensRequests, logged[0]!.overTokenLimitUnchecked], [0, true]);
});

test("token limit: within it, raised by the run's MAX_MCP_OUTPUT_TOKENS, counted, shared or built-in: not flagged", async () => {
  assert.equal((await run(cjk(), { mcpTokenLimit: 50_000 }))[0]!.overTokenLimitUnchecked, false);
  assert.equal((await run(cjk(), { mcpTokenLimit: 50_000 }))[0]!.mcpTokenLimit, 50_000);
  // count_tokens inside the result's window: the token check looked at it.
  const facts = emptyDebugFacts("d.txt");
  const log = "2026-09-16T10:00:01.500Z [DEBUG] [API REQUEST] /v1/messages/count_tokens x-client-request-id=c source=sdk";
  for (const rec of await readDebugLog(
    { path: "-", kind: "debug-log", bytes: 0, sha256: "" },
    { stdin: Readable.from([Buffer.from(log)]) },
  ))
    addDebugRecord(facts, rec);
  const counted = (await run(cjk(), { debug: facts }))[0]!;
  assert.deepEqual([counted.countTokensRequests, counted.overTokenLimitUnchecked], [1, false]);
  // Another result in the same request: the growth is not this result's alone.
  const shared = await run(
    cjk([
      assistant({ id: "msg_1", usage: usage(3295), blocks: [use("toolu_D", "Bash", { command: "ls" })] }),
      toolResult("toolu_D", "a\nb"),
    ]),
  );
  assert.deepEqual(
    shared.map((r) => [r.tool, r.resultsInRequest, r.mcpTokenLimit, r.overTokenLimitUnchecked]),
    [
      ["mcp__big__emit_text", 2, 25000, null],
      ["Bash", 2, null, null],
    ],
  );
  assert.equal(mcpTokenLimitOf({ MAX_MCP_OUTPUT_TOKENS: "50000" }), 50000);
  assert.equal(mcpTokenLimitOf({ MAX_MCP_OUTPUT_TOKENS: "lots" }), null);
  assert.equal(mcpTokenLimitOf({}), null);
});
