import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, cpSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli, sample } from "../helpers.js";

const HOME = sample("claude-home");

test("an unknown flag is a usage error: exit 2", async () => {
  const r = await runCli(["requests", "--bogus", sample("basic", "11111111-2222-4333-8444-555555555555.jsonl")]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Unknown argument: bogus/);
  assert.equal(r.stdout, "");
});

test("an unknown command is a usage error: exit 2", async () => {
  const r = await runCli(["requestz"]);
  assert.equal(r.code, 2);
});

test("an ambiguous prefix lists the candidates: exit 2", async () => {
  const r = await runCli(["requests", "abcdef12", "--claude-dir", HOME]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /ambiguous; it matches 2 sessions/);
  assert.match(r.stderr, /abcdef12-0000-4000-8000-000000000001/);
  assert.match(r.stderr, /abcdef12-0000-4000-8000-000000000002/);
});

test("a full id is unique even when another id shares its prefix", async () => {
  const j = parseEnvelope(await runCli(["requests", "abcdef12-0000-4000-8000-000000000001", "--claude-dir", HOME, "--json"]), "requests");
  assert.equal(j.requests.length, 2);
  assert.match(j.inputs[0].path, /abcdef12-0000-4000-8000-000000000001\.jsonl$/);
});

test("an unknown id names every directory searched: exit 2", async () => {
  const r = await runCli(["requests", "deadbeef", "--claude-dir", HOME, "--claude-dir", "/nonexistent/cfg"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no session matches "deadbeef"/);
  assert.match(r.stderr, /claude-home\/projects\/\*\/deadbeef\*\.jsonl/);
  assert.match(r.stderr, /\/nonexistent\/cfg\/projects\/\*\/deadbeef\*\.jsonl\s+\(directory does not exist\)/);
});

test("a prefix shorter than 6 characters is refused: exit 2", async () => {
  const r = await runCli(["requests", "abcde", "--claude-dir", HOME]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /at least 6 characters/);
});

test("CLAUDE_CONFIG_DIR (comma list) is searched when --claude-dir is absent; --claude-dir wins over it", async () => {
  const r = await runCli(["requests", "abcdef12-0000-4000-8000-000000000002", "--json"], {
    env: { CLAUDE_CONFIG_DIR: `/nowhere,${HOME}` },
  });
  assert.equal(parseEnvelope(r, "requests").requests.length, 1);
  const r2 = await runCli(["requests", "abcdef12-0000-4000-8000-000000000002"], { env: { CLAUDE_CONFIG_DIR: HOME } });
  assert.equal(r2.code, 0);
  const r3 = await runCli(["requests", "abcdef12-0000-4000-8000-000000000002", "--claude-dir", "/nowhere"], {
    env: { CLAUDE_CONFIG_DIR: HOME },
  });
  assert.equal(r3.code, 2);
});

test("~/.config/claude and ~/.claude are the defaults", async () => {
  const home = mkdtempSync(join(tmpdir(), "ccf-home-"));
  mkdirSync(join(home, ".claude"), { recursive: true });
  cpSync(join(HOME, "projects"), join(home, ".claude", "projects"), { recursive: true });
  const r = await runCli(["requests", "abcdef12-0000-4000-8000-000000000002", "--json"], { env: { HOME: home } });
  assert.equal(parseEnvelope(r, "requests").requests.length, 1);
});

test("a missing file is a usage error: exit 2", async () => {
  const r = await runCli(["requests", "nope/missing.jsonl"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no such file: nope\/missing\.jsonl/);
});

test("control characters from evidence never reach the terminal raw", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-esc-"));
  const f = join(dir, "esc.jsonl");
  writeFileSync(
    f,
    `{"type":"assistant","message":{"id":"m\\u001b[31m","model":"evil\\u001b]0;title\\u0007\\u202e\\u009b2J","content":[],"stop_reason":"end_turn","usage":{"input_tokens":1}}}\nnot json \u001b[2J\n`,
  );
  for (const format of ["table", "markdown", "csv", "json"]) {
    const r = await runCli(["requests", f, "--format", format]);
    assert.equal(r.code, 0);
    assert.ok(
      !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/.test(r.stdout.replace(/\r\n/g, "\n")),
      `${format} stdout has a raw control character`,
    );
    assert.ok(!/\u001b/.test(r.stderr), `${format} stderr has a raw ESC`);
    assert.match(r.stdout + r.stderr, format === "json" ? /\\u001b/ : /\\x1b/);
  }
  const j = JSON.parse((await runCli(["requests", f, "--json"])).stdout);
  assert.equal(j.requests[0].model, "evil\u001b]0;title\u0007\u202e\u009b2J", "JSON keeps the value exactly");
});

test("--claude-dir before the target does not swallow it; repeated --claude-dir collects dirs", async () => {
  const r = await runCli(["requests", "--claude-dir", HOME, "abcdef12-0000-4000-8000-000000000002", "--json"]);
  assert.equal(parseEnvelope(r, "requests").requests.length, 1);
  const r2 = await runCli(["requests", "--claude-dir", "/nowhere", "--claude-dir", HOME, "abcdef12-0000-4000-8000-000000000002", "--json"]);
  assert.equal(parseEnvelope(r2, "requests").requests.length, 1);
});

const BASIC = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");

/** A usage error is exit 2, one line on stderr naming the flag, nothing on stdout. */
function usageError(r: { code: number; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr.trimEnd().split("\n").length, 1, `one line: ${r.stderr}`);
  assert.match(r.stderr, pattern);
}

test("a one-value flag given twice is a usage error; --claude-dir stays repeatable", async () => {
  usageError(await runCli(["requests", BASIC, "--format", "csv", "--format", "json"]), /--format given more than once/);
  usageError(await runCli(["outputs", BASIC, "--debug-file", "a.txt", "--debug-file", "b.txt"]), /--debug-file given more than once/);
  usageError(await runCli(["sessions", "--claude-dir", HOME, "--since", "7d", "--since", "1d"]), /--since given more than once/);
  const ok = await runCli(["sessions", "--claude-dir", "/nowhere", "--claude-dir", HOME, "--json"]);
  assert.ok(parseEnvelope(ok, "sessions").sessions.length > 0);
});

test("a flag missing its value is a usage error: at the end, or followed by another flag", async () => {
  usageError(await runCli(["requests", BASIC, "--format"]), /--format needs a value/);
  usageError(await runCli(["requests", BASIC, "--claude-dir"]), /--claude-dir needs a value/);
  usageError(await runCli(["requests", "--claude-dir", "--json", BASIC]), /--claude-dir needs a value \(got the flag --json\)/);
  usageError(await runCli(["requests", "--format", "-j", BASIC]), /--format needs a value \(got the flag -j\)/);
  usageError(await runCli(["requests", BASIC, "--format="]), /--format needs a value/);
  usageError(await runCli(["requests", BASIC, "--claude-dir="]), /--claude-dir needs a value/);
  usageError(await runCli(["instructions", BASIC, "--baseline", BASIC, "--wrapper-tokens", "many"]), /--wrapper-tokens needs a number/);
});

test("--json with another --format contradicts it; with --format json it agrees", async () => {
  usageError(await runCli(["requests", BASIC, "--json", "--format", "csv"]), /--json and --format csv contradict/);
  usageError(await runCli(["requests", BASIC, "--format", "markdown", "-j"]), /--json and --format markdown contradict/);
  parseEnvelope(await runCli(["requests", BASIC, "--json", "--format", "json"]), "requests");
  parseEnvelope(await runCli(["requests", BASIC, "-j"]), "requests");
  const csv = await runCli(["requests", BASIC, "--format", "csv"]);
  assert.equal(csv.code, 0);
  assert.match(csv.stdout.split("\n")[0]!, /,/);
});

test("a value that starts with a dash is the flag's value, not more flags", async () => {
  const r = await runCli(["sessions", "--claude-dir", HOME, "--since", "-7d"]);
  usageError(r, /--since: .*"-7d"/);
  assert.doesNotMatch(r.stderr, /Unknown argument/);
  // --project takes any text, dashes included; nothing matches it, so no rows and exit 0.
  const p = parseEnvelope(await runCli(["sessions", "--claude-dir", HOME, "--project", "-x-", "--json"]), "sessions");
  assert.equal(p.sessions.length, 0);
  usageError(await runCli(["requests", BASIC, "--bogus"]), /Unknown argument: bogus/);
  usageError(await runCli(["requests", BASIC, "-x"]), /Unknown argument: x/);
});

test("help and version go to stdout with exit 0, and runs do not leak into each other", async () => {
  const h = await runCli(["--help"]);
  assert.equal(h.code, 0);
  assert.match(h.stdout, /ccforensics <command> \[target\.\.\] \[options\]/);
  // Common options are listed per command (they apply to some commands only).
  assert.match((await runCli(["requests", "--help"])).stdout, /--format/);
  const v = await runCli(["--version"]);
  assert.equal(v.code, 0);
  assert.match(v.stdout, /^\d+\.\d+\.\d+\n$/);
  const a = await runCli(["requests", BASIC, "--format", "csv"]);
  const b = await runCli(["requests", BASIC]);
  assert.notEqual(a.stdout, b.stdout, "the second run does not keep the first run's --format");
  assert.match(b.stdout, /Requests/);
});
