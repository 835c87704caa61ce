import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import stringWidth from "string-width";
import { NARROW, shorten, textWidth, wrap } from "../../src/render/text-width.js";

// The fast tier of textWidth: a string NARROW matches is as wide as it is long. That holds when (1) every
// code point it admits is one column to string-width on its own, and (2) no two of them (or one of them
// and ASCII) ever form one grapheme, so string-width, which sums its clusters, sums ones.

const segmenter = new Intl.Segmenter();
const clusters = (s: string) => [...segmenter.segment(s)].length;

/** Every code point NARROW admits, found by asking it about all of them (a surrogate half or astral one included). */
const TIER: string[] = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const c = String.fromCodePoint(cp);
  if (NARROW.test(c)) TIER.push(c);
}
/** shorten as it was before the tier: every non-ASCII string cut cluster by cluster with string-width. */
function slowShorten(s: string, width: number, how: "end" | "middle-id" | "middle-path"): string {
  if (stringWidth(s) <= width) return s;
  if (width <= 1) return width === 1 ? "…" : "";
  const cs = [...segmenter.segment(s)].map(({ segment }) => [segment, stringWidth(segment)] as const);
  const head = (n: number) => {
    let out = "";
    let used = 0;
    for (const [c, w] of cs) {
      if (used + w > n) break;
      out += c;
      used += w;
    }
    return out;
  };
  const tail = (n: number) => {
    let out = "";
    let used = 0;
    for (let i = cs.length - 1; i >= 0; i--) {
      if (used + cs[i]![1] > n) break;
      out = cs[i]![0] + out;
      used += cs[i]![1];
    }
    return out;
  };
  const room = width - 1;
  if (how === "end") return `${head(room)}…`;
  const back = how === "middle-id" ? Math.floor(room / 3) : Math.ceil((room * 2) / 3);
  return `${head(room - back)}…${tail(back)}`;
}

const ASCII = Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x20 + i));

test("the tier is printable ASCII and about two thousand more code points, all of them single UTF-16 units", () => {
  assert.ok(TIER.length > 1900, String(TIER.length));
  for (const c of ASCII) assert.ok(TIER.includes(c), JSON.stringify(c));
  for (const c of TIER) assert.equal(c.length, 1, JSON.stringify(c));
  // Lone surrogates never pass: a string NARROW matches has as many code points as code units.
  assert.equal(NARROW.test("\ud800"), false);
  assert.equal(NARROW.test("\udc00"), false);
  // What a report's cells carry beyond ASCII is in it.
  for (const c of "…§›—–×Δ✓✗│é") assert.ok(NARROW.test(c), c);
  // And what is wide, invisible, combining or an emoji is not.
  for (const c of [
    "漢",
    "\u0301",
    "\u00ad",
    "\u200b",
    "\u200d",
    "\ufe0f",
    "\u2028",
    "\u202e",
    "\u2705",
    "\u274c",
    "\u231a",
    "\u2614",
    "\u1100",
    "\uac00",
    "\x1b",
    "\x9b",
    "\t",
    "\n",
    "\r",
  ])
    assert.equal(NARROW.test(c), false, JSON.stringify(c));
});

test("every code point of the tier is one column and one grapheme to string-width, alone and beside ASCII or itself", () => {
  for (const c of TIER) {
    const at = `U+${c.codePointAt(0)!.toString(16).padStart(4, "0")}`;
    assert.equal(stringWidth(c), 1, at);
    assert.equal(clusters(c), 1, at);
    // Extend, SpacingMark, ZWJ (joined to what precedes), Prepend (to what follows), a regional indicator (to its twin).
    for (const x of ["a", " ", "0", "~"]) {
      assert.equal(clusters(x + c), 2, `${at} after ${x}`);
      assert.equal(clusters(c + x), 2, `${at} before ${x}`);
      assert.equal(stringWidth(x + c + x), 3, at);
    }
    assert.equal(clusters(c + c), 2, `${at} twice`);
  }
});

