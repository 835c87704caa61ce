// npm run bench: issue 14's yardstick in one run. On the shared generator's 200 MB transcript
// (shared/gen.mjs --size 200MB --seed 3; 1 GB and one-giant-line files with BENCH_LARGE=1) it runs the
// tool's commands, the shared baseline-split.mjs --sync, readline, jq, Node reading the bytes and
// ccusage (bench/package.json pins it), alternating, BENCH_ROUNDS rounds (default 3): per program the
// median wall time, MiB/s, peak RSS and the median of the per-round ratios to baseline-split (the
// machine is shared and noisy: only ratios taken in the same round mean anything). Every program that
// prints token totals is checked against the generator's .expected.json. Then `sessions` over a
// generated 20,000-session config dir, a lookup by id there, and startup. Markdown to stdout,
// bench/out/result.json for the record.
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { genSessions, requestLine } from "./gen-many.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "out");
const cli = join(here, "..", "dist", "cli.js");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LARGE = process.env.BENCH_LARGE === "1";
const MiB = 1024 * 1024;
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
const CCUSAGE = join(here, "node_modules", ".bin", "ccusage");
const JQ = spawnSync("jq", ["--version"]).status === 0;
mkdirSync(out, { recursive: true });
const say = (s) => process.stderr.write(`${s}\n`);

/** Runs one program; wall time, peak RSS (GNU time's %M, the largest process of the tree) and stdout. */
function run(cmd, args, env = {}) {
  const t0 = process.hrtime.bigint();
  const argv = TIME ? ["-f", "BENCH_RSS_KB=%M", cmd, ...args] : args;
  const r = spawnSync(TIME ?? cmd, argv, { env: { ...process.env, ...env }, maxBuffer: 1 << 30, encoding: "utf8" });
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const rss = Number(/BENCH_RSS_KB=(\d+)/.exec(r.stderr)?.[1] ?? NaN) * 1024;
  return { secs, rss, stdout: r.stdout };
}

/** A generated file (and its .expected.json), made once. */
function dataFile(name, genArgs) {
  const file = join(out, name);
  if (!existsSync(`${file}.expected.json`)) {
    say(`generating ${file} …`);
    run(process.execPath, [join(here, "shared", "gen.mjs"), "--out", file, "--seed", "3", ...genArgs]);
  }
  return { file, bytes: statSync(file).size, expected: JSON.parse(readFileSync(`${file}.expected.json`, "utf8")) };
}

/** ccusage reads a config dir: one project holding a hard link to the file, under the session id of its records. */
function ccusageHome(data) {
  const home = join(out, `ccusage-${data.expected.seed}-${data.bytes}`);
  // The first lines only: the 1 GB file is longer than a string can be.
  const head = Buffer.alloc(1 << 16);
  const fd = openSync(data.file, "r");
  const n = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const sid = JSON.parse(head.toString("utf8", 0, n).split("\n")[1]).sessionId;
  const dest = join(home, "projects", "-bench", `${sid}.jsonl`);
  if (!existsSync(dest)) {
    mkdirSync(dirname(dest), { recursive: true });
    linkSync(data.file, dest);
  }
  return home;
}

const SUM_KEYS = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens"];
const fromTotals = (totals) => ({
  input_tokens: totals.reduce((n, t) => n + t.inputTokens, 0),
  cache_creation_input_tokens: totals.reduce((n, t) => n + t.cacheCreationInputTokens, 0),
  cache_read_input_tokens: totals.reduce((n, t) => n + t.cacheReadInputTokens, 0),
  output_tokens: totals.reduce((n, t) => n + t.outputTokens, 0),
});

