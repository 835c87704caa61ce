import { test } from "node:test";
import assert from "node:assert/strict";
import { applyOps } from "./mutators.js";
import { csvCells, jsonlOracle } from "./checks.js";

// The suite's verdicts rest on these two: if a mutation did not break what it says, or the oracle
// missed a bad line, the fuzz properties would pass for the wrong reason.
const doc = Buffer.from('{"type":"user","n":1}\n{"type":"assistant","message":{"usage":{"input_tokens":3}}}\n{"type":"user","n":3}\n');

test("oracle: clean JSONL has no bad lines; blank, BOM and CRLF are not bad", () => {
  assert.deepEqual(jsonlOracle(doc), { lines: 3, blank: [], bad: [], damaged: [] });
  const o = jsonlOracle(applyOps(doc, [{ op: "crlf" }, { op: "bom" }, { op: "dup", line: 2 }]));
  assert.deepEqual(o.bad, []);
  assert.equal(o.lines, 4);
  assert.deepEqual(jsonlOracle(Buffer.from("{}\n\n{}\n")).blank, [2]);
});

test("mutations break the lines they say they break", () => {
  assert.deepEqual(jsonlOracle(applyOps(doc, [{ op: "cut", at: 30 }])).bad, [2]);
  assert.deepEqual(jsonlOracle(applyOps(doc, [{ op: "nul", at: 5, n: 3 }])).bad, [1]);
  assert.deepEqual(jsonlOracle(applyOps(doc, [{ op: "glue", line: 1 }])).bad, [2]);
  assert.deepEqual(jsonlOracle(applyOps(doc, [{ op: "bytes", at: 0, hex: "ff" }])).bad, [1]);
  // Inside a string an invalid byte decodes to U+FFFD and the line still parses: not bad by this oracle.
  assert.deepEqual(jsonlOracle(applyOps(doc, [{ op: "bytes", at: 2, hex: "ff" }])).bad, []);
  // ...but it is damage the tool must say, as are NULs before a record (a crash remnant the next write landed after).
  assert.deepEqual(jsonlOracle(applyOps(doc, [{ op: "bytes", at: 2, hex: "ff" }])).damaged, [1]);
  const nul = jsonlOracle(applyOps(doc, [{ op: "nul", at: 0, n: 3 }]));
  assert.deepEqual([nul.bad, nul.damaged], [[], [1]]);
  // NULs after a whole record are the zero-filled tail a crash leaves: damage too, not a bad line.
  const tail = jsonlOracle(Buffer.from('{"a":1}\0\0\0\n{"b":2}\0\0x\n'));
  assert.deepEqual([tail.bad, tail.damaged], [[2], [1]]);
  assert.deepEqual(jsonlOracle(applyOps(doc, [{ op: "bom" }, { op: "bom" }])).bad, [1]);
  assert.deepEqual(jsonlOracle(Buffer.from('[1]\n"s"\n7\nnull\n{"a":1}\n')).bad, [1, 2, 3, 4]);
});

test("value and field ops write raw JSON text the serializer could not", () => {
  const f = applyOps(doc, [{ op: "field", line: 0, key: "input_tokens", raw: "1e400" }]).toString();
  assert.match(f.split("\n")[1]!, /"input_tokens":1e400/);
  const v = applyOps(doc, [{ op: "value", line: 2, path: 1, raw: '"\\ud800"' }]).toString();
  assert.equal(v.split("\n")[2], '{"type":"user","n":"\\ud800"}');
  const d = applyOps(doc, [{ op: "deep", line: 0, path: 1, depth: 300 }]).toString();
  assert.ok(d.startsWith('{"type":"user","n":' + "[".repeat(300)));
  const l = applyOps(doc, [{ op: "long", line: 0, path: 0, n: 10, unit: "漢" }]).toString();
  assert.ok(l.startsWith(`{"type":"${"漢".repeat(10)}"`));
  // A deep line is left alone by later ops rather than overflowing the stack.
  applyOps(doc, [
    { op: "deep", line: 0, path: 1, depth: 20000 },
    { op: "value", line: 0, path: 5, raw: "0" },
  ]);
});

test("link op makes a record its own parent, or the parent of one before it", () => {
  const t = Buffer.from('{"uuid":"a","parentUuid":null}\n{"uuid":"b","parentUuid":"a"}\n');
  assert.equal(
    applyOps(t, [{ op: "link", line: 1, to: 0, self: true }])
      .toString()
      .split("\n")[1],
    '{"uuid":"b","parentUuid":"b"}',
  );
  assert.equal(
    applyOps(t, [{ op: "link", line: 0, to: 1, self: false }])
      .toString()
      .split("\n")[0],
    '{"uuid":"a","parentUuid":"b"}',
  );
});

test("csv cell splitter: quotes, doubled quotes, CRLF", () => {
  assert.deepEqual(csvCells('a,"b,c","d""e"\r\n=1,2\n'), ["a", "b,c", 'd"e', "=1", "2"]);
});
