// npm run bench: generates (once) a >= 500 MB synthetic transcript, then measures in the same run
// the bare Node baselines and `ccforensics requests --format json`: throughput (MB/s) and peak RSS.
// Each is run REPEAT times; the best time is reported (least disturbed by the machine).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "./gen.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, "out");
const MB = 1024 * 1024;
const target = Number(process.env.BENCH_MB ?? 512) * MB;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
mkdirSync(outDir, { recursive: true });
const file = join(outDir, `synthetic-${target / MB}MB.jsonl`);
if (!existsSync(file) || statSync(file).size < target) {
  process.stderr.write(`generating ${file} …\n`);
  const g = await generate(file, target);
  process.stderr.write(`  ${g.lines} lines, ${g.requests} requests\n`);
}
const size = statSync(file).size;

function measure(label, args, parse) {
  let best;
  for (let i = 0; i < REPEAT; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { maxBuffer: 1 << 30, encoding: "utf8" });
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0) throw new Error(`${label} failed: ${r.stderr}`);
    const m = parse(r);
    if (!best || secs < best.secs) best = { label, secs, ...m };
  }
  best.mbps = size / MB / best.secs;
  process.stderr.write(
    `${label.padEnd(34)} ${best.secs.toFixed(2)} s  ${best.mbps.toFixed(0)} MB/s  peak RSS ${(best.rss / MB).toFixed(0)} MB\n`,
  );
  return best;
}

const baseline = (mode) =>
  measure(`baseline (${mode} + JSON.parse)`, [join(here, "baseline.mjs"), file, mode], (r) => {
    const j = JSON.parse(r.stdout);
    return { rss: j.maxRssBytes, total: j.totalInputTokens, requests: j.requests };
  });
const split = baseline("split");
const readline = baseline("readline");
const cli = measure(
  "ccforensics requests --format json",
  ["--import", join(here, "rss.mjs"), join(here, "..", "dist", "cli.js"), "requests", file, "--format", "json"],
  (r) => {
    const j = JSON.parse(r.stdout);
    const total = j.totals.reduce((n, t) => n + t.totalInputTokens, 0);
    return { rss: Number(/BENCH_MAX_RSS=(\d+)/.exec(r.stderr)?.[1] ?? 0), total, requests: j.requests.length };
  },
);
if (cli.total !== split.total || cli.requests !== split.requests) {
  throw new Error(
    `results differ: ccforensics ${cli.requests} requests / ${cli.total} tokens, baseline ${split.requests} / ${split.total}`,
  );
}
const result = {
  date: new Date().toISOString(),
  node: process.version,
  fileBytes: size,
  repeat: REPEAT,
  runs: [split, readline, cli].map((m) => ({
    label: m.label,
    seconds: +m.secs.toFixed(3),
    mbPerSec: +m.mbps.toFixed(1),
    peakRssMB: +(m.rss / MB).toFixed(1),
  })),
  ratioVsSplitBaseline: +(cli.mbps / split.mbps).toFixed(2),
  ratioVsReadlineBaseline: +(cli.mbps / readline.mbps).toFixed(2),
};
writeFileSync(join(outDir, "result.json"), JSON.stringify(result, null, 2));
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