/** The programs on one data file; `sums` reads a program's token totals from its stdout (none: only the exit code counts). */
function programs(data) {
  const f = data.file;
  const node = (label, args, sums) => ({ label, cmd: process.execPath, args, sums });
  const list = [
    node("Node reading the bytes (1 MiB readSync)", [join(here, "read-bytes.mjs"), f]),
    node("… plus sha256", [join(here, "read-bytes.mjs"), f, "--sha256"]),
    node("baseline-split --sync (yardstick)", [join(here, "shared", "baseline-split.mjs"), f, "--sync"], (s) => JSON.parse(s).sums),
    node("readline + JSON.parse", [join(here, "readline-baseline.mjs"), f], (s) => JSON.parse(s).sums),
  ];
  if (JQ)
    list.push({
      label: "jq (shared/jq-baseline.sh)",
      cmd: "bash",
      args: [join(here, "shared", "jq-baseline.sh"), f],
      sums: (s) => JSON.parse(s).sums,
    });
  if (existsSync(CCUSAGE)) {
    const home = ccusageHome(data);
    list.push({
      label: "ccusage 20.0.24 session --offline --json",
      cmd: CCUSAGE,
      args: ["session", "--offline", "--json"],
      env: { CLAUDE_CONFIG_DIR: home },
      sums: (s) => {
        const ss = JSON.parse(s).session;
        const add = (k) => ss.reduce((n, x) => n + x[k], 0);
        return {
          input_tokens: add("inputTokens"),
          cache_creation_input_tokens: add("cacheCreationTokens"),
          cache_read_input_tokens: add("cacheReadTokens"),
          output_tokens: add("outputTokens"),
        };
      },
    });
  }
  list.push(
    node("ccforensics requests --format json", [cli, "requests", f, "--format", "json"], (s) => fromTotals(JSON.parse(s).totals)),
    node("ccforensics report", [cli, "report", f, "--format", "json"], (s) => fromTotals(JSON.parse(s).totals)),
    node("ccforensics outputs", [cli, "outputs", f, "--format", "json"]),
  );
  return list;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Every program once per round, the order reversed every other round; ratios are taken within a round. */
function measureSet(data, rounds) {
  const list = programs(data);
  const base = list.find((p) => p.label.startsWith("baseline-split"));
  const times = new Map(list.map((p) => [p, []]));
  const rss = new Map(list.map((p) => [p, 0]));
  const ratios = new Map(list.map((p) => [p, []]));
  const checked = new Map();
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...list].reverse() : list;
    const round = new Map();
    for (const p of order) {
      const m = run(p.cmd, p.args, p.env);
      round.set(p, m.secs);
      times.get(p).push(m.secs);
      rss.set(p, Math.max(rss.get(p), m.rss));
      if (p.sums) {
        const got = p.sums(m.stdout);
        const bad = SUM_KEYS.filter((k) => got[k] !== data.expected.sums[k]);
        if (bad.length)
          throw new Error(
            `${p.label}: totals differ from the generator's (${bad.map((k) => `${k} ${got[k]} ≠ ${data.expected.sums[k]}`).join(", ")})`,
          );
        checked.set(p, true);
      }
      say(`  round ${r + 1}: ${p.label.padEnd(42)} ${m.secs.toFixed(2)} s`);
    }
    for (const p of list) ratios.get(p).push(round.get(base) / round.get(p));
  }
  return list.map((p) => ({
    program: p.label,
    seconds: +median(times.get(p)).toFixed(3),
    mibPerSec: +(data.bytes / MiB / median(times.get(p))).toFixed(0),
    peakRssMB: +(rss.get(p) / 1e6).toFixed(0),
    vsBaseline: +median(ratios.get(p)).toFixed(2),
    totals: p.sums ? (checked.get(p) ? "match" : "?") : "—",
  }));
}

/** `sessions` at scale: 20,000 sessions in 50 projects, and one lookup by id among them. */
function sessionsSet(rounds) {
  const dir = join(out, "many-20000");
  if (!existsSync(join(dir, "done"))) {
    say(`generating ${dir} …`);
    rmSync(dir, { recursive: true, force: true });
    genSessions(dir, 20000, 50);
    writeFileSync(join(dir, "done"), "");
  }
  // gen-many.mjs names session i `00005e55-0000-4000-8000-<i in hex>`; 12,345 is in project p45.
  const id = "00005e55-0000-4000-8000-000000003039";
  const list = [
    { label: "readdir + JSON.parse loop (floor)", cmd: process.execPath, args: [join(here, "readdir-baseline.mjs"), dir] },
    {
      label: "ccforensics sessions --format json",
      cmd: process.execPath,
      args: [cli, "sessions", "--claude-dir", dir, "--format", "json"],
      check: (s) => JSON.parse(s).sessions.length === 20000,
    },
    {
      label: "ccforensics requests <id> (lookup)",
      cmd: process.execPath,
      args: [cli, "requests", id, "--claude-dir", dir, "--format", "json"],
      check: (s) => JSON.parse(s).requests.length === 3,
    },
  ];
  if (existsSync(CCUSAGE))
    list.push({
      label: "ccusage 20.0.24 session --offline --json",
      cmd: CCUSAGE,
      args: ["session", "--offline", "--json"],
      env: { CLAUDE_CONFIG_DIR: dir },
    });
  return timed(list, rounds);
}

