import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { excerptOf, parseLine, parseWhole, type ParsedLine } from "../../src/records/json.js";
import { SKELETON_MIN_LINE } from "../../src/records/skeleton.js";

// parseLine no longer scans every line for NUL bytes before parsing it: JSON allows no raw U+0000 anywhere,
// so a line holding one fails the skeleton pass and JSON.parse alike, and only then is it searched. This
// checks that claim against the obvious reference, which looks for NULs first, on lines of every length.

const raw = (buf: Buffer) => ({ line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false });

/** The verdict when NULs are looked for before anything else (what parseWhole did up to this change). */
function nulFirst(buf: Buffer): ParsedLine {
  const text = buf.toString("utf8");
  const at = buf.indexOf(0);
  if (at < 0 || text.trim() === "") return parseWhole(raw(buf));
  const kind = at === 0 || text.trim().replace(/\u0000/g, "") === "" ? "NUL bytes only" : `NUL bytes from byte ${at + 1}`;
  return { ok: false, reason: `${kind} (crash remnant)`, excerpt: excerptOf(text) };
}

const LONG = "x".repeat(SKELETON_MIN_LINE + 100);
const NUL = "\u0000";

test("lines holding NUL bytes get the NUL verdict on both paths, whatever their length", () => {
  const cases = [
    NUL.repeat(64),
    NUL.repeat(SKELETON_MIN_LINE + 10),
    `{"a":1}${NUL.repeat(8)}`,
    `{"type":"user","pad":"${LONG}"}${NUL.repeat(8)}`,
    `{"type":"user","pad":"${LONG}${NUL}"}`,
    `{"type":"user","pad":"${LONG}","n":1${NUL}}`,
    `{"type":"user",${NUL}"pad":"${LONG}"}`,
    `${NUL}{"type":"user","pad":"${LONG}"}`,
    `{"type":"user","k${NUL}":"${LONG}"}`,
    `{"type":"user","pad":"${LONG}","s":"ab${NUL}"}`,
    `  ${NUL}  `,
    `{"t":"${NUL}"}`,
  ];
  for (const s of cases) {
    const buf = Buffer.from(s, "utf8");
    const want = nulFirst(buf);
    assert.equal(want.ok, false, s.slice(0, 40));
    assert.match((want as { reason: string }).reason, /NUL bytes/);
    assert.deepStrictEqual(parseLine(raw(buf)), want, `parseLine: ${JSON.stringify(s.slice(0, 60))}`);
    assert.deepStrictEqual(parseWhole(raw(buf)), want, `parseWhole: ${JSON.stringify(s.slice(0, 60))}`);
  }
});

test("a NUL byte anywhere in a valid record, short or long: the same verdict as looking for NULs first", () => {
  const record = fc.oneof(
    fc.constant(`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":3}},"x":[1,true,null]}`),
    fc.constant(`{"type":"user","pad":"${LONG}","o":{"a":"é日😀","b":[1,2]}}`),
  );
  fc.assert(
    fc.property(record, fc.nat(), fc.nat(4), (s, at, n) => {
      const buf = Buffer.from(s, "utf8");
      const cut = at % (buf.length + 1);
      const line = Buffer.concat([buf.subarray(0, cut), Buffer.alloc(n + 1), buf.subarray(cut)]);
      const want = nulFirst(line);
      assert.deepStrictEqual(parseLine(raw(line)), want);
      assert.deepStrictEqual(parseWhole(raw(line)), want);
    }),
    { numRuns: 400 },
  );
});
