import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, sample } from "../helpers.js";
import { compareChartSpec, renderSvg, requestsChartTitle, staircaseChartSpec } from "../../src/render/chart.js";
import { runFolderName } from "../../src/pipeline/run-folder.js";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** Every text node and every attribute value of an SVG: what a reader or a screen reader gets. */
const texts = (svg: string) => [...svg.matchAll(/>([^<]+)</g)].map((m) => m[1]!);
const attrs = (svg: string) => [...svg.matchAll(/\s[\w:-]+="([^"]*)"/g)].map((m) => m[1]!);

const staircaseFiles = () => {
  const root = sample("outputs", "staircase", "claude", "projects");
  return readdirSync(root).flatMap((d) =>
    readdirSync(join(root, d))
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => join(root, d, f)),
  );
};

test("compare chart: deltas from 0 against the named baseline, negative allowed, every value written, labels whole", async () => {
  const long = "en-20000-limit25000-with-a-label-longer-than-any-axis-default";
  const rows = [
    { label: "none", run: "none-a", firstRequestTokens: 20138, deltaVsBaseline: 0, baselineLabel: "none" },
    { label: "en-1000", run: "en-1000-a", firstRequestTokens: 20515, deltaVsBaseline: 377, baselineLabel: "none" },
    { label: long, run: `${long}-a`, firstRequestTokens: 21865, deltaVsBaseline: 1727, baselineLabel: "none" },
    { label: "smaller", run: "smaller-a", firstRequestTokens: 19638, deltaVsBaseline: -500, baselineLabel: "none" },
    { label: "broken", run: "broken-a", firstRequestTokens: null, deltaVsBaseline: null, baselineLabel: "none", error: "no transcript" },
  ];
  const svg = await renderSvg(compareChartSpec(rows, "runs"));
  const t = texts(svg);
  assert.ok(t.includes("Δ request-1 tokens vs `none` — runs"), "the title names the baseline");
  assert.ok(t.includes("Δ request-1 tokens vs `none`"), "so does the axis");
  for (const v of ["+377", "+1,727", "−500", "0 (baseline)", "failed (see warnings)"]) assert.ok(t.includes(v), `value label ${v}`);
  assert.ok(t.includes(`${long}-a`), "the long run label is drawn whole");
  assert.ok(t.includes(long), "and the legend's too");
  assert.deepEqual(
    t.filter((s) => s.includes("…")),
    [],
    "nothing cut with …",
  );
  // The axis reaches below zero for the negative run: it is a delta chart, not bars of ~20,000 from 0.
  assert.ok(
    t.some((s) => /^−\d/.test(s)),
    "a negative tick",
  );
  assert.ok(!t.some((s) => /^2\d,\d{3}$/.test(s)), "no tick near the absolute ~20,000 tokens");
  assert.equal((svg.match(/aria-roledescription="bar"/g) ?? []).length, rows.length);
});

test("chart text from evidence stays escaped in every text and aria-label (vega re-reads strings in expressions)", async () => {
  const svg = await renderSvg(
    compareChartSpec([{ label: "n\u202eone", run: "a", firstRequestTokens: 1, deltaVsBaseline: 0, baselineLabel: "n\u202eone" }], "m"),
  );
  assert.doesNotMatch(svg, /\u202e/);
  assert.ok(texts(svg).includes("Δ request-1 tokens vs `n\\u202eone`"));
  const stairs = await renderSvg(
    staircaseChartSpec(
      [
        { chars: 500000, deltaTokens: 9, check: "in\u202eline", label: "l\u202e", run: "r\u202e" },
        { chars: 1, deltaTokens: 1, check: "size", label: "x", run: "y" },
      ],
      "t\u202e",
    ),
  );
  assert.doesNotMatch(stairs, /\u202e/);
});

test("compare chart without a baseline: absolute tokens, and the axis says how to get deltas", async () => {
  const svg = await renderSvg(
    compareChartSpec([{ label: "a", run: "a-1", firstRequestTokens: 20515, deltaVsBaseline: null, baselineLabel: null }], "m.json"),
  );
  assert.ok(texts(svg).includes("request-1 tokens (no baseline: --baseline LABEL)"));
  assert.ok(texts(svg).includes("20,515"));
});

