import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalTime, parseIsoTime, parseIsoTimeWhole } from "../../src/records/time.js";
import { filesUnder, ROOT } from "../helpers.js";
import { mulberry32 } from "../../src/lab/instructions-text.js";

/** The fast reader and the whole rule agree on `t`, whatever was read before it (the day cache). */
function agree(t: string): void {
  assert.equal(parseIsoTime(t), parseIsoTimeWhole(t), JSON.stringify(t));
}

/** Every string in every sample file that starts like a date. */
function sampleTimes(): string[] {
  const out = new Set<string>();
  for (const f of filesUnder(join(ROOT, "samples"), () => true)) {
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(/"(\d{4}-[^"\\]{0,40})"/g)) out.add(m[1]!);
  }
  return [...out];
}

test("every date-like string of every sample: the fast reader gives what the whole rule gives, and reads the canonical ones itself", () => {
  const times = sampleTimes();
  assert.ok(times.length > 100, `only ${times.length} times in the samples`);
  let fast = 0;
  for (const t of times) {
    agree(t);
    if (canonicalTime(t) !== undefined) fast += 1;
  }
  // Transcripts write the canonical form: most of the samples' times take the fast path.
  assert.ok(fast > times.length / 2, `${fast} of ${times.length} read fast`);
});

const pad = (n: number, w: number) => String(n).padStart(w, "0");

test("generated times over every year form, month and day edge, hour/minute/second range: same epoch ms", () => {
  const r = mulberry32(14);
  const years = [0, 1, 4, 99, 100, 400, 1582, 1899, 1900, 1969, 1970, 1999, 2000, 2024, 2025, 2026, 2100, 2400, 9999];
  for (let i = 0; i < 2000; i++) years.push(Math.floor(r() * 10000));
  let fast = 0;
  for (const y of years) {
    for (const mo of [0, 1, 2, 3, 4, 6, 9, 11, 12, 13, 99]) {
      for (const d of [0, 1, 28, 29, 30, 31, 32, 99]) {
        const h = [0, 23, 24, 99][Math.floor(r() * 4)]!;
        const mi = [0, 59, 60][Math.floor(r() * 3)]!;
        const s = [0, 59, 60][Math.floor(r() * 3)]!;
        const day = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}`;
        const clock = `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}`;
        for (const t of [`${day}T${clock}.${pad(Math.floor(r() * 1000), 3)}Z`, `${day}T${clock}Z`, `${day}T${clock}.000Z`]) {
          agree(t);
          if (canonicalTime(t) !== undefined) fast += 1;
        }
      }
    }
  }
  assert.ok(fast > 10000, `${fast} read fast`);
});

test("consecutive times of one day, the next day and back (the day cache), leap days and the day after an invalid one", () => {
  const seq = [
    "2024-02-28T23:59:59.999Z",
    "2024-02-29T00:00:00.000Z",
    "2024-02-29T12:00:00.000Z",
    "2025-02-29T12:00:00.000Z",
    "2025-02-29T12:00:01.000Z",
    "2025-02-28T12:00:00.000Z",
    "2025-02-28T13:00:00.000Z",
    "2024-02-29T12:00:00.000Z",
    "2026-11-23T15:02:00.630Z",
    "2026-11-23T15:02:00.630+01:00",
    "2026-11-23T15:02:00.630Z",
    "2026-11-31T15:02:00.630Z",
    "2026-11-30T15:02:00.630Z",
    "2026-11-30T24:00:00.000Z",
  ];
  for (const t of seq) agree(t);
  assert.equal(parseIsoTime("2026-11-23T15:02:00.630Z"), Date.parse("2026-11-23T15:02:00.630Z"));
  assert.equal(parseIsoTime("0000-01-01T00:00:00.000Z"), -62167219200000);
  assert.equal(parseIsoTime("0050-03-01T00:00:00Z"), Date.parse("0050-03-01T00:00:00Z"));
  assert.equal(parseIsoTime("2025-02-29T12:00:00.000Z"), undefined);
});

test("hostile strings: every character of canonical times replaced, cut, doubled or padded; other forms and zones", () => {
  const base = ["2026-11-23T15:02:00.630Z", "2024-02-29T23:59:59Z", "1970-01-01T00:00:00.000Z"];
  const subs = [
    "0",
    "9",
    "/",
    ":",
    "-",
    "T",
    "t",
    "Z",
    "z",
    " ",
    ".",
    "+",
    "\u0660",
    "\uff10",
    "\u00b2",
    "\ud800",
    "\u0000",
    "a",
    "\u0130",
  ];
  let n = 0;
  for (const b of base) {
    for (let i = 0; i <= b.length; i++) {
      for (const c of subs) {
        agree(b.slice(0, i) + c + b.slice(i + 1));
        agree(b.slice(0, i) + c + b.slice(i));
        n += 2;
      }
      agree(b.slice(0, i));
      agree(b.slice(i));
    }
    for (const extra of [" ", "\n", "\ufeff", "Z", "0"]) {
      agree(extra + b);
      agree(b + extra);
    }
  }
  const others = [
    "",
    "garbage",
    "1",
    "2026",
    "2026-11-23",
    "2026-11-23T15:02",
    "2026-11-23T15:02Z",
    "2026-11-23 15:02:00.630Z",
    "2026-11-23T15:02:00.6Z",
    "2026-11-23T15:02:00.63Z",
    "2026-11-23T15:02:00.6300Z",
    "2026-11-23T15:02:00.630123456Z",
    "2026-11-23T15:02:00.630+0100",
    "2026-11-23T15:02:00.630-23:59",
    "2026-11-23T15:02:00",
    "2026-11-23T15:02:00.630",
    "+002026-11-23T15:02:00.630Z",
    "-000001-01-01T00:00:00.000Z",
    "2026-11-23T15:02:00.630ZZ",
    "2026-1-23T15:02:00.630Z",
    "２０２６-11-23T15:02:00.630Z",
  ];
  for (const t of others) agree(t);
  assert.ok(n > 1000);
});
