import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { excerptOf, parseLine, parseWhole, type ParsedLine } from "../../src/records/json.js";
import { SKELETON_MIN_LINE } from "../../src/records/skeleton.js";

// parseLine no longer scans every line for NUL bytes before parsing it: JSON allows no raw U+0000 anywhere,
// so a line holding one fails the skeleton pass and JSON.parse alike, and only then is it searched. This
// checks that claim against the obvious reference, which looks for NULs first, on lines of every length.

const raw = (buf: Buffer) => ({ line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false });

/**
 * The verdict when NULs are looked for before anything else (what parseWhole did up to this change), with
 * one exception: a run of NULs (and whitespace) the line starts with, and no NUL after it, is a crash
 * remnant the next write landed after; the rest is read as if the run were spaces, and the run is damage.
 */
function nulFirst(buf: Buffer): ParsedLine {
  const text = buf.toString("utf8");
  const at = buf.indexOf(0);
  if (at < 0 || text.trim() === "") return parseWhole(raw(buf));
  const lead = /^[\0 \t\r\n]*/.exec(text)![0];
  const nuls = lead.split("\0").length - 1;
  const later = buf.indexOf(0, lead.length);
  if (nuls > 0 && lead.length < buf.length && later < 0) {
    const skipped = `${nuls} NUL byte${nuls === 1 ? "" : "s"} before byte ${lead.length + 1} (crash remnant)`;
    const p = parseWhole(raw(Buffer.concat([Buffer.alloc(lead.length, 0x20), buf.subarray(lead.length)])));
    if (p.ok === true) return { ...p, damage: [{ reason: `${skipped}, skipped`, bytes: nuls }, ...(p.damage ?? [])] };
    if (p.ok === false) return { ok: false, reason: `${skipped}, then ${p.reason}`, excerpt: excerptOf(text) };
  }
  if (nuls > 0 && later >= 0)
    return { ok: false, reason: `NUL bytes from byte ${at + 1} and from byte ${later + 1} (crash remnant)`, excerpt: excerptOf(text) };
  const kind = lead.length === buf.length ? "NUL bytes only" : `NUL bytes from byte ${at + 1}`;
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
    `${NUL}{"type":"user","pad":"${LONG}"}${NUL}`,
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

test("a record after a NUL run on its line is read, short or long, and the NULs are damage, not silence", () => {
  const cases: Array<[string, number, number]> = [
    // line, NUL bytes, where the record starts (1-based)
    [`${NUL.repeat(40)}{"type":"assistant","message":{"id":"m1"}}`, 40, 41],
    [`${NUL}{"type":"user","pad":"${LONG}"}`, 1, 2],
    [`${NUL.repeat(SKELETON_MIN_LINE + 10)}{"type":"user","pad":"é日😀"}`, SKELETON_MIN_LINE + 10, SKELETON_MIN_LINE + 11],
    [` ${NUL.repeat(3)} \t${NUL}  {"a":1} `, 4, 10],
  ];
  for (const [s, nuls, from] of cases) {
    const buf = Buffer.from(s, "utf8");
    const want = { reason: `${nuls} NUL byte${nuls === 1 ? "" : "s"} before byte ${from} (crash remnant), skipped`, bytes: nuls };
    for (const parse of [parseLine, parseWhole]) {
      const p = parse(raw(buf));
      assert.equal(p.ok, true, `${parse.name}: ${JSON.stringify(s.slice(0, 60))}: ${p.ok === false ? p.reason : ""}`);
      assert.deepStrictEqual(p.ok === true && p.damage, [want], parse.name);
      assert.deepStrictEqual(p.ok === true && { ...p.value }, JSON.parse(s.replace(/\u0000/g, " ")));
    }
  }
  // What follows the run is judged as any line is, columns counted from the line's start.
  const bad = (s: string) => {
    const p = parseLine(raw(Buffer.from(s, "utf8")));
    return p.ok === false ? p.reason : `not malformed: ${String(p.ok)}`;
  };
  assert.equal(
    bad(`${NUL.repeat(4)}{"a":1}{"b":2}`),
    "4 NUL bytes before byte 5 (crash remnant), then two JSON values glued on one line (the second starts at column 12)",
  );
  assert.match(bad(`${NUL.repeat(4)}{"a":"b`), /^4 NUL bytes before byte 5 \(crash remnant\), then truncated record/);
  assert.equal(bad(`${NUL.repeat(2)}[1]`), "2 NUL bytes before byte 3 (crash remnant), then expected a JSON object, got an array");
  assert.equal(bad(`${NUL.repeat(2)}{"a":1}${NUL}`), "NUL bytes from byte 1 and from byte 10 (crash remnant)");
  // NULs only, with whitespace among them, stay what they were.
  assert.equal(bad(`${NUL.repeat(8)}  ${NUL} `), "NUL bytes only (crash remnant)");
});
