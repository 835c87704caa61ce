import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, sample } from "../helpers.js";
import { renderSvg, staircaseChartSpec, compareChartSpec } from "../../src/render/chart.js";

test("requests --chart writes an SVG with one line per chain and the figures' axis", async () => {
  const out = join(mkdtempSync(join(tmpdir(), "ccf-chart-")), "growth.svg");
  const r = await runCli(["requests", "2a2a2a2a", "--claude-dir", sample("subagents", "claude"), "--chart", out, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const svg = readFileSync(out, "utf8");
  assert.match(svg, /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg, /total input tokens/);
  assert.match(svg, /request #/);
  for (const chain of ["main", "a1b2c3d4e5f607182", "a0f1e2d3c4b5a6978"]) assert.match(svg, new RegExp(`>${chain}<`));
  // 4 + 3 + 2 request points
  assert.equal((svg.match(/aria-roledescription="point"/g) ?? []).length, 9);
});

test("--chart refuses to write inside a Claude config dir", async () => {
  const home = sample("subagents", "claude");
  const target = join(home, "chart.svg");
  const r = await runCli(["requests", "2a2a2a2a", "--claude-dir", home, "--chart", target]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /refusing to write inside the Claude config dir/);
  assert.equal(existsSync(target), false);
});

test("staircase and compare specs render: points coloured by check, bars per run", async () => {
  const svg = await renderSvg(
    staircaseChartSpec(
      [
        { chars: 30000, deltaTokens: 11600, check: "inline", label: "a", run: "a" },
        { chars: 52000, deltaTokens: 1000, check: "size", label: "b", run: "b" },
        { chars: 66000, deltaTokens: 1010, check: "token", label: "c", run: "c" },
      ],
      "staircase",
    ),
  );
  for (const c of ["inline", "size", "token"]) assert.match(svg, new RegExp(`>${c}<`));
  assert.match(svg, /result size \(characters, log scale\)/);
  const bars = await renderSvg(
    compareChartSpec(
      [
        { label: "none", run: "none-a", firstRequestTokens: 20000, deltaVsBaseline: 0, baselineLabel: "none" },
        { label: "en", run: "en-a", firstRequestTokens: 20377, deltaVsBaseline: 377, baselineLabel: "none" },
      ],
      "first",
    ),
  );
  assert.equal((bars.match(/aria-roledescription="bar"/g) ?? []).length, 2);
});

test("a long table is laid out in blocks (cli-table3 is quadratic), every row still printed", async () => {
  const { renderTerminal, BLOCK_ROWS } = await import("../../src/render/table.js");
  const { plain } = await import("../../src/render/palette.js");
  const { col } = await import("../../src/report/model.js");
  const rows = Array.from({ length: BLOCK_ROWS * 2 + 7 }, (_, i) => ({ n: i + 1 }));
  const out = renderTerminal(
    { title: "t", tables: [{ id: "x", title: "x", columns: [col("n", "n", "int")], rows, footer: [{ n: 999999 }] }], warnings: [] },
    plain,
  );
  assert.match(out, /rows 1–500 of 1007/);
  assert.match(out, /rows 1001–1007 of 1007/);
  assert.equal((out.match(/│\s+\d[\d,]*\s+│/g) ?? []).length, rows.length + 1);
});

test("outputs --staircase --chart: one point per result, coloured by the check that fired", async () => {
  const { readdirSync } = await import("node:fs");
  const root = sample("outputs", "staircase", "claude", "projects");
  const files = readdirSync(root).flatMap((d) =>
    readdirSync(join(root, d))
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => join(root, d, f)),
  );
  const out = join(mkdtempSync(join(tmpdir(), "ccf-stair-")), "stair.svg");
  const r = await runCli(["outputs", "--staircase", ...files, "--chart", out, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  const svg = readFileSync(out, "utf8");
  const drawn = j.staircase.filter((x: any) => x.chars !== null && x.deltaTokens !== null).length;
  assert.equal((svg.match(/aria-roledescription="point"/g) ?? []).length, drawn);
  for (const c of new Set(j.staircase.map((x: any) => x.check))) assert.match(svg, new RegExp(`>${c}<`));
  const bad = await runCli(["outputs", files[0]!, "--chart", out]);
  assert.equal(bad.code, 2, "--chart needs --staircase");
});
