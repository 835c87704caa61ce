import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { LineSplitter, linePieces, type RawLine } from "../../src/sources/lines.js";
import { readLines } from "../../src/sources/input.js";

function split(input: Buffer, size: number, max?: number) {
  const s = new LineSplitter(max);
  const out: RawLine[] = [];
  for (let i = 0; i < input.length; i += size) s.push(input.subarray(i, i + size), out);
  s.end(out);
  return out.map((l) => ({ line: l.line, text: l.buf.toString("utf8"), bytes: l.bytes, tooLong: l.tooLong, unterminated: l.unterminated }));
}

const SAMPLE = '{"a":1}\n\n{"b":"日本語"}\n   \n{"c":3}';

test("chunk boundaries never change lines or numbers (1, 7, 65536 bytes; LF and CRLF)", () => {
  for (const eol of ["\n", "\r\n"]) {
    const input = Buffer.from(SAMPLE.replace(/\n/g, eol));
    const expected = [
      { line: 1, text: '{"a":1}', bytes: 7, tooLong: false, unterminated: false },
      { line: 2, text: "", bytes: 0, tooLong: false, unterminated: false },
      { line: 3, text: '{"b":"日本語"}', bytes: 17, tooLong: false, unterminated: false },
      { line: 4, text: "   ", bytes: 3, tooLong: false, unterminated: false },
      { line: 5, text: '{"c":3}', bytes: 7, tooLong: false, unterminated: true },
    ];
    for (const size of [1, 7, 65536]) assert.deepEqual(split(input, size), expected, `eol=${JSON.stringify(eol)} size=${size}`);
  }
});

test("a UTF-8 BOM is stripped from the first line only, whatever the chunking", () => {
  const input = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"x":1}\n\ufeff{"y":2}\n')]);
  for (const size of [1, 2, 7, 65536]) {
    const lines = split(input, size);
    assert.equal(lines[0]!.text, '{"x":1}');
    assert.equal(lines[1]!.text, '\ufeff{"y":2}');
  }
});

test("a trailing newline does not make an extra line; a lone CR at a chunk edge is stripped", () => {
  assert.deepEqual(
    split(Buffer.from("a\r\nb\r\n"), 2).map((l) => l.text),
    ["a", "b"],
  );
  assert.equal(split(Buffer.from(""), 7).length, 0);
});

test("a line over the cap is reported with its length and not held in memory", () => {
  const lines = split(Buffer.from(`short\n${"x".repeat(100)}\nafter`), 7, 50);
  assert.deepEqual(
    lines.map((l) => [l.line, l.tooLong, l.bytes, l.text]),
    [
      [1, false, 5, "short"],
      [2, true, 100, ""],
      [3, false, 5, "after"],
    ],
  );
});

test("a 40 MB line streams through intact, from a file-like stream and from stdin alike", async () => {
  const big = `{"type":"user","pad":"${"z".repeat(40 * 1024 * 1024)}"}`;
  const data = Buffer.from(`{"type":"x"}\n${big}\n{"type":"y"}\n`);
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += 65536) chunks.push(data.subarray(i, i + 65536));
  const input = { path: "-", kind: "transcript" as const, bytes: 0, sha256: "" };
  const got: Array<[number, number]> = [];
  for await (const l of readLines(input, { stdin: Readable.from(chunks) })) got.push([l.line, l.buf.length]);
  assert.deepEqual(got, [
    [1, 12],
    [2, big.length],
    [3, 12],
  ]);
  assert.equal(input.bytes, data.length);
  assert.match(input.sha256, /^[0-9a-f]{64}$/);
});

test("linePieces: a chunk in pieces cut after a newline, together the chunk, a piece never more than its size's lines", () => {
  const chunks = [
    Buffer.from("\n".repeat(300_000)),
    Buffer.from(`${"a".repeat(200_000)}\n${"b\n".repeat(50_000)}tail`),
    Buffer.from("no newline at all ".repeat(10_000)),
    Buffer.from("short\n"),
  ];
  for (const chunk of chunks) {
    const pieces = [...linePieces(chunk, 4096)];
    assert.ok(Buffer.concat(pieces).equals(chunk));
    for (const [i, p] of pieces.entries()) {
      if (i < pieces.length - 1) assert.equal(p[p.length - 1], 0x0a, "cut just after a newline");
      let lines = 0;
      for (let k = p.indexOf(0x0a); k >= 0; k = p.indexOf(0x0a, k + 1)) lines++;
      assert.ok(lines <= 4096, `${lines} lines in one piece`);
    }
  }
  // Split piece by piece, the lines are those of the whole chunk.
  const chunk = chunks[1]!;
  const whole = new LineSplitter().push(chunk, []).map((l) => l.buf.toString());
  const s = new LineSplitter();
  const byPiece = [...linePieces(chunk, 4096)].flatMap((p) => s.push(p, []).map((l) => l.buf.toString()));
  assert.deepEqual(byPiece, whole);
});