test("no two code points of the tier form one grapheme", () => {
  // The rules that join two code points neither of which is Extend, SpacingMark, ZWJ, Prepend or a control
  // are Hangul's (L, V, T, LV, LVT: U+1100–U+11FF, U+A960–U+A97F, U+AC00–U+D7FF) and the regional indicators'
  // (astral): the tier has none of them. Then every pair is tried.
  for (const c of TIER) {
    const cp = c.codePointAt(0)!;
    assert.ok(!(cp >= 0x1100 && cp <= 0x11ff) && !(cp >= 0xa960 && cp <= 0xa97f) && !(cp >= 0xac00 && cp <= 0xd7ff), String(cp));
  }
  // Every pair, both ways round: for each code point a, strings a b₁ a b₂ a … over every b from a on, in
  // pieces (V8 segments one long non-ASCII string in quadratic time), must split into single units.
  for (let i = 0; i < TIER.length; i++) {
    const a = TIER[i]!;
    for (let k = i; k < TIER.length; k += 64) {
      let s = a;
      for (let j = k; j < Math.min(k + 64, TIER.length); j++) s += TIER[j]! + a;
      let n = 0;
      for (const _ of segmenter.segment(s)) n++;
      if (n !== s.length) assert.fail(`a pair with U+${a.codePointAt(0)!.toString(16)} joins: ${JSON.stringify(s)}`);
    }
  }
  const rnd = fc.sample(fc.integer({ min: 0, max: TIER.length - 1 }), { numRuns: 40_000, seed: 14 });
  // A long run of random pairs, in pieces (V8 segments one long non-ASCII string in quadratic time).
  for (let k = 0; k < rnd.length; k += 1000) {
    const run = rnd
      .slice(k, k + 1000)
      .map((j) => TIER[j]!)
      .join("");
    assert.equal(clusters(run), run.length);
    assert.equal(stringWidth(run), run.length);
  }
});

test("in random mixes, textWidth, shorten and wrap agree with string-width and grapheme segmentation", () => {
  const tierChar = fc.constantFrom(...TIER);
  // Beyond the tier: wide, combining, invisible, emoji (with and without VS16 and ZWJ), controls, an ANSI escape.
  const other = fc.constantFrom(
    "漢",
    "字",
    "\u0301",
    "\u0308",
    "\u00ad",
    "\u200b",
    "\u200d",
    "\ufe0f",
    "\u2705",
    "👍",
    "👩‍💻",
    "\u2714\ufe0f",
    "\x1b[31m",
    "\t",
    "ｶ",
    "ﾞ",
    "\u1100\u1161",
  );
  const mix = fc
    .array(fc.oneof({ weight: 8, arbitrary: tierChar }, { weight: 1, arbitrary: other }), { maxLength: 40 })
    .map((a) => a.join(""));
  fc.assert(
    fc.property(
      mix,
      fc.integer({ min: 1, max: 30 }),
      fc.constantFrom("end", "middle-id", "middle-path") as fc.Arbitrary<"end" | "middle-id" | "middle-path">,
      (s, w, how) => {
        assert.equal(textWidth(s), stringWidth(s), JSON.stringify(s));
        if (NARROW.test(s)) assert.equal(clusters(s), s.length, JSON.stringify(s));
        const cut = shorten(s, w, how);
        assert.equal(cut, slowShorten(s, w, how), JSON.stringify([s, w, how]));
        assert.ok(textWidth(cut) <= w, JSON.stringify([s, w, cut]));
        for (const l of wrap(s, w)) assert.ok(textWidth(l) <= w || clusters(l) === 1, JSON.stringify([s, w, l]));
      },
    ),
    { numRuns: 8_000, seed: 14 },
  );
  // Strings of the tier alone: exactly as wide as long, cut at the exact unit.
  fc.assert(
    fc.property(
      fc.array(tierChar, { maxLength: 200 }).map((a) => a.join("")),
      fc.integer({ min: 2, max: 60 }),
      (s, w) => {
        assert.equal(stringWidth(s), s.length);
        assert.equal(textWidth(s), s.length);
        const cut = shorten(s, w);
        assert.equal(cut, s.length <= w ? s : `${s.slice(0, w - 1)}…`);
        assert.equal(cut, slowShorten(s, w, "end"));
        assert.equal(shorten(s, w, "middle-path"), slowShorten(s, w, "middle-path"));
      },
    ),
    { numRuns: 5_000, seed: 15 },
  );
});
