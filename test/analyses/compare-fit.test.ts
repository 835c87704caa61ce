import { test } from "node:test";
import assert from "node:assert/strict";
import { fitInstructions, scriptOf, type FitPoint } from "../../src/analyses/compare-fit.js";

const pt = (run: string, script: string, chars: number, deltaTokens: number): FitPoint => ({ run, label: run, script, chars, deltaTokens });

test("fit: a script with two sizes gets wrapper and slope by least squares; one with one size shares the wrapper", () => {
  // 50 tokens of wrapper, 1/3 token a char for latin; cjk at 0.8 a char.
  const f = fitInstructions([
    pt("a", "latin", 1000, 50 + 1000 / 3),
    pt("b", "latin", 4000, 50 + 4000 / 3),
    pt("c", "cjk", 2000, 50 + 1600),
  ]);
  const [latin, cjk] = f.scripts;
  assert.equal(latin!.wrapperFrom, "fitted");
  assert.ok(Math.abs(latin!.wrapperTokens! - 50) < 1e-9);
  assert.ok(Math.abs(latin!.charsPerToken! - 3) < 1e-9);
  assert.equal(cjk!.wrapperFrom, "shared");
  assert.ok(Math.abs(cjk!.tokensPerChar! - 0.8) < 1e-9);
  assert.ok(Math.abs(cjk!.ratio! - 2.4) < 1e-9, "0.8 / (1/3)");
  assert.deepEqual(
    f.residuals.map((r) => r.residual),
    [0, 0, 0],
  );
});

test("fit: residuals show what the line misses; one size alone and nothing else fits nothing", () => {
  const f = fitInstructions([pt("a", "latin", 1000, 100), pt("b", "latin", 2000, 200), pt("c", "latin", 3000, 330)]);
  assert.deepEqual(
    f.residuals.map((r) => r.residual),
    [5, -10, 5],
  );
  const none = fitInstructions([pt("a", "latin", 1000, 377), pt("b", "latin", 1000, 381)]);
  assert.deepEqual([none.scripts[0]!.wrapperFrom, none.scripts[0]!.tokensPerChar, none.residuals[0]!.fitted], [null, null, null]);
  assert.deepEqual(fitInstructions([]), { scripts: [], residuals: [] });
});

test("script: bytes per code point, the truncation marker's … still latin", () => {
  assert.equal(scriptOf(1000, 1000), "latin");
  assert.equal(scriptOf(2061, 2063), "latin");
  assert.equal(scriptOf(2061, 5467), "cjk");
  assert.equal(scriptOf(1000, 1800), "mixed");
});

test("fit: the write-up's 2.4× is the whole deltas' ratio at the same chars (1,727 / 721), not the slopes' 2.49", () => {
  const f = fitInstructions([
    pt("en-1000-a", "latin", 1000, 377),
    pt("en-1000-b", "latin", 1000, 377),
    pt("en-5000-a", "latin", 2061, 721),
    pt("en-5000-b", "latin", 2061, 721),
    pt("en-20000-a", "latin", 20000, 6578),
    pt("ja-3000-a", "cjk", 2061, 1727),
    pt("ja-3000-b", "cjk", 2061, 1727),
  ]);
  const [latin, cjk] = f.scripts;
  assert.equal(Math.round(cjk!.ratio! * 100) / 100, 2.49, "slopes, wrapper left out");
  assert.equal(cjk!.deltaRatio, 1727 / 721);
  assert.equal(cjk!.deltaRatioChars, 2061);
  assert.deepEqual([latin!.deltaRatio, latin!.deltaRatioChars], [null, null], "the reference is not compared with itself");
  // No size in common: no same-chars ratio.
  const apart = fitInstructions([pt("a", "latin", 1000, 377), pt("b", "latin", 2061, 721), pt("c", "cjk", 3000, 2500)]);
  assert.deepEqual([apart.scripts[1]!.deltaRatio, apart.scripts[1]!.deltaRatioChars], [null, null]);
});