test("compare --chart on samples/runs: the write-up's deltas on the bars", async () => {
  const out = join(mkdtempSync(join(tmpdir(), "ccf-cmp-")), "c.svg");
  const r = await runCli(["compare", "samples/runs", "--chart", out, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const t = texts(readFileSync(out, "utf8"));
  for (const v of ["+377", "+721", "+1,727", "+6,578", "en-20000-limit25000-a", "en-20000-limit25000"]) assert.ok(t.includes(v), v);
  assert.ok(t.includes("Δ request-1 tokens vs `none` — samples/runs"));
});

test("staircase: log size axis over the 24k–70k region, the outlier named, checks in the legend", async () => {
  const points = [
    { chars: 24000, deltaTokens: 49964, check: "inline", label: "emit_text", run: "r1" },
    { chars: 45000, deltaTokens: 17514, check: "inline", label: "emit_text", run: "r2" },
    { chars: 52000, deltaTokens: 1027, check: "size", label: "emit_text", run: "r3" },
    { chars: 70000, deltaTokens: 1013, check: "token", label: "emit_text", run: "r4" },
    { chars: 320000, deltaTokens: 1058, check: "size", label: "emit_text_annotated", run: "r5" },
  ];
  const svg = await renderSvg(staircaseChartSpec(points, "stairs"));
  const t = texts(svg);
  assert.ok(t.includes("result size (characters, log scale)"));
  assert.ok(t.includes("emit_text_annotated (320,000)"), "the outlier is named");
  // Here every inline result is smaller than every replaced one: no sizes where both happen, no band.
  assert.ok(!t.includes("checks change"));
  const mixed = await renderSvg(
    staircaseChartSpec([...points, { chars: 66000, deltaTokens: 25568, check: "inline", label: "x", run: "r6" }], "s"),
  );
  assert.ok(texts(mixed).includes("checks change"), "52,000–66,000 is shaded and named");
  assert.ok(!t.includes("emit_text (24,000)"), "points in the dense region are not");
  for (const c of ["inline", "size", "token"]) assert.ok(t.includes(c), `legend ${c}`);
  // Ticks inside the region where the checks change: on a linear 0–400k axis there would be none between 40k and 70k.
  const ticks = t.filter((s) => /^\d+k$/.test(s)).map((s) => Number(s.slice(0, -1)));
  assert.ok(ticks.filter((k) => k > 24 && k < 70).length >= 3, `ticks ${ticks.join(",")}`);
  // Each check keeps its own shape: inline circles, size squares, token triangles.
  const circles = (svg.match(/aria-roledescription="point"/g) ?? []).length;
  assert.equal(circles, points.length);
});

test("staircase points are named by their runs-dir folder, never by session id", async () => {
  const runs = mkdtempSync(join(tmpdir(), "ccf-runs-"));
  const src = staircaseFiles().find((f) => f.endsWith("000000045000.jsonl"))!;
  const dir = join(runs, "emit-45k-a", "claude", "projects", "-tmp-x");
  mkdirSync(dir, { recursive: true });
  copyFileSync(src, join(dir, "5e1c0a52-0003-4000-8000-000000045000.jsonl"));
  writeFileSync(
    join(runs, "emit-45k-a", "run.json"),
    JSON.stringify({ label: "emit-45k", session: "5e1c0a52-0003-4000-8000-000000045000" }),
  );
  assert.equal(runFolderName(join(dir, "5e1c0a52-0003-4000-8000-000000045000.jsonl")), "emit-45k-a");
  assert.equal(runFolderName(src), null);
  const out = join(runs, "s.svg");
  const r = await runCli(["outputs", "--staircase", join(dir, "5e1c0a52-0003-4000-8000-000000045000.jsonl"), "--chart", out, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const svg = readFileSync(out, "utf8");
  assert.match(svg, /aria-label="[^"]*emit-45k-a · emit_text/);
  assert.doesNotMatch(svg, UUID);
});

test("no chart title carries a raw UUID", async () => {
  assert.equal(requestsChartTitle("c0ffee00-1111-4222-8333-444444444444"), "Token growth per request — session c0ffee00");
  assert.equal(requestsChartTitle("/x/c0ffee00-1111-4222-8333-444444444444.jsonl"), "Token growth per request — c0ffee00….jsonl");
  assert.equal(requestsChartTitle("-"), "Token growth per request — stdin");
  const runs = await runCli(["report", "c0ffee00", "--claude-dir", "samples/claude-home", "--format", "html"]);
  assert.equal(runs.code, 0, runs.stderr);
  const svg = runs.stdout.slice(runs.stdout.indexOf("<svg"), runs.stdout.indexOf("</svg>"));
  assert.ok(svg.length > 0, "the report page has its chart");
  assert.match(svg, /Token growth per request — session c0ffee00/);
  assert.doesNotMatch(svg, UUID);
});

/**
 * Every chart the CLI draws, as `--chart FILE` and inline in `--format html`, from evidence that names home
 * dirs (run labels made `/home/alice/<label>`, the demo transcript's `/home/dev/…` paths) and session ids:
 * with --redact no full session id and no home path is left in any text or attribute.
 */
test("--redact reaches every SVG and HTML text and attribute of every chart", async () => {
  const root = mkdtempSync(join(tmpdir(), "ccf-redact-all-"));
  cpSync(sample("runs"), join(root, "runs"), { recursive: true });
  for (const run of readdirSync(join(root, "runs"))) {
    const file = join(root, "runs", run, "run.json");
    if (!existsSync(file)) continue;
    const spec = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...spec, label: `/home/alice/${spec.label}` }));
  }
  const HOME_PATH = /\/home\/|\/Users\//;
  const cases: Array<{ name: string; args: string[] }> = [
    { name: "compare", args: ["compare", join(root, "runs")] },
    { name: "staircase", args: ["outputs", "--staircase", ...staircaseFiles()] },
    { name: "requests", args: ["requests", "c0ffee00", "--claude-dir", sample("claude-home")] },
    { name: "report", args: ["report", "c0ffee00", "--claude-dir", sample("claude-home")] },
  ];
  const ids = new Set<string>();
  for (const c of cases) {
    const file = join(root, `${c.name}.svg`);
    const chart = c.name === "report" ? [] : ["--chart", file];
    const plain = await runCli([...c.args, ...chart, "--format", "html"]);
    assert.equal(plain.code, 0, plain.stderr);
    // Unredacted, the same page does name a home dir or a session id: there is something to hide.
    assert.ok(HOME_PATH.test(plain.stdout) || UUID.test(plain.stdout), `${c.name}: the page shows a home path or a session id`);
    for (const m of plain.stdout.matchAll(new RegExp(UUID.source, "gi"))) ids.add(m[0]);
    const r = await runCli([...c.args, ...chart, "--redact", "--format", "html"]);
    assert.equal(r.code, 0, `${c.name}: ${r.stderr}`);
    const pages: Record<string, string> = { html: r.stdout, ...(chart.length ? { file: readFileSync(file, "utf8") } : {}) };
    for (const [where, doc] of Object.entries(pages)) {
      assert.match(doc, /<svg/, `${c.name} ${where} has a chart`);
      for (const s of [...texts(doc), ...attrs(doc)]) {
        assert.doesNotMatch(s, UUID, `${c.name} ${where}: ${s}`);
        assert.doesNotMatch(s, HOME_PATH, `${c.name} ${where}: ${s}`);
      }
    }
  }
  assert.ok(ids.size >= 3, "the evidence did carry session ids to hide");
  const compare = await runCli(["compare", join(root, "runs"), "--format", "html"]);
  assert.match(compare.stdout, /aria-label="[^"]*\/home\/alice\/none/, "unredacted, the chart itself names the home dir");
});
