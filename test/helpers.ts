import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";

/** Repository root (tests run from build-test/test/…). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CLI = join(ROOT, "dist", "cli.js");
export const sample = (...p: string[]) => join(ROOT, "samples", ...p);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI as a user would: TZ=UTC, NO_COLOR, fixed width, no inherited Claude config.
 * `timeoutMs` kills a run that hangs (exit code -1), so a test of "never blocks" fails instead of hanging.
 */
export function runCli(args: string[], opts: { stdin?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { PATH: process.env.PATH, TZ: "UTC", NO_COLOR: "1", COLUMNS: "200", HOME: join(ROOT, "samples", ".no-home"), ...opts.env },
      stdio: ["pipe", "pipe", "pipe"],
      ...(opts.timeoutMs ? { timeout: opts.timeoutMs, killSignal: "SIGKILL" as const } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.on("error", rej);
    child.on("close", (code) => res({ code: code ?? -1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
    child.stdin.end(opts.stdin ?? "");
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
 * Golden output check: compares with test/golden/<name>; UPDATE_GOLDEN=1 rewrites the file.
 * Goldens are made with TZ=UTC, NO_COLOR and a fixed width (runCli does that).
 */
export function golden(name: string, actual: string): void {
  // Absolute paths of this checkout (config dirs are resolved) would tie goldens to one folder.
  actual = actual.split(ROOT).join("<repo>");
  const file = join(ROOT, "test", "golden", name);
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) {
    if (process.env.CI && !existsSync(file)) assert.fail(`golden file missing: test/golden/${name} (run UPDATE_GOLDEN=1 npm test and commit it)`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  assert.equal(actual, readFileSync(file, "utf8"), `output differs from test/golden/${name} (UPDATE_GOLDEN=1 to accept)`);
}
