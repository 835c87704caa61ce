import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { NameMatcher } from "../../src/analyses/name-matcher.js";

const naive = (names: string[], text: string) => names.flatMap((n, i) => (n !== "" && text.includes(n) ? [i] : [])).sort((a, b) => a - b);
const fast = (m: NameMatcher, text: string) => {
  const found = new Set<number>();
  m.collect(text, found);
  return [...found].sort((a, b) => a - b);
};

test("NameMatcher finds exactly the names String.includes finds (overlapping, nested, repeated names)", () => {
  // A three-letter alphabet makes overlaps, suffixes of other names and shared prefixes the usual case.
  const small = fc.string({ unit: fc.constantFrom("a", "b", "c"), maxLength: 6 });
  fc.assert(
    fc.property(
      fc.array(small, { maxLength: 12 }),
      fc.array(fc.string({ unit: fc.constantFrom("a", "b", "c", "/"), maxLength: 40 }), { maxLength: 4 }),
      (names, texts) => {
        const m = new NameMatcher(names);
        for (const t of texts) assert.deepEqual(fast(m, t), naive(names, t));
      },
    ),
    { numRuns: 1500 },
  );
});

test("NameMatcher on saved-file names inside real-looking tool inputs", () => {
  const names = ["toolu_01Xf.json", "b1a2c3d4e.txt", "mcp-big-emit_text-1789422257974.txt", "1.txt", ""];
  const m = new NameMatcher(names);
  assert.deepEqual(fast(m, "/home/u/.claude/projects/p/s/tool-results/toolu_01Xf.json"), [0]);
  assert.deepEqual(fast(m, "cat …/tool-results/b1a2c3d4e.txt | head; wc -l …/mcp-big-emit_text-1789422257974.txt"), [1, 2]);
  assert.deepEqual(fast(m, "sed -n 1p x1.txt"), [3]);
  assert.deepEqual(fast(m, "nothing here"), []);
  // Surrogate pairs are matched unit by unit, as includes does.
  assert.deepEqual(fast(new NameMatcher(["日本\ud83d\ude00.txt"]), "x/日本\ud83d\ude00.txt"), [0]);
});

test("NameMatcher with a prefix or suffix common to every name (its quick rejection) still finds what includes finds", () => {
  const small = fc.string({ unit: fc.constantFrom("a", "b", "t"), maxLength: 5 });
  const text = fc.string({ unit: fc.constantFrom("a", "b", "t", "o", "u", "_", ".", "j"), maxLength: 60 });
  fc.assert(
    fc.property(fc.array(small, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.array(text, { maxLength: 4 }), (stems, pre, texts) => {
      const names = stems.map((s) => (pre ? `tou_${s}` : `${s}.j`));
      const m = new NameMatcher(names);
      for (const t of texts) assert.deepEqual(fast(m, t), naive(names, t));
      for (const n of names) assert.deepEqual(fast(m, `x${n}y`), naive(names, `x${n}y`));
    }),
    { numRuns: 1500 },
  );
});

test("NameMatcher looking names up at their common start or end finds what includes finds, also where it falls back", () => {
  // Stems of a few lengths behind a common start of 3+ units (anchored look-ups), or in front of a common
  // end; texts full of the common part exhaust the anchors' budget and go to the automaton mid-text.
  const stem = fc.string({ unit: fc.constantFrom("a", "b", "_", "."), maxLength: 4 });
  const text = fc
    .array(fc.constantFrom("a", "b", "_", ".", "tou_", "_.tx", "tou_a", "b_.tx", "x"), { maxLength: 30 })
    .map((a) => a.join(""));
  fc.assert(
    fc.property(fc.array(stem, { minLength: 1, maxLength: 10 }), fc.boolean(), fc.array(text, { maxLength: 4 }), (stems, pre, texts) => {
      const names = stems.map((s) => (pre ? `tou_${s}` : `${s}_.tx`));
      const m = new NameMatcher(names);
      for (const t of texts) assert.deepEqual(fast(m, t), naive(names, t));
      for (const n of names) assert.deepEqual(fast(m, `${n}${n}`), naive(names, `${n}${n}`));
    }),
    { numRuns: 1500 },
  );
  const names = ["toolu_a.json", "toolu_ab.json", "toolu_b.txt", "toolu_toolu_.txt"];
  const m = new NameMatcher(names);
  assert.deepEqual(fast(m, `${"toolu_".repeat(500)}.txt toolu_ab.json`), naive(names, `${"toolu_".repeat(500)}.txt toolu_ab.json`));
  assert.deepEqual(fast(m, "toolu_toolu_.txt"), [3]);
  // More lengths than the anchors take: the automaton alone.
  const many = Array.from({ length: 40 }, (_, i) => `toolu_${"x".repeat(i)}.txt`);
  assert.deepEqual(fast(new NameMatcher(many), `cat toolu_${"x".repeat(7)}.txt`), [7]);
});
