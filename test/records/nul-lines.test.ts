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
 * two exceptions: a run of NULs (and whitespace) the line starts with, and a run it ends with (the zero-filled
 * tail a crash leaves), with no NUL between them. Those are crash remnants: the rest is read as if the leading
 * run were spaces, and each run is damage.
 */
function nulFirst(buf: Buffer): ParsedLine {
  const text = buf.toString("utf8");
  const at = buf.indexOf(0);
  if (at < 0 || text.trim() === "") return parseWhole(raw(buf));
  const lead = /^[\0 \t\r\n]*/.exec(text)![0];
  if (lead.length === buf.length) return { ok: false, reason: "NUL bytes only (crash remnant)", excerpt: excerptOf(text) };
  const tail = /[\0 \t\r\n]*$/.exec(text)![0];
  const body = text.slice(lead.length, text.length - tail.length);
  const nuls = lead.split("\0").length - 1;
  const tailNuls = tail.split("\0").length - 1;
  if (!body.includes("\0")) {
    const skipped = `${nuls} NUL byte${nuls === 1 ? "" : "s"} before byte ${lead.length + 1} (crash remnant)`;
    const tailFrom = buf.length - tail.length + tail.indexOf("\0") + 1;
    const trailing = `${tailNuls} trailing NUL byte${tailNuls === 1 ? "" : "s"} from byte ${tailFrom} (crash remnant)`;
    const p = parseWhole(raw(Buffer.from(" ".repeat(lead.length) + body, "utf8")));
    const damage = [
      ...(nuls > 0 ? [{ reason: `${skipped}, skipped`, bytes: nuls }] : []),
      ...(tailNuls > 0 ? [{ reason: `${trailing}, skipped`, bytes: tailNuls }] : []),
    ];
    if (p.ok === true) return { ...p, damage: [...damage, ...(p.damage ?? [])] };
    if (p.ok === false)
      return {
        ok: false,
        reason: `${nuls > 0 ? `${skipped}, then ` : ""}${p.reason}${tailNuls > 0 ? `, then ${trailing}` : ""}`,
        excerpt: excerptOf(text),
      };
  }
  const later = buf.indexOf(0, lead.length);
  if (nuls > 0)
    return { ok: false, reason: `NUL bytes from byte ${at + 1} and from byte ${later + 1} (crash remnant)`, excerpt: excerptOf(text) };
  return { ok: false, reason: `NUL bytes from byte ${at + 1} (crash remnant)`, excerpt: excerptOf(text) };
}

const LONG = "x".repeat(SKELETON_MIN_LINE + 100);
const NUL = "\u0000";

test("lines holding NUL bytes get the NUL verdict on both paths, whatever their length", () => {
  const cases = [
    NUL.repeat(64),
    NUL.repeat(SKELETON_MIN_LINE + 10),
    `{"type":"user","pad":"${LONG}${NUL}"}`,
    `{"type":"user","pad":"${LONG}","n":1${NUL}}`,
    `{"type":"user",${NUL}"pad":"${LONG}"}`,
    `${NUL}{"type":"user","pad":"${LONG}"${NUL}}`,
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
  assert.equal(bad(`${NUL.repeat(2)}{"a":1,${NUL}"b":2}`), "NUL bytes from byte 1 and from byte 10 (crash remnant)");
  // NULs only, with whitespace among them, stay what they were.
  assert.equal(bad(`${NUL.repeat(8)}  ${NUL} `), "NUL bytes only (crash remnant)");
});

test("a record followed by the zero-filled tail a crash leaves is read, short or long; the NULs are damage", () => {
  const cases: Array<[string, Array<{ reason: string; bytes: number }>]> = [
    [`{"a":1}${NUL.repeat(8)}`, [{ reason: "8 trailing NUL bytes from byte 8 (crash remnant), skipped", bytes: 8 }]],
    [
      `{"type":"user","pad":"${LONG}"}${NUL.repeat(3)}`,
      [{ reason: `3 trailing NUL bytes from byte ${LONG.length + 25} (crash remnant), skipped`, bytes: 3 }],
    ],
    // Whitespace among the NULs (a CR before the LF) is part of the run; the count is of NULs only.
    [`{"a":"é"} ${NUL}${NUL} ${NUL}\r`, [{ reason: "3 trailing NUL bytes from byte 12 (crash remnant), skipped", bytes: 3 }]],
    [
      `${NUL.repeat(2)}{"a":1}${NUL}`,
      [
        { reason: "2 NUL bytes before byte 3 (crash remnant), skipped", bytes: 2 },
        { reason: "1 trailing NUL byte from byte 10 (crash remnant), skipped", bytes: 1 },
      ],
    ],
  ];
  for (const [s, damage] of cases) {
    const buf = Buffer.from(s, "utf8");
    for (const parse of [parseLine, parseWhole]) {
      const p = parse(raw(buf));
      assert.equal(p.ok, true, `${parse.name}: ${JSON.stringify(s.slice(0, 60))}: ${p.ok === false ? p.reason : ""}`);
      assert.deepStrictEqual(p.ok === true && p.damage, damage, parse.name);
      assert.deepStrictEqual(p.ok === true && { ...p.value }, JSON.parse(s.replace(/\u0000/g, " ")));
    }
  }
  const bad = (s: string) => {
    const p = parseLine(raw(Buffer.from(s, "utf8")));
    return p.ok === false ? p.reason : `not malformed: ${String(p.ok)}`;
  };
  // A record cut short before the zeros is still no record; a NUL inside it still ends the reading.
  assert.match(bad(`{"a":"b${NUL.repeat(4)}`), /^truncated record \(.*\), then 4 trailing NUL bytes from byte 8 \(crash remnant\)$/);
  assert.equal(bad(`{"a":1${NUL}}${NUL}`), "NUL bytes from byte 7 (crash remnant)");
  assert.equal(bad(`{"a":1}${NUL}x`), "NUL bytes from byte 8 (crash remnant)");
});
