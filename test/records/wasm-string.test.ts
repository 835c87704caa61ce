import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { escapes, fours, loadBytes, scan, SCAN_MORE, stoppedAt, uEscapes, units } from "../../src/records/wasm-string.js";
import { checkScan } from "./scan-check.js";

// The scanner's 64-byte steps (escapes found from bit masks) against the JavaScript byte loop and
// JSON.parse, on long string bodies where the steps do the work: mostly plain text with escapes every
// few bytes, as tool output has, and now and then something a step must leave to the byte loop.

const plain = fc.stringMatching(/^[a-z .,:]{0,40}$/);
const piece = fc.oneof(
  { weight: 12, arbitrary: plain },
  { weight: 6, arbitrary: fc.constantFrom("\\n", '\\"', "\\\\", "\\t", "\\/", "\\b", "\\f", "\\r") },
  { weight: 3, arbitrary: fc.constantFrom("é", "→", "日本", "😀", "a😀b", "\u00a0") },
  { weight: 2, arbitrary: fc.constantFrom("\\\\\\\\", '\\\\\\"', "\\\\\\n", "\\".repeat(64)) },
  { weight: 1, arbitrary: fc.constantFrom("\\u001b", "\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\uDFFF", "\\uABCD") },
  { weight: 1, arbitrary: fc.constantFrom("\\x", "\t", "\u0001", "\\u12g4", "\\u00", "\\", '"') },
);
const body = fc.array(piece, { maxLength: 200 }).map((a) => a.join(""));

test("long string bodies: the 64-byte steps agree with the byte loop and JSON.parse", () => {
  fc.assert(fc.property(fc.nat(80), body, fc.constantFrom("}", "", '",', ',"k":"v"}'), checkScan), { numRuns: 4000 });
});

test("a scan cut short resumes where it stopped and counts the same units", () => {
  fc.assert(
    fc.property(body, fc.nat(), (b, cutAt) => {
      const bytes = Buffer.from(`"${b}"`, "utf8");
      loadBytes(bytes);
      const whole = scan(1, bytes.length);
      const total = [units(), escapes(), fours(), uEscapes()];
      const cut = 1 + (cutAt % bytes.length);
      const part = scan(1, cut);
      if (part !== SCAN_MORE) {
        // The string (or an error) came before the cut: the same answer as with all the bytes.
        if (part >= 0) assert.equal(part, whole);
        else assert.ok(whole < 0 || whole >= cut);
        return;
      }
      const sofar = [units(), escapes(), fours(), uEscapes()];
      const at = stoppedAt();
      assert.ok(at <= cut && at >= 1);
      const rest = scan(at, bytes.length);
      assert.equal(rest, whole);
      if (whole >= 0)
        assert.deepStrictEqual(
          [units(), escapes(), fours(), uEscapes()].map((x, k) => sofar[k]! + x),
          total,
        );
    }),
    { numRuns: 3000 },
  );
});

test("every offset of an escape against the 64-byte step boundaries", () => {
  for (const esc of ["\\n", '\\"', "\\\\", "\\u001b", "\\ud83d\\ude00", "😀", "é", "\\x", "\t", "\\u1x34"]) {
    for (let at = 0; at < 140; at++) {
      for (const lead of [0, 1, 15, 63]) checkScan(lead, `${"a".repeat(at)}${esc}${"b".repeat(150 - at)}`, "}");
      checkScan(0, `${"a".repeat(at)}${esc}`, "}");
      checkScan(0, `${"\\\\".repeat(at >> 1)}${"a".repeat(at & 1)}${esc}${"c".repeat(70)}`, "");
    }
  }
});
