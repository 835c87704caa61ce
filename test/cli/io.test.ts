import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { main, type Io } from "../../src/main.js";
import { ROOT, parseEnvelope, runCli, sample } from "../helpers.js";

const BASIC = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");

function io(over: Partial<Io>): Io & { out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) => ({ write: (c: string | Uint8Array) => into.push(String(c)) > 0, once: () => undefined });
  return {
    stdin: Readable.from([]),
    stdout: sink(out),
    stderr: sink(err),
    env: { TZ: "UTC" },
    cwd: ROOT,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    columns: undefined,
    ...over,
    out: () => out.join(""),
    err: () => err.join(""),
  };
}

test("relative --claude-dir and --chart resolve against io.cwd, not the process's", async () => {
  const j = parseEnvelope(await runCli(["sessions", "--claude-dir", "claude-home", "--json"], { cwd: sample() }), "sessions");
  assert.ok(j.sessions.length > 0);
  const dir = mkdtempSync(join(tmpdir(), "ccf-cwd-"));
  const r = await runCli(["requests", BASIC, "--chart", "chart.svg"], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(dir, "chart.svg")));
  assert.equal(existsSync(join(ROOT, "chart.svg")), false);
});

test("colour follows io: a TTY stdout gets it, NO_COLOR or --no-color or a pipe do not", async () => {
  const tty = io({ stdoutIsTTY: true });
  assert.equal(await main(["requests", BASIC], tty), 0);
  assert.match(tty.out(), /\x1b\[/);
  for (const [args, over] of [
    [[], { stdoutIsTTY: true, env: { NO_COLOR: "1" } }],
    [["--no-color"], { stdoutIsTTY: true }],
    [[], {}],
  ] as const) {
    const x = io(over);
    assert.equal(await main(["requests", BASIC, ...args], x), 0);
    assert.doesNotMatch(x.out(), /\x1b\[/);
  }
});

test("no target with a terminal stdin is a usage error; with a pipe it reads io.stdin", async () => {
  const t = io({ stdinIsTTY: true });
  assert.equal(await main(["requests"], t), 2);
  assert.match(t.err(), /no target/);
  const p = io({
    stdin: Readable.from([Buffer.from('{"type":"assistant","message":{"id":"m1","model":"x","content":[],"usage":{"input_tokens":7}}}\n')]),
  });
  assert.equal(await main(["requests", "--json"], p), 0);
  assert.equal(JSON.parse(p.out()).requests[0].inputTokens, 7);
});
