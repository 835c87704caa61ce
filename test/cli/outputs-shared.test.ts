import { test } from "node:test";
import assert from "node:assert/strict";
import { parseEnvelope, runCli, sample } from "../helpers.js";

const BUDGET = sample("outputs", "budget", "claude", "projects", "-home-dev-logs", "5e1c0a52-0b0d-4000-8000-000000200000.jsonl");

test("outputs: results sharing one request keep its whole Δ each, but tok/char is over their summed size", async () => {
  const j = parseEnvelope(await runCli(["outputs", BUDGET, "--json"]), "outputs");
  const rows = (j.toolResults as Array<{ requestIndex: number; deltaTokens: number; resultChars: number; tokensPerChar: number }>).filter(
    (r) => r.requestIndex === 2,
  );
  assert.equal(rows.length, 5);
  const chars = rows.reduce((a, r) => a + r.resultChars, 0);
  for (const r of rows) {
    assert.equal(r.deltaTokens, 51807, "CONTRACT: what the request that carried it grew by");
    assert.equal(r.tokensPerChar, 51807 / chars);
  }
  const md = await runCli(["outputs", BUDGET, "--format", "markdown"]);
  assert.match(md.stdout, /\| \+51,807 \| 0\.25 \|/);
  assert.doesNotMatch(md.stdout, /\| \+51,807 \| 1\.\d\d \|/);
  assert.match(md.stdout, /tok\/char is over their summed size/);
});
