import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMANDS } from "../../src/commands/index.js";
import { COMMON_OPTIONS } from "../../src/commands/options.js";
import { runCli, sample } from "../helpers.js";

const BASIC = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");
const HOME = sample("claude-home");
const DEMO = "c0ffee00-1111-4222-8333-444444444444";

function usage(r: { code: number; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, pattern);
}

test("-h and -v are --help and --version; `help CMD` and `version` read the same", async () => {
  const v = await runCli(["-v"]);
  assert.equal(v.code, 0);
  assert.match(v.stdout, /^\d+\.\d+\.\d+\n$/);
  assert.equal((await runCli(["version"])).stdout, v.stdout);
  const h = await runCli(["requests", "-h"]);
  assert.equal(h.code, 0);
  assert.match(h.stdout, /^ccforensics requests \[target\]/);
  assert.equal((await runCli(["help", "requests"])).stdout, h.stdout);
  assert.equal((await runCli(["requests", "--help"])).stdout, h.stdout);
  assert.match((await runCli(["-h"])).stdout, /Commands:\n {2}ccforensics sessions/);
});

test("common options may come before the command, as with global flags", async () => {
  const a = await runCli(["--json", "inventory", BASIC]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(a.stdout, (await runCli(["inventory", BASIC, "--json"])).stdout);
  const b = await runCli(["--format", "csv", "--tz", "UTC", "requests", BASIC]);
  assert.equal(b.stdout, (await runCli(["requests", BASIC, "--format", "csv"])).stdout);
  usage(await runCli(["--baseline", "x", "sessions"]), /--baseline does not apply to sessions/);
});

test("did-you-mean: a mistyped command or flag gets the nearest one; a far one gets none", async () => {
  usage(await runCli(["sesions"]), /unknown command "sesions"; did you mean sessions\?/);
  usage(await runCli(["reqeusts", BASIC]), /did you mean requests\?/);
  usage(await runCli(["requests", BASIC, "--frmat", "json"]), /Unknown argument: frmat \(did you mean --format\?\)/);
  usage(await runCli(["--frmat", "json", "requests", BASIC]), /did you mean --format\?/);
  usage(await runCli(["outputs", BASIC, "--stair-case"]), /did you mean --staircase\?/);
  usage(await runCli(["requests", BASIC, "--zzzzzz"]), /^ccforensics: Unknown argument: zzzzzz\n$/);
  usage(await runCli(["requests", BASIC, "--format", "tabel"]), /--format: "tabel" is not one of "table", .*; did you mean table\?/);
  usage(await runCli(["frobnicate"]), /^ccforensics: unknown command "frobnicate" \(ccforensics --help lists the commands\)\n$/);
});

test("a common option a command does not use is refused (exit 2), naming the commands that take it", async () => {
  usage(
    await runCli(["sessions", "--baseline", "foo"]),
    /--baseline does not apply to sessions; it goes with instructions, report, compare/,
  );
  usage(
    await runCli(["rpc", sample("logs", "rpc", "legacy-fallback.lab.jsonl"), "--claude-dir", HOME]),
    /--claude-dir does not apply to rpc/,
  );
  usage(await runCli(["requests", BASIC, "--no-subagents", "--rpc-log", "x"]), /--rpc-log does not apply to requests/);
  usage(await runCli(["lab", "output", "--format", "json"]), /--format does not apply to lab/);
});

test("a refused or unknown flag is named as typed: --no-subagents, not --subagents", async () => {
  usage(await runCli(["sessions", "--no-subagents"]), /^ccforensics: --no-subagents does not apply to sessions; it goes with requests/);
  usage(
    await runCli(["debug", sample("logs", "debug", "failures.debug.txt"), "--no-subagents"]),
    /^ccforensics: --no-subagents does not apply to debug;/,
  );
  usage(await runCli(["sessions", "--subagents"]), /^ccforensics: --subagents does not apply to sessions;/);
  usage(await runCli(["requests", BASIC, "--no-subagentz"]), /Unknown argument: no-subagentz \(did you mean --no-subagents\?\)/);
});

test("every command says which common options it takes", () => {
  for (const spec of COMMANDS)
    assert.ok(Array.isArray(spec.common), `${spec.command}: set common in its CommandSpec (options.ts OUTPUT, LOOKUP)`);
});

test("every command that takes --claude-dir takes --follow-links, and no other does", () => {
  const takes = (spec: (typeof COMMANDS)[number], opt: string) => (spec.common ?? []).includes(opt as never);
  const withDir = COMMANDS.filter((spec) => takes(spec, "claude-dir")).map((s) => s.command.split(" ")[0]);
  assert.ok(withDir.length >= 10, withDir.join(", "));
  assert.deepEqual(
    COMMANDS.filter((spec) => takes(spec, "follow-links")).map((s) => s.command.split(" ")[0]),
    withDir,
  );
});

test("every command refuses every common option it does not take, in one message naming the ones that do", async () => {
  let checked = 0;
  for (const spec of COMMANDS) {
    const name = spec.command.split(" ")[0]!;
    for (const [opt, o] of Object.entries(COMMON_OPTIONS)) {
      if ((spec.common ?? []).includes(opt as never) || opt in (spec.options ?? {})) continue;
      const flag = "type" in o && o.type === "boolean" ? [`--${opt}`] : [`--${opt}`, "x"];
      // Required positionals are checked before unknown flags: give one (lab's must be a server name).
      const pos = (spec.command.match(/<[^>]+>/g) ?? []).map(() => (name === "lab" ? "output" : "x"));
      usage(await runCli([name, ...pos, ...flag]), new RegExp(`--${opt} does not apply to ${name}`));
      checked++;
    }
  }
  assert.ok(checked > 50, `${checked} refusals checked`);
});

test("every command's help lists its own options first, then the common ones it takes, and no other", async () => {
  for (const spec of COMMANDS) {
    const name = spec.command.split(" ")[0]!;
    const h = (await runCli([name, "--help"])).stdout;
    const own = h.indexOf(`${name} options:`);
    const common = h.indexOf("Common options:");
    if (spec.options && Object.keys(spec.options).length) assert.ok(own > 0, `${name}: own options listed`);
    if (own > 0 && common > 0) assert.ok(own < common, `${name}: own options before the common ones`);
    for (const opt of Object.keys(COMMON_OPTIONS)) {
      const listed = new RegExp(`--(no-)?${opt}\\b`).test(h.slice(common));
      const takes = (spec.common ?? []).includes(opt as never);
      if (!(opt in (spec.options ?? {}))) assert.equal(common > 0 && listed, takes, `${name} --${opt}`);
    }
  }
});

test("the session filters are accepted by every command that looks sessions up", async () => {
  for (const cmd of ["sessions", "requests", "instructions", "outputs", "report", "inventory"]) {
    const args = cmd === "sessions" ? [cmd] : [cmd, "c0ffee00"];
    const r = await runCli([
      ...args,
      "--claude-dir",
      HOME,
      "--project",
      "lab-demo",
      "--since",
      "2000-01-01",
      "--until",
      "2100-01-01",
      "--json",
    ]);
    assert.equal(r.code, 0, `${cmd}: ${r.stderr}`);
  }
  const s = JSON.parse((await runCli(["sessions", "--claude-dir", HOME, "--until", "2000-01-01", "--json"])).stdout);
  assert.equal(s.sessions.length, 0);
  usage(await runCli(["sessions", "--claude-dir", HOME, "--until", "yesterday"]), /^ccforensics: --until: expected a date/);
  usage(await runCli(["sessions", "--claude-dir", HOME, "--since", "1d", "--until", "3d"]), /--since 1d is after --until 3d/);
});

test("--tz: tables and markdown show times in the zone, JSON and CSV stay UTC; TZ is the default; an unknown zone is exit 2", async () => {
  // The HTML page is published as markdown is: times of day in the zone, the date and the zone in a note under the table.
  const utc = await runCli(["requests", BASIC, "--format", "html"]);
  const tokyo = await runCli(["requests", BASIC, "--format", "html", "--tz", "Asia/Tokyo"]);
  assert.equal(tokyo.code, 0, tokyo.stderr);
  assert.match(utc.stdout, /<td class="short">09:14:05<\/td>[\s\S]*<p class="note">times: UTC, 2026-04-02<\/p>/);
  assert.match(tokyo.stdout, /<td class="short">18:14:05<\/td>[\s\S]*<p class="note">times: Asia\/Tokyo \(UTC\+09:00\), 2026-04-02<\/p>/);
  const iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
  assert.doesNotMatch(utc.stdout.replace(/<wbr>/g, ""), iso, "no ISO time left in the page");
  assert.equal((await runCli(["requests", BASIC, "--format", "html"], { env: { TZ: "Asia/Tokyo" } })).stdout, tokyo.stdout);
  assert.equal((await runCli(["requests", BASIC, "--format", "html", "--tz", "UTC"], { env: { TZ: "Asia/Tokyo" } })).stdout, utc.stdout);
  // Markdown shows times of day in the zone, the date and the zone once under the table.
  const mdUtc = await runCli(["requests", BASIC, "--format", "markdown"]);
  const mdTokyo = await runCli(["requests", BASIC, "--format", "markdown", "--tz", "Asia/Tokyo"]);
  assert.match(mdUtc.stdout, /\| 09:14:05 \|[\s\S]*> times: UTC, 2026-04-02\n/);
  assert.match(mdTokyo.stdout, /\| 18:14:05 \|[\s\S]*> times: Asia\/Tokyo \(UTC\+09:00\), 2026-04-02\n/);
  assert.equal((await runCli(["requests", BASIC, "--format", "markdown"], { env: { TZ: "Asia/Tokyo" } })).stdout, mdTokyo.stdout);
  for (const f of ["json", "csv"]) {
    assert.equal(
      (await runCli(["requests", BASIC, "--format", f, "--tz", "Asia/Tokyo"])).stdout,
      (await runCli(["requests", BASIC, "--format", f])).stdout,
      f,
    );
  }
  const table = await runCli(["sessions", "--claude-dir", HOME, "--tz", "America/New_York"]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /-0[45]:00/);
  usage(await runCli(["requests", BASIC, "--tz", "Mars/Olympus"]), /--tz: unknown time zone "Mars\/Olympus"/);
  const badEnv = await runCli(["requests", BASIC, "--format", "markdown"], { env: { TZ: "Nowhere/Land" } });
  assert.equal(badEnv.code, 0);
  assert.equal(badEnv.stdout, mdUtc.stdout);
  assert.match(badEnv.stderr, /TZ=Nowhere\/Land is not a time zone this Node knows; times are shown in UTC/);
});

test("-o FILE writes the document there (stdout stays empty), beside --chart; a config dir is refused", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-out-"));
  const r = await runCli(["requests", DEMO, "--claude-dir", HOME, "-o", "doc.md", "--format", "markdown", "--chart", "g.svg"], {
    cwd: dir,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "");
  assert.equal(
    readFileSync(join(dir, "doc.md"), "utf8"),
    (await runCli(["requests", DEMO, "--claude-dir", HOME, "--format", "markdown"])).stdout,
  );
  assert.ok(existsSync(join(dir, "g.svg")));
  const j = await runCli(["inventory", BASIC, "--output", join(dir, "inv.json"), "-j"]);
  assert.equal(j.code, 0, j.stderr);
  assert.equal(JSON.parse(readFileSync(join(dir, "inv.json"), "utf8")).command, "inventory");
  usage(
    await runCli(["requests", DEMO, "--claude-dir", HOME, "-o", join(HOME, "out.md")]),
    /--output .*refusing to write inside the Claude config dir/,
  );
  assert.equal(existsSync(join(HOME, "out.md")), false);
  usage(await runCli(["requests", BASIC, "-o", join(dir, "no", "such", "x.md")]), /no such directory/);
  usage(await runCli(["requests", BASIC, "-o", dir]), /is a directory/);
  const copy = join(dir, "t.jsonl");
  writeFileSync(copy, readFileSync(BASIC));
  usage(await runCli(["requests", copy, "-o", "t.jsonl"], { cwd: dir }), /refusing to write over an input of this run/);
  assert.ok(readFileSync(copy).equals(readFileSync(BASIC)), "the evidence is untouched");
});

test("colour: FORCE_COLOR and --color force it on a pipe; NO_COLOR wins over both; FORCE_COLOR=0 is off", async () => {
  const esc = /\x1b\[/;
  const run = (args: string[], env: NodeJS.ProcessEnv) => runCli(["requests", BASIC, ...args], { env: { NO_COLOR: undefined, ...env } });
  assert.doesNotMatch((await run([], {})).stdout, esc);
  assert.match((await run([], { FORCE_COLOR: "1" })).stdout, esc);
  assert.match((await run(["--color"], {})).stdout, esc);
  assert.doesNotMatch((await run([], { FORCE_COLOR: "0" })).stdout, esc);
  assert.doesNotMatch((await run(["--color"], { NO_COLOR: "1" })).stdout, esc);
  assert.doesNotMatch((await run([], { FORCE_COLOR: "1", NO_COLOR: "1" })).stdout, esc);
  assert.doesNotMatch((await run(["--no-color"], { FORCE_COLOR: "1" })).stdout, esc);
});

test("completion prints a bash/zsh script, and the script's own call lists the commands", async () => {
  const s = await runCli(["completion"]);
  assert.equal(s.code, 0);
  assert.match(s.stdout, /ccforensics --get-yargs-completions/);
  const c = await runCli(["--get-yargs-completions", "ccforensics", ""]);
  assert.equal(c.code, 0, c.stderr);
  for (const spec of COMMANDS) assert.ok(c.stdout.split("\n").includes(spec.command.split(" ")[0]!), spec.command);
});

test("progress reaches a terminal stderr with the total and a percentage, and is cleared; a pipe gets none", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-progress-"));
  const line = JSON.stringify({
    type: "assistant",
    timestamp: "2026-11-01T00:00:00Z",
    message: { id: "m", model: "x", role: "assistant", content: [], usage: { input_tokens: 1 } },
  });
  const file = join(dir, "big.jsonl");
  writeFileSync(file, `${Array.from({ length: 3000 }, () => line).join("\n")}\n`);
  const r = await runCli(["requests", file, "--json"], { tty: { stderr: true } });
  assert.equal(r.code, 0, r.stderr);
  JSON.parse(r.stdout);
  assert.match(r.stderr, /^\r\x1b\[K0\.\d MB of 0\.\d MB · \d+%/);
  assert.ok(r.stderr.endsWith("\r\x1b[K"), "the line is cleared before the document is written");
  assert.equal((await runCli(["requests", file, "--json"])).stderr, "");
});
