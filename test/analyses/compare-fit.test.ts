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
