import { test } from "node:test";
import assert from "node:assert/strict";
import { groupRows, type CompareRow } from "../../src/analyses/compare.js";

/** Only the fields groupRows reads; the rest of a row does not take part in a spread of these. */
const run = (label: string, tokensPerChar: number, costUsd: number): CompareRow =>
  ({
    label,
    firstRequestTokens: 20_000,
    deltaVsBaseline: null,
    baselineDiffers: null,
    instructionChars: 1000,
    truncated: false,
    answer: null,
    answerMatches: null,
    era: null,
    tokensPerChar,
    costUsd,
  }) as unknown as CompareRow;

test("spreads between repeats carry no binary noise: 0.381 − 0.377 is 0.004, not 0.0040000000000000036", () => {
  const [g] = groupRows([run("en", 0.381, 0.2038), run("en", 0.377, 0.2038123)]);
  assert.equal(g!.spreads.tokensPerChar, 0.004);
  assert.equal(g!.spreads.costUsd, 0.0000123);
  assert.equal(g!.spreads.firstRequestTokens, 0);
});
