import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RuntimeError } from "../errors.js";
import { jsonSafe } from "../render/emit.js";
import { headlessSessionId, type HeadlessRun } from "../analyses/headless-run.js";
import type { Health } from "../records/health.js";
import { readHeadlessRun } from "../pipeline/evidence.js";
import type { InputFile } from "../sources/input.js";
import { RUN_FILES, type PlannedRun } from "./run-plan.js";
import { copySessionTree, RUN_CLAUDE_DIR } from "./run-copy.js";

/** How long claude's process group has between SIGTERM and SIGKILL when `run` itself is interrupted. */
const SIGNAL_GRACE_MS = 1000;

/**
 * `run.json`, one per run folder: what `ccforensics compare <runs-dir>` reads. Paths are relative to
 * the folder; `debugFile`, `rpcLog` and `rpcLogs` name only files that exist after the run.
 */
export interface RunJson {
  label: string;
  session: string | null;
  /** `claude`: the copy of the session's transcripts, subagents and tool results inside the run folder. */
  claudeDir?: string;
  debugFile?: string;
  /** The first server's log: what `compare` reads. */
  rpcLog?: string;
  /** Every server's log by server name (those that exist after the run). */
  rpcLogs?: Record<string, string>;
  streamJson: string;
  exitCode: number | null;
  startedAt: string;
  durationMs: number;
  repeat: string;
  signal: string | null;
  timedOut: boolean;
  stderr: string;
  mcpConfig: string;
  /** The empty temp dir claude ran in (removed afterwards when it stayed empty). */
  cwd: string;
  command: string[];
  env: Record<string, string>;
  envRemoved: string[];
  envInherited: Record<string, string>;
  claudeVersion: string | null;
  model: string | null;
  /** The config dir the session was copied from, and the files copied (relative to the run folder). */
  sourceClaudeDir?: string;
  copied?: string[];
}

export interface ExecutedRun {
  json: RunJson;
  run: HeadlessRun;
  /** The output file's own parse health. */
  health: Health;
  input: InputFile;
}

export interface ExecOptions {
  /** Kill `claude` and its process group after this long (SIGTERM, then SIGKILL 5 s later); 0 = never. */
  timeoutMs: number;
}

/**
 * Runs one planned `claude -p` in a fresh empty directory (outside any project, so no CLAUDE.md or
 * git repo of ours leaks into its context), stdout and stderr straight into the run folder, then
 * reads the session id from the stream, copies the session's files into the folder and writes run.json.
 */
export async function executeRun(p: PlannedRun, o: ExecOptions): Promise<ExecutedRun> {
  mkdirSync(p.dir, { recursive: true });
  writeFileSync(join(p.dir, RUN_FILES.mcpConfig), `${JSON.stringify(p.mcpConfig, null, 2)}\n`);
  const cwd = mkdtempSync(join(tmpdir(), "ccforensics-run-"));
  const streamPath = join(p.dir, RUN_FILES.streamJson);
  const out = openSync(streamPath, "w");
  const err = openSync(join(p.dir, RUN_FILES.stderr), "w");
  const startedAt = new Date();
  let exit: { code: number | null; signal: string | null; timedOut: boolean };
  try {
    exit = await spawnAndWait(p, cwd, out, err, o.timeoutMs);
  } finally {
    closeSync(out);
    closeSync(err);
    try {
      rmdirSync(cwd);
    } catch {
      // claude wrote something there: leave it, run.json names it.
    }
  }
  const durationMs = Date.now() - startedAt.getTime();
  const input: InputFile = { path: streamPath, kind: "stream-json", bytes: 0, sha256: "" };
  const { result: run, health } = await readHeadlessRun(input);
  const has = (f: string) => existsSync(join(p.dir, f));
  const session = headlessSessionId(run);
  const env = { ...p.childEnv, ...(p.claudeDir ? { CLAUDE_CONFIG_DIR: p.claudeDir } : {}) };
  const copied = session ? await copySessionTree(session, p.dir, { env, cwd: p.dir }) : null;
  const json: RunJson = {
    label: p.label,
    session,
    ...(copied ? { claudeDir: RUN_CLAUDE_DIR } : {}),
    ...(has(RUN_FILES.debugFile) ? { debugFile: RUN_FILES.debugFile } : {}),
    ...(p.servers[0] && has(p.servers[0].rpcLog) ? { rpcLog: p.servers[0].rpcLog } : {}),
    streamJson: RUN_FILES.streamJson,
    exitCode: exit.code,
    startedAt: startedAt.toISOString(),
    durationMs,
    repeat: p.repeat,
    signal: exit.signal,
    timedOut: exit.timedOut,
    stderr: RUN_FILES.stderr,
    mcpConfig: RUN_FILES.mcpConfig,
    ...(p.servers.length ? { rpcLogs: Object.fromEntries(p.servers.filter((s) => has(s.rpcLog)).map((s) => [s.name, s.rpcLog])) } : {}),
    cwd,
    command: [p.claude, ...p.args],
    env: p.env,
    envRemoved: p.envRemoved,
    envInherited: p.envInherited,
    claudeVersion: run.init?.version ?? null,
    model: run.init?.model ?? null,
    ...(copied ? { sourceClaudeDir: copied.from, copied: copied.files } : {}),
  };
  // The session id, version and model are what claude printed: escaped as stdout's JSON is, the same values.
  writeFileSync(join(p.dir, RUN_FILES.runJson), `${jsonSafe(JSON.stringify(json, null, 2))}\n`);
  return { json, run, health, input };
}

