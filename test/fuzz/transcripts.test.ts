import { test } from "node:test";
import { check } from "./run.js";
import { prop } from "./suite.js";

for (const c of ["requests", "outputs", "instructions", "inventory", "report"]) {
  test(`fuzz ${c}: mutated transcripts give valid JSON, no crash, every bad line by number`, () => check(prop(`${c}-json`)));
  test(`fuzz ${c}: table, markdown and csv stay inert on hostile text`, () => check(prop(`${c}-human`)));
}

for (const c of ["requests", "report"]) {
  test(`fuzz ${c}: totals are finite non-negative integers whatever usage holds`, () => check(prop(`${c}-totals`)));
}

test("fuzz transcripts: a file and stdin give the same document", () => check(prop("transcripts-stdin")));
test("fuzz transcripts: --strict exits 1 exactly when a line is malformed", () => check(prop("transcripts-strict")));

for (const c of ["report", "inventory"]) {
  test(`fuzz ${c}: hostile text renders as text (no invisible chars, no markup, no formulas)`, () => check(prop(`${c}-escaping`)));
}
