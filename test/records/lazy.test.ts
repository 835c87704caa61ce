import { test } from "node:test";
import assert from "node:assert/strict";
import { parseLazily, skipValue } from "../../src/records/lazy.js";
import { parseLine } from "../../src/records/json.js";

const big = 'line "quoted" \\ back\ttab 日本語 😀\n'.repeat(2000);

test("skipValue agrees with JSON.parse on what is a valid value", () => {
  const valid = [
    '"a"',
    '"\\u00e9\\n"',
    "0",
    "-0.5e+10",
    "1E3",
    "true",
    "false",
    "null",
    "[]",
    "{}",
    '[1,[2,{"a":[]}]]',
    '{"a":{"b":"}"},"c":[1,2]}',
    ' { "x" : 1 } ',
  ];
  const invalid = [
    '"a',
    '"a\u0001b"',
    '"tab\there"',
    '"\\x"',
    '"\\u12G4"',
    "01",
    "-",
    "1.",
    "1e",
    "tru",
    "nul",
    "[1,]",
    "{,}",
    '{"a"}',
    '{"a":1,}',
    "[1 2]",
    '{"a" 1}',
    "{1:2}",
    "]",
    "",
  ];
  for (const v of valid) {
    const b = Buffer.from(v);
    const end = skipValue(b, 0);
    assert.ok(end > 0, `should accept ${v}`);
    assert.doesNotThrow(() => JSON.parse(b.toString("utf8", 0, end)), v);
  }
  for (const v of invalid) {
    const b = Buffer.from(v);
    const end = skipValue(b, 0);
    const whole = end >= 0 && b.subarray(end).toString().trim() === "";
    assert.ok(!whole, `should reject ${JSON.stringify(v)}`);
  }
});

test("a long line parses lazily to the same value, and the skipped copy is parsed only when read", () => {
  const rec = {
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: big }] },
    toolUseResult: { stdout: big, stderr: "" },
    uuid: "u",
  };
  const buf = Buffer.from(JSON.stringify(rec));
  const lazy = parseLazily(buf)!;
  assert.ok(lazy);
  const d = Object.getOwnPropertyDescriptor(lazy, "toolUseResult")!;
  assert.equal(typeof d.get, "function", "toolUseResult is a getter");
  assert.deepEqual(JSON.parse(JSON.stringify(lazy)), rec);
  const p = parseLine({ line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false });
  assert.equal(p.ok, true);
  assert.deepEqual((p as any).value.toolUseResult, rec.toolUseResult);
});

test("a long line broken inside a skipped value still reports the parser's own error", () => {
  const good = JSON.stringify({ type: "user", toolUseResult: { stdout: big } });
  for (const bad of [
    good.replace('"stdout"', '"stdout" '),
    good.slice(0, -2) + "}",
    good + "{}",
    good.replace("\\t", "\\q"),
    good.replace("\\t", "\t"),
  ]) {
    const buf = Buffer.from(bad);
    const p = parseLine({ line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false });
    let jsonOk = true;
    try {
      JSON.parse(bad);
    } catch {
      jsonOk = false;
    }
    assert.equal(p.ok === true, jsonOk, bad.slice(0, 30) + "…" + bad.slice(-30));
  }
});