function spawnAndWait(
  p: PlannedRun,
  cwd: string,
  out: number,
  err: number,
  timeoutMs: number,
): Promise<{ code: number | null; signal: string | null; timedOut: boolean }> {
  return new Promise((res, rej) => {
    // In its own process group (POSIX), so a timeout stops what claude started too (its Bash commands, MCP
    // servers), not only claude. Windows has no groups: the child alone is killed there.
    const group = process.platform !== "win32";
    const child = spawn(p.claude, p.args, { cwd, env: p.childEnv, stdio: ["ignore", out, err], detached: group });
    const stop = (signal: NodeJS.Signals) => {
      if (group && child.pid !== undefined) {
        try {
          process.kill(-child.pid, signal);
          return;
        } catch {
          // The group is gone, or cannot be signalled: the child alone.
        }
      }
      child.kill(signal);
    };
    // Detached, claude no longer gets the terminal's Ctrl-C: when we are stopped or exit, its group goes too.
    const onExit = () => stop("SIGKILL");
    // Stopped ourselves: claude's group gets SIGTERM and a moment to end its servers, then SIGKILL for what
    // ignores SIGTERM (re-raising at once had left such a grandchild running), then we stop as the signal says.
    let interrupted = false;
    const onSignal = (signal: NodeJS.Signals) => {
      interrupted = true;
      stop("SIGTERM");
      cleanUp();
      setTimeout(() => {
        stop("SIGKILL");
        process.kill(process.pid, signal);
      }, SIGNAL_GRACE_MS);
    };
    const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
    process.once("exit", onExit);
    for (const s of signals) process.once(s, onSignal);
    let timedOut = false;
    let kill: NodeJS.Timeout | undefined;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            stop("SIGTERM");
            kill = setTimeout(() => stop("SIGKILL"), 5000);
          }, timeoutMs)
        : undefined;
    const cleanUp = () => {
      clearTimeout(timer);
      clearTimeout(kill);
      process.off("exit", onExit);
      for (const s of signals) process.off(s, onSignal);
    };
    child.on("error", (e) => {
      cleanUp();
      rej(new RuntimeError(`cannot run ${p.claude}: ${e.message}`));
    });
    child.on("close", (code, signal) => {
      cleanUp();
      // Interrupted: the process stops once the grace is over; no next run may start meanwhile.
      if (interrupted) return;
      // Stopped by the timeout: whatever of its group outlived claude (a child that ignores SIGTERM) goes now.
      if (timedOut) stop("SIGKILL");
      res({ code, signal, timedOut });
    });
  });
}
