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
  const r = await runCli(["requests", "abcdef12-0000-4000-8000-000000000002", "--json"], { env: { CLAUDE_CONFIG_DIR: `/nowhere,${HOME}` } });
  assert.equal(parseEnvelope(r, "requests").requests.length, 1);
  const r2 = await runCli(["requests", "abcdef12-0000-4000-8000-000000000002"], { env: { CLAUDE_CONFIG_DIR: HOME }, });
  assert.equal(r2.code, 0);
  const r3 = await runCli(["requests", "abcdef12-0000-4000-8000-000000000002", "--claude-dir", "/nowhere"], { env: { CLAUDE_CONFIG_DIR: HOME } });
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
  writeFileSync(f, `{"type":"assistant","message":{"id":"m\\u001b[31m","model":"evil\\u001b]0;title\\u0007\\u202e\\u009b2J","content":[],"stop_reason":"end_turn","usage":{"input_tokens":1}}}\nnot json \u001b[2J\n`);
  for (const format of ["table", "markdown", "csv", "json"]) {
    const r = await runCli(["requests", f, "--format", format]);
    assert.equal(r.code, 0);
    assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/.test(r.stdout.replace(/\r\n/g, "\n")), `${format} stdout has a raw control character`);
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
