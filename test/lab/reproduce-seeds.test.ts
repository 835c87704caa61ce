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
  const { run, then } = await reproduce(find("instructions.json"), ["none", "en-5000", "ja-3000", "en-20000-limit25000"]);
  assert.equal(run.code, 0, run.stderr);
  const [cmp] = then;
  assert.equal(cmp!.code, 0, cmp!.stderr);
  const md = cmp!.stdout;
  assert.match(md, /^\| label \| run \| request 1 tokens \| Δ vs baseline \| instr\. chars \| instr\. request \| truncated \|/m);
  for (const label of ["en-5000", "ja-3000", "en-20000-limit25000"])
    for (const ab of ["a", "b"])
      assert.match(md, new RegExp(`^\\| ${label} \\| ${label}-${ab} \\| [\\d,]+ \\| \\+[\\d,]+ \\| [\\d,]+ \\| 1 \\| (yes|no) \\|`, "m"));
  assert.match(
    md,
    /^\| en-5000 \| en-5000-a \|.*\| 2,061 \| 1 \| yes \|.*\| 2,009 \| yes \|/m,
    "cut at 2,048 + marker, LAST 2009, answer checked",
  );
  assert.match(md, /^\| en-20000-limit25000 \| en-20000-limit25000-a \|.*\| 20,000 \| 1 \| no \|/m, "the raised limit lets it all through");
  assert.match(md, /- \*\*cost \(all runs\)\*\*: \$0\.0800/, "8 runs of the stand-in at $0.01");
  assert.match(md, /### Spread between repeats \(max − min\)/);
  assert.match(md, /### Instructions cost, fitted over the runs\n\n\| script \|.*\n\|.*\n\| latin \| 4 \| 2 \|/);
  assert.match(md, /^\| cjk \| 2 \| 1 \| [\d.]+ \| shared \|/m);
});

test("seed 003 as README gives it: run outputs.json, then outputs --staircase: label, environment, check, count_tokens, Δ tokens", async () => {
  const { run, then } = await reproduce(find("outputs.json"), ["words-52000", "words-66000", "words-30000-max5000", "annotated-66000"]);
  assert.equal(run.code, 0, run.stderr);
  const [st] = then;
  assert.equal(st!.code, 0, st!.stderr);
  const md = st!.stdout;
  assert.match(md, /^\| label \| environment \| size \(chars\) \| UTF-8 bytes \| tool \| check \|/m);
  const row = (label: string, env: string, size: string, check: string, counted: string) =>
    assert.match(
      md,
      new RegExp(`^\\| ${label} \\| ${env} \\| ${size} \\|.*\\| ${check} \\|.*\\| \\+[\\d,]+ \\|[^|]*\\| ${counted} \\|`, "m"),
      label,
    );
  row("words-52000", "—", "52,000", "size", "yes");
  row("words-66000", "—", "66,000", "token", "yes");
  row("words-30000-max5000", "MAX_MCP_OUTPUT_TOKENS=5000", "30,000", "token", "yes");
  row("annotated-66000", "—", "66,000", "inline", "no");
  assert.equal((md.match(/^\| words-52000 \|/gm) ?? []).length, 2, "both repeats");
});