function timed(list, rounds) {
  return list.map((p) => {
    const ts = [];
    let rss = 0;
    for (let r = 0; r < rounds; r++) {
      const m = run(p.cmd, p.args, p.env);
      if (p.check && !p.check(m.stdout)) throw new Error(`${p.label}: unexpected output`);
      ts.push(m.secs);
      rss = Math.max(rss, m.rss);
    }
    say(`  ${p.label.padEnd(42)} ${median(ts).toFixed(3)} s`);
    return { program: p.label, seconds: +median(ts).toFixed(3), peakRssMB: +(rss / 1e6).toFixed(0) };
  });
}

function startupSet() {
  const one = join(out, "one-line.jsonl");
  writeFileSync(one, `${requestLine("00000000-0000-4000-8000-000000000001", 1)}\n`);
  const n = (label, args) => ({ label, cmd: process.execPath, args });
  return timed(
    [
      n('node -e ""', ["-e", ""]),
      n("ccforensics --version", [cli, "--version"]),
      n("ccforensics --help", [cli, "--help"]),
      n("ccforensics requests <one-line file>", [cli, "requests", one, "--format", "json"]),
    ],
    11,
  ).map((r) => ({ ...r, ms: Math.round(r.seconds * 1000) }));
}

const table = (rows, cols) =>
  [
    `| ${cols.map((c) => c[0]).join(" | ")} |`,
    `|${cols.map((c, i) => (i ? "---:" : "---")).join("|")}|`,
    ...rows.map((r) => `| ${cols.map((c) => c[1](r)).join(" | ")} |`),
  ].join("\n");
const fmtRss = (r) => (Number.isFinite(r.peakRssMB) ? `${r.peakRssMB} MB` : "—");
const throughputCols = [
  ["program", (r) => r.program],
  ["MiB/s", (r) => r.mibPerSec.toLocaleString("en-US")],
  ["peak RSS", fmtRss],
  ["× baseline speed", (r) => (r.program.startsWith("ccforensics") ? `**${r.vsBaseline.toFixed(2)}**` : r.vsBaseline.toFixed(2))],
  ["totals", (r) => r.totals],
];

const load0 = loadavg();
const result = {
  date: new Date().toISOString(),
  node: process.version,
  rounds: ROUNDS,
  load: { before: load0.map((x) => +x.toFixed(2)) },
  sets: {},
};
const t200 = dataFile("t200.jsonl", ["--size", "200MB"]);
say(`200 MB set (${t200.bytes} bytes), ${ROUNDS} rounds`);
result.sets.t200 = measureSet(t200, ROUNDS);
if (LARGE) {
  const t1g = dataFile("t1g.jsonl", ["--size", "1GB"]);
  say("1 GB set, 1 round");
  result.sets.t1g = measureSet(t1g, 1);
  for (const [name, size] of [
    ["huge400.jsonl", "400MB"],
    ["huge600.jsonl", "600MB"],
  ]) {
    const h = dataFile(name, ["--size", "2MB", "--huge-line", size]);
    result.sets[name] = timed(
      [{ label: `ccforensics requests (one ${size} line)`, cmd: process.execPath, args: [cli, "requests", h.file, "--format", "json"] }],
      1,
    );
  }
}
say("sessions");
result.sets.sessions = sessionsSet(ROUNDS);
say("startup");
result.sets.startup = startupSet();
result.load.after = loadavg().map((x) => +x.toFixed(2));
writeFileSync(join(out, "result.json"), `${JSON.stringify(result, null, 2)}\n`);

const lines = [
  `Measured ${result.date.slice(0, 10)}, Node ${result.node}, ${ROUNDS} rounds, load average ${result.load.before[0]} before, ${result.load.after[0]} after.`,
  "",
  `200 MB transcript (shared gen.mjs --size 200MB --seed 3):`,
  "",
  table(result.sets.t200, throughputCols),
];
if (LARGE) {
  lines.push("", "1 GB transcript (one round):", "", table(result.sets.t1g, throughputCols), "");
  for (const k of ["huge400.jsonl", "huge600.jsonl"])
    lines.push(`- ${result.sets[k][0].program}: ${result.sets[k][0].seconds} s, peak RSS ${fmtRss(result.sets[k][0])}`);
}
lines.push(
  "",
  "20,000 sessions in 50 projects:",
  "",
  table(result.sets.sessions, [
    ["program", (r) => r.program],
    ["time", (r) => `${r.seconds.toFixed(2)} s`],
    ["peak RSS", fmtRss],
  ]),
);
lines.push(
  "",
  "Startup (median of 11):",
  "",
  table(result.sets.startup, [
    ["program", (r) => r.program],
    ["time", (r) => `${r.ms} ms`],
  ]),
);
process.stdout.write(`${lines.join("\n")}\n`);
