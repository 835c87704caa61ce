import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { mdBlock, mdHeading, mdInline } from "../src/render/md-escape.js";
import { escapeHtml } from "../src/render/html-escape.js";
import { Readable } from "node:stream";
import { main, type Io } from "../src/main.js";

/** Repository root (tests run from build-test/test/…). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** cli.js beside the modules the in-process tests import (what `run` hands to its lab servers). */
export const CLI = join(ROOT, "build-test", "src", "cli.js");
/** The package's binary; `npm run build:test` copies the one compile there, so it is never stale under test. */
export const BIN = join(ROOT, "dist", "cli.js");
export const sample = (...p: string[]) => join(ROOT, "samples", ...p);

/** Every file under `dir` (recursively) that `keep` accepts: by default the .jsonl ones. */
export const filesUnder = (dir: string, keep: (p: string) => boolean = (p) => p.endsWith(".jsonl")): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p, keep) : keep(p) ? [p] : [];
  });

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment every CLI test starts from: TZ=UTC, NO_COLOR, no COLUMNS (piped output keeps every column), a home with no Claude config. */
function testEnv(extra: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, TZ: "UTC", NO_COLOR: "1", HOME: join(ROOT, "samples", ".no-home"), ...extra };
}

/** Collects what the CLI writes; always accepts, like a pipe that is read as fast as it is written. */
class Capture {
  private readonly parts: Buffer[] = [];
  write(chunk: string | Uint8Array): boolean {
    this.parts.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
    return true;
  }
  once(): this {
    return this;
  }
  text(): string {
    return Buffer.concat(this.parts).toString("utf8");
  }
}

export interface CliOptions {
  stdin?: string | Buffer;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Which of the streams the CLI is told are terminals (all pipes by default), and the terminal's width. */
  tty?: { stdin?: boolean; stdout?: boolean; stderr?: boolean; columns?: number };
}

/**
 * Runs the CLI in this process through `main(args, io)`, as a user would from a pipe: stdin is not a
 * terminal, stdout and stderr are captured. Each run gets its own parser, streams and env.
 */
export async function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const stdout = new Capture();
  const stderr = new Capture();
  const io: Io = {
    stdin: Readable.from([Buffer.from(opts.stdin ?? "")]),
    stdout,
    stderr,
    env: testEnv(opts.env),
    cwd: opts.cwd ?? ROOT,
    stdinIsTTY: opts.tty?.stdin ?? false,
    stdoutIsTTY: opts.tty?.stdout ?? false,
    stderrIsTTY: opts.tty?.stderr ?? false,
    columns: opts.tty?.columns,
  };
  const code = await main(args, io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** Runs the package's binary (dist/cli.js) in a child process: the smoke test that the entry point, real stdio and exit codes work. */
export function runCliSpawned(
  args: string[],
  opts: { stdin?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return spawnCollect(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: testEnv(opts.env),
    stdin: opts.stdin ?? "",
    timeoutMs: opts.timeoutMs,
  });
}

/**
 * Runs any program and collects its output. `stdin` undefined means no stdin at all; `timeoutMs` kills a run that
 * hangs (exit code -1), so a test of "never blocks" fails instead of hanging.
 */
export function spawnCollect(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string | Buffer; timeoutMs?: number },
): Promise<CliResult> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: [opts.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      ...(opts.timeoutMs ? { timeout: opts.timeoutMs, killSignal: "SIGKILL" as const } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on("data", (d: Buffer) => out.push(d));
    child.stderr!.on("data", (d: Buffer) => err.push(d));
    child.on("error", rej);
    child.on("close", (code) =>
      res({ code: code ?? -1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }),
    );
    if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
  });
}

/** Parses a --json run and checks the envelope every command shares. */
export function parseEnvelope(r: CliResult, command: string): Record<string, any> {
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout) as Record<string, any>;
  assert.equal(j.tool.name, "ccforensics");
  assert.equal(j.command, command);
  assert.ok(Array.isArray(j.inputs));
  assert.ok(j.health && typeof j.health.lines === "number");
  return j;
}

/**
 * Golden output check: compares with test/golden/<name>. A missing golden fails; only
 * `npm run golden:update` (UPDATE_GOLDEN=1) writes them, so a test can never pass by writing its own answer.
 * Goldens are made with TZ=UTC, NO_COLOR and a fixed width (runCli does that).
 */
export function golden(name: string, actual: string): void {
  // Absolute paths of this checkout (config dirs are resolved) would tie goldens to one folder; markdown shows
  // them escaped (a clone in /tmp/ci_run.x/ reads `ci\_run`), so every form the renderers give is replaced.
  // HTML escapes it and may put <wbr> break points anywhere in a long path.
  const escRe = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  actual = actual.replace(new RegExp([...escapeHtml(ROOT)].map(escRe).join("(?:<wbr>)?"), "g"), "<repo>");
  const forms = [mdInline(ROOT), mdBlock(ROOT), mdHeading(ROOT), ROOT];
  for (const form of [...new Set(forms)].sort((x, y) => y.length - x.length)) {
    actual = actual.split(form).join("<repo>");
  }
  const file = join(ROOT, "test", "golden", name);
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) assert.fail(`golden file missing: test/golden/${name} (run npm run golden:update and commit it)`);
  assert.equal(actual, readFileSync(file, "utf8"), `output differs from test/golden/${name} (npm run golden:update to accept)`);
}
