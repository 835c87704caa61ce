import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { outputsAnalysis } from "../../src/analyses/outputs.js";
import { requestsAnalysisWith } from "../../src/analyses/requests.js";
import { runOne } from "../../src/pipeline/runner.js";
import { transcriptSource } from "../../src/records/transcript-source.js";
import type { InputFile } from "../../src/sources/input.js";
import { LineSplitter, type LineSink, type RawLine } from "../../src/sources/lines.js";
import { assistant, attachment, jsonl, toolResult, userText } from "../builders.js";

// Lines over the streaming threshold (records/transcript-source.ts STREAM_LINE_BYTES, lowered here to
// 1 KiB) against the same lines held and parsed whole: requests and outputs must not change by a byte.

const dir = mkdtempSync(join(tmpdir(), "ccf-giant-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const big = (n: number) => 'output line é→日😀 "quoted" \\ tab\t\n'.repeat(n);

function transcript(): string {
  return jsonl(
    userText("start"),
    assistant({
      id: "msg_1",
      usage: { cache_read_input_tokens: 900 },
      blocks: [{ type: "tool_use", id: "toolu_1", name: "mcp__big__emit_text", input: { chars: 5000 } }],
    }),
    toolResult("toolu_1", big(600), { toolUseResult: { stdout: big(700), stderr: "" } }),
    assistant({
      id: "msg_2",
      usage: { cache_read_input_tokens: 1900, cache_creation_input_tokens: 50 },
      blocks: [{ type: "tool_use", id: "toolu_2", name: "Bash", input: { command: "ls" } }],
    }),
    toolResult("toolu_2", [
      { type: "text", text: big(60) },
      { type: "image", source: {} },
      { type: "text", text: "tail" },
    ]),
    attachment({ type: "mcp_instructions_delta", addedNames: ["big"], addedBlocks: [`## big\n${big(40)}`], removedNames: [] }),
    userText(big(50)),
    { type: "user", message: { role: "user", content: [{ type: "text", text: big(45) }] }, uuid: "u-x", isMeta: true, sessionId: "s-1" },
    toolResult(
      "toolu_3",
      `<persisted-output>\nOutput too large (51.7KB). Full output saved to: /tmp/x/tool-results/toolu_3.json\n\nPreview (first 2KB):\n${big(50)}\n...\n</persisted-output>`,
    ),
    { type: "file-history-snapshot", messageId: "m", snapshot: { files: big(40) } },
    { novel: big(40) },
    `{"type":"user","broken":"${"x".repeat(2000)}`,
    `["${"y".repeat(2000)}"]`,
    assistant({ id: "msg_3", usage: { cache_read_input_tokens: 2500 } }),
  );
}

async function run(path: string, streamLineBytes: number | undefined, stdin?: Readable) {
  const input: InputFile = { path, kind: "transcript", bytes: 0, sha256: "", chain: "main" };
  const { results, health } = await runOne(
    input,
    transcriptSource,
    { requests: requestsAnalysisWith(), outputs: outputsAnalysis },
    { streamLineBytes, stdin },
  );
  const { scanned, malformed, ...rest } = health;
  return {
    requests: results.requests.requests.toArray(),
    totals: results.requests.totals,
    outputs: results.outputs,
    health: rest,
    malformed: malformed.map((m) => [m.file, m.line, m.excerpt]),
    scanned: scanned ?? [],
    input: [input.bytes, input.sha256],
  };
}

for (const [name, text] of [
  ["LF", transcript()],
  ["CRLF", transcript().replace(/\n/g, "\r\n")],
  ["BOM, no final newline", `\ufeff${big(40).length > 0 ? JSON.stringify(userText(big(40))) : ""}\n${transcript().trimEnd()}`],
] as const) {
  test(`${name}: requests and outputs identical with long lines scanned as with every line held`, async () => {
    const file = join(dir, `${name.replace(/\W+/g, "-")}.jsonl`);
    writeFileSync(file, text);
    const held = await run(file, undefined);
    const scanned = await run(file, 1024);
    assert.equal(held.scanned.length, 0);
    assert.ok(scanned.scanned.length >= 8, `only ${scanned.scanned.length} lines scanned`);
    assert.ok(scanned.scanned.every((s) => s.textKept && s.bytes > 1024));
    const { scanned: _a, ...heldRest } = held;
    const { scanned: _b, ...scannedRest } = scanned;
    assert.deepStrictEqual(scannedRest, heldRest);
    assert.ok(
      held.requests.some((r) => r.added.toolResultChars > 20000),
      "the long results are counted",
    );
    assert.equal(held.malformed.length, 2, "the broken line and the array are malformed both ways");
  });
}

test("stdin: the same requests and outputs with long lines scanned, long strings read back from a temporary copy", async () => {
  const bytes = Buffer.from(transcript());
  const file = join(dir, "stdin-ref.jsonl");
  writeFileSync(file, bytes);
  const held = await run(file, undefined);
  for (const size of [1, 7, 4096]) {
    const parts: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
    const got = await run("-", 1024, Readable.from(parts));
    assert.deepStrictEqual(
      got.requests,
      held.requests.map((r) => ({ ...r, file: "-" })),
      `chunks of ${size}`,
    );
    assert.deepStrictEqual(got.totals, held.totals);
    assert.ok(got.scanned.length >= 8 && got.scanned.every((s) => s.textKept));
    assert.deepStrictEqual(got.outputs, JSON.parse(JSON.stringify(held.outputs).replaceAll(JSON.stringify(file), '"-"')));
    assert.deepStrictEqual(
      got.malformed.map((m) => m[1]),
      held.malformed.map((m) => m[1]),
    );
  }
});

test("damaged lines, held or scanned: the record after a NUL run is read, bad UTF-8 read as U+FFFD, both listed in health.damaged", async () => {
  const rec = (o: unknown) => Buffer.from(JSON.stringify(o));
  // A long user record with the bytes of a UTF-16 surrogate (not UTF-8) inside its text.
  const [before, after] = JSON.stringify(userText(`${big(60)}@BAD@`)).split("@BAD@") as [string, string];
  const text = Buffer.concat([
    rec(userText("start")),
    Buffer.from("\n"),
    Buffer.alloc(4096), // the crash remnant: zeros, then the next write with no newline between
    rec(assistant({ id: "msg_1", usage: { cache_read_input_tokens: 900 }, blocks: [{ type: "text", text: big(60) }] })),
    Buffer.from("\n"),
    Buffer.from(before),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from(after),
    Buffer.from("\n"),
    Buffer.alloc(300),
    Buffer.from("\n"),
    rec(assistant({ id: "msg_2", usage: { cache_read_input_tokens: 1900 } })),
    Buffer.from("\n"),
  ]);
  const file = join(dir, "damaged.jsonl");
  writeFileSync(file, text);
  const held = await run(file, undefined);
  const scanned = await run(file, 1024);
  assert.equal(scanned.scanned.length, 2, "the two long lines were scanned");
  const { scanned: _a, ...heldRest } = held;
  const { scanned: _b, ...scannedRest } = scanned;
  assert.deepStrictEqual(scannedRest, heldRest);
  assert.deepStrictEqual(
    held.requests.map((r) => [r.messageId, r.line]),
    [
      ["msg_1", 2],
      ["msg_2", 5],
    ],
  );
  assert.deepStrictEqual(held.health.damaged, [
    { file, line: 2, reason: "4096 NUL bytes before byte 4097 (crash remnant), skipped", bytes: 4096 },
    { file, line: 3, reason: `3 bytes of invalid UTF-8 from byte ${Buffer.byteLength(before) + 1}, read as U+FFFD`, bytes: 3 },
  ]);
  assert.equal(held.health.damagedCount, 2);
  assert.deepStrictEqual(held.malformed, [[file, 4, "\u0000".repeat(120) + "…"]], "NULs only stay malformed");
  assert.equal(held.health.lines, held.health.records + held.health.blankLines + held.health.malformedCount);
});

/** What a sink saw, for the splitter's own test. */
class Recorder implements LineSink {
  readonly parts: Buffer[] = [];
  constructor(
    readonly line: number,
    readonly offset: number,
  ) {}
  push(b: Buffer): void {
    this.parts.push(Buffer.from(b));
  }
  end(unterminated: boolean): unknown {
    return { line: this.line, offset: this.offset, text: Buffer.concat(this.parts).toString("latin1"), unterminated };
  }
}

test("the splitter streams lines past the threshold in any chunking: BOM and final CR left out, offsets and numbers right", () => {
  const long1 = "A".repeat(40);
  const long2 = `B${"\r".repeat(3)}${"b".repeat(30)}`;
  const input = Buffer.from(`\ufeff${long1}\r\nshort\r\n\n${long2}\r\nx\n${"C".repeat(33)}\r`, "utf8");
  const expect = [
    { line: 1, streamed: { line: 1, offset: 3, text: long1, unterminated: false }, bytes: 40 },
    { line: 2, text: "short", bytes: 5 },
    { line: 3, text: "", bytes: 0 },
    { line: 4, streamed: { line: 4, offset: 3 + 42 + 7 + 1, text: long2, unterminated: false }, bytes: long2.length },
    { line: 5, text: "x", bytes: 1 },
    { line: 6, streamed: { line: 6, offset: 3 + 42 + 7 + 1 + long2.length + 2 + 2, text: "C".repeat(33), unterminated: true }, bytes: 33 },
  ];
  for (let size = 1; size <= input.length; size++) {
    const s = new LineSplitter(undefined, { at: 16, open: (line, offset) => new Recorder(line, offset) });
    const out: RawLine[] = [];
    for (let i = 0; i < input.length; i += size) s.push(input.subarray(i, i + size), out);
    s.end(out);
    const got = out.map((l) =>
      l.streamed
        ? { line: l.line, streamed: l.streamed, bytes: l.bytes }
        : { line: l.line, text: l.buf.toString("latin1"), bytes: l.bytes },
    );
    assert.deepStrictEqual(got, expect, `chunks of ${size}`);
  }
});
