import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMANDS } from "../../src/commands/index.js";
import { BIN, parseEnvelope, runCliSpawned, sample } from "../helpers.js";

// Every other CLI test runs main() in process; these start dist/cli.js once per command, so the
// entry point, real stdin/stdout/stderr, and process.exitCode are exercised too. `lab` is spawned in test/lab.
const BASIC = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");
const HOME = sample("claude-home");
const DEMO = "c0ffee00-1111-4222-8333-444444444444";

function noServerMatrix(): string {
  const f = join(mkdtempSync(join(tmpdir(), "ccf-smoke-")), "matrix.json");
  writeFileSync(f, JSON.stringify({ prompt: "p", configs: [{ label: "none", server: "none" }] }));
  return f;
}

const SMOKE: Record<string, () => string[]> = {
  sessions: () => ["sessions", "--claude-dir", HOME, "--json"],
  requests: () => ["requests", "-", "--json"],
  instructions: () => ["instructions", DEMO, "--claude-dir", HOME, "--json"],
  outputs: () => ["outputs", DEMO, "--claude-dir", HOME, "--json"],
  servers: () => ["servers", "--claude-dir", HOME, "--json"],
  export: () => ["export", "--claude-dir", HOME, "--to", mkdtempSync(join(tmpdir(), "ccf-smoke-export-")), "--json"],
  debug: () => ["debug", sample("logs", "debug", "legacy-truncated.debug.txt"), "--json"],
  rpc: () => ["rpc", sample("logs", "rpc", "legacy-fallback.lab.jsonl"), "--json"],
  report: () => ["report", DEMO, "--claude-dir", HOME, "--json"],
  demo: () => ["demo", "--json"],
  compare: () => ["compare", sample("runs"), "--json"],
  inventory: () => ["inventory", BASIC, "--json"],
  tools: () => ["tools", DEMO, "--claude-dir", HOME, "--json"],
  run: () => ["run", noServerMatrix(), "--out", join(tmpdir(), "ccf-smoke-runs"), "--dry-run", "--json"],
};

test("every command but lab has a spawned smoke test", () => {
  const names = COMMANDS.map((c) => c.command.split(" ")[0]!).filter((n) => n !== "lab");
  assert.deepEqual(Object.keys(SMOKE).sort(), names.sort());
});

for (const [name, args] of Object.entries(SMOKE)) {
  test(`spawned: ${name} gives its JSON document and exit 0`, async () => {
    const stdin = name === "requests" ? readFileSync(BASIC) : undefined;
    // The envelope's command is the command run, demo's too (its fields are report's).
    parseEnvelope(await runCliSpawned(args(), { stdin }), name);
  });
}

test("spawned: a usage error exits 2 and a malformed line under --strict exits 1, messages on stderr only", async () => {
  const bad = await runCliSpawned(["requests", BASIC, "--format", "csv", "--format", "json"]);
  assert.equal(bad.code, 2);
  assert.equal(bad.stdout, "");
  assert.match(bad.stderr, /^ccforensics: --format given more than once/);
  const strict = await runCliSpawned(["requests", "-", "--strict"], { stdin: "not json\n" });
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /--strict: 1 malformed line/);
});

test("spawned: a directory redirected into stdin is refused when read (Node reads it as empty), and a file target still runs", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-stdin-dir-"));
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const fd = openSync(dir, "r");
      const child = spawn(process.execPath, [BIN, ...args], { stdio: [fd, "pipe", "pipe"], env: { PATH: process.env.PATH, TZ: "UTC" } });
      closeSync(fd);
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (c) => (stdout += c));
      child.stderr!.on("data", (c) => (stderr += c));
      child.on("close", (code) => done({ code, stdout, stderr }));
    });
  const dash = await run(["requests", "-", "--json"]);
  assert.equal(dash.code, 2, dash.stderr);
  assert.equal(dash.stdout, "");
  assert.match(dash.stderr, /^ccforensics: stdin is a directory; redirect a file into it/);
  const file = await run(["requests", BASIC, "--json"]);
  assert.equal(file.code, 0, file.stderr);
  parseEnvelope({ ...file, code: 0 }, "requests");
});

test("spawned: a failed write of the output is said once and exits 1; a reader that goes away ends the run quietly", async (t) => {
  if (!existsSync("/dev/full")) return t.skip("no /dev/full here");
  const spawnTo = (args: string[], stdout: number | "pipe", closeAfter?: number) =>
    new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        stdio: ["ignore", stdout, "pipe"],
        env: { PATH: process.env.PATH, TZ: "UTC" },
      });
      let stderr = "";
      child.stderr!.on("data", (c) => (stderr += c));
      // A reader that takes the first bytes and closes its end, as `| head -c N` does.
      if (closeAfter !== undefined) child.stdout!.once("data", () => child.stdout!.destroy());
      child.on("close", (code) => done({ code, stderr }));
    });
  const full = openSync("/dev/full", "w");
  for (const args of [["--version"], ["--help"], ["requests", BASIC, "--json"], ["report", BASIC]]) {
    const r = await spawnTo(args, full);
    assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, /^ccforensics: cannot write the output to stdout: ENOSPC/, args.join(" "));
    assert.doesNotMatch(r.stderr, /\n {4}at /, "no stack trace");
  }
  closeSync(full);
  const file = await spawnTo(["requests", BASIC, "--json", "-o", "/dev/full"], "pipe");
  assert.equal(file.code, 1, file.stderr);
  assert.match(file.stderr, /^ccforensics: --output \/dev\/full: ENOSPC/);
  // A document far larger than a pipe's buffer, its reader gone after the first chunk.
  const big = join(mkdtempSync(join(tmpdir(), "ccf-epipe-")), "big.jsonl");
  writeFileSync(big, readFileSync(BASIC, "utf8").repeat(1000));
  const gone = await spawnTo(["requests", big, "--json"], "pipe", 1);
  assert.equal(gone.code, 0, gone.stderr);
  assert.equal(gone.stderr, "");
});
