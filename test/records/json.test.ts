import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_DEPTH, nestsDeeper, parseJsonBounded, parseLine } from "../../src/records/json.js";

const raw = (s: string | Buffer, extra: Partial<{ unterminated: boolean; tooLong: boolean }> = {}) => {
  const buf = typeof s === "string" ? Buffer.from(s) : s;
  return { line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false, ...extra };
};
const reason = (s: string | Buffer, extra = {}) => {
  const p = parseLine(raw(s, extra));
  assert.equal(p.ok, false, `expected malformed: ${String(s).slice(0, 40)}`);
  return (p as { reason: string }).reason;
};

test("each kind of bad line gets its own reason", () => {
  assert.match(reason('{"type":"user",'), /truncated record|invalid JSON/);
  assert.match(reason('{"type":"user","x":"ab', { unterminated: true }), /^half-written last line/);
  assert.match(reason('{"a":1}{"b":2}'), /^two JSON values glued on one line \(the second starts at column 8\)/);
  assert.match(reason(Buffer.alloc(64)), /^NUL bytes only \(crash remnant\)/);
  assert.match(reason(Buffer.concat([Buffer.from('{"a":1}'), Buffer.alloc(8)])), /^NUL bytes from byte 8/);
  assert.equal(reason("[1,2]"), "expected a JSON object, got an array");
  assert.equal(reason("42"), "expected a JSON object, got a number");
  assert.equal(reason('"s"'), "expected a JSON object, got a string");
  assert.equal(reason("null"), "expected a JSON object, got null");
  assert.match(reason("[".repeat(100000) + "]".repeat(100000)), /nested deeper than 200 levels/);
  assert.match(reason(`{"a":${"[".repeat(300)}${"]".repeat(300)}}`), /^nested deeper than 200 levels/);
  assert.match(reason("", { tooLong: true }), /longer than a string can hold/);
  assert.match(reason("not json at all"), /^invalid JSON/);
});

test("blank and whitespace lines are not records and not malformed", () => {
  assert.equal(parseLine(raw("")).ok, "blank");
  assert.equal(parseLine(raw("  \t ")).ok, "blank");
});

test("a lone surrogate escape is valid JSON and parses", () => {
  const p = parseLine(raw('{"type":"user","t":"\\ud800x"}'));
  assert.equal(p.ok, true);
});

test("a long line nested too deep is reported from its bytes, before JSON.parse builds every level", () => {
  // Unclosed: JSON.parse would say "truncated" after building a million arrays (tens of MB); closed or not, it is too deep.
  assert.equal(reason("[".repeat(1_000_000)), "not a JSON object (an array nested deeper than 200 levels)");
  assert.equal(reason(`{"a":`.repeat(400_000)), "nested deeper than 200 levels");
  // Brackets inside strings (escaped quotes too) are text, not nesting.
  const text = `{"type":"user","t":"${"[{".repeat(20_000)}\\\"${"[".repeat(20_000)}"}`;
  assert.equal(parseLine(raw(text)).ok, true);
  assert.equal(nestsDeeper(text, MAX_DEPTH), false);
  assert.equal(nestsDeeper(Buffer.from(text), MAX_DEPTH), false);
  // Exactly the limit is allowed; one more is not; bytes and text agree with multi-byte text around.
  const at = (d: number) => `{"é":${"[".repeat(d - 1)}${"]".repeat(d - 1)}}`;
  assert.equal(nestsDeeper(at(MAX_DEPTH), MAX_DEPTH), false);
  assert.equal(nestsDeeper(at(MAX_DEPTH + 1), MAX_DEPTH), true);
  assert.equal(nestsDeeper(Buffer.from(at(MAX_DEPTH + 1)), MAX_DEPTH), true);
  const deep = "[".repeat(20_000);
  assert.equal(parseJsonBounded(deep, "too deep"), "too deep");
  assert.deepEqual(parseJsonBounded(`{"a":[1]}`, "too deep"), { a: [1] });
});
