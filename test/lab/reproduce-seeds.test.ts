import { test } from "node:test";
import assert from "node:assert/strict";
import { readmeReproductions, reproduce } from "./reproduce-commands.js";

const find = (matrix: string) => {
  const r = readmeReproductions().find((x) => x.matrix === `samples/matrices/${matrix}`);
  assert.ok(r, `README reproduces ${matrix}`);
  return r;
};

test("README's reproductions: every shipped matrix is run there and followed by the command that gives its table", () => {
  const all = readmeReproductions();
  assert.deepEqual(all.map((r) => r.matrix.replace("samples/matrices/", "")).sort(), [
    "content.json",
    "instructions.json",
    "late-single-request.json",
    "negotiation.json",
    "order-three.json",
    "order-two.json",
    "outputs.json",
    "per-server-caps.json",
  ]);
  for (const r of all) assert.equal(r.then.length, 1, `${r.matrix}: one command gives its table`);
});

test("seed 000 as README gives it: run instructions.json, then compare: its table, the spreads, the total cost and the fit", async () => {
  const { run, then, json } = await reproduce(find("instructions.json"), ["none", "en-5000", "ja-3000", "en-20000-limit25000"]);
  assert.equal(run.code, 0, run.stderr);
  const [cmp] = then;
  assert.equal(cmp!.code, 0, cmp!.stderr);
  const md = cmp!.stdout;
  assert.match(md, /^\| # \| label \| run \| request 1 tokens \| Δ vs baseline \| instr\. chars \| instr\. request \|$/m);
  for (const label of ["en-5000", "ja-3000", "en-20000-limit25000"])
    for (const ab of ["a", "b"])
      assert.match(md, new RegExp(`^\\| \\d+ \\| ${label} \\| ${label}-${ab} \\| [\\d,]+ \\| \\+[\\d,]+ \\| [\\d,]+ \\| 1 \\|$`, "m"));
  const runs = json[0]!.runs as Array<Record<string, any>>;
  const row = (name: string) => runs.find((x) => x.run === name)!;
  assert.deepEqual(
    ["instructionChars", "instructionsRequest", "truncated", "probeLast", "answerMatches"].map((k) => row("en-5000-a")[k]),
    [2061, 1, true, 2009, true],
    "cut at 2,048 + marker, LAST 2009, answer checked",
  );
  assert.deepEqual(
    [row("en-20000-limit25000-a").instructionChars, row("en-20000-limit25000-a").truncated],
    [20000, false],
    "the raised limit lets it all through",
  );
  assert.match(md, /- \*\*cost \(all runs\)\*\*: \$0\.0800/, "8 runs of the stand-in at $0.01");
  assert.match(md, /### Spread between repeats \(max − min\)/);
  assert.match(md, /### Instructions cost, fitted over the runs\n\n\| script \| latin \| cjk \|\n\|.*\n\| runs \| 4 \| 2 \|/);
  assert.match(md, /^\| wrapper \| fitted \| shared \|$/m);
});

test("seed 003 as README gives it: run outputs.json, then outputs --staircase: label, environment, check, count_tokens, Δ tokens", async () => {
  const { run, then, json } = await reproduce(find("outputs.json"), [
    "words-52000",
    "words-66000",
    "words-30000-max5000",
    "annotated-66000",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const [st] = then;
  assert.equal(st!.code, 0, st!.stderr);
  const md = st!.stdout;
  assert.match(md, /^\| # \| label \| environment \| size \(chars\) \|/m);
  const rows = json[0]!.staircase as Array<Record<string, any>>;
  assert.ok(Array.isArray(rows), `staircase JSON: ${Object.keys(json[0]!)}`);
  const find3 = (label: string) => rows.filter((x) => x.label === label);
  const check = (label: string, env: string | null, size: number, fired: string, counted: boolean) => {
    const got = find3(label);
    assert.equal(got.length, 2, `${label}: both repeats`);
    for (const x of got) {
      assert.equal(x.chars, size, label);
      assert.equal(x.check, fired, label);
      assert.ok(typeof x.deltaTokens === "number" && x.deltaTokens > 0, `${label}: Δ tokens`);
      assert.equal(x.countTokensConsulted, counted, `${label}: count_tokens`);
      if (env !== null) assert.match(JSON.stringify(x.env), new RegExp(env), label);
    }
  };
  check("words-52000", null, 52000, "size", true);
  check("words-66000", null, 66000, "token", true);
  check("words-30000-max5000", "MAX_MCP_OUTPUT_TOKENS", 30000, "token", true);
  check("annotated-66000", null, 66000, "inline", false);
});
