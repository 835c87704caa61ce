import { accessSync, constants, existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import yargs from "yargs";
import { emptyHealth, mergeHealth } from "../records/health.js";
import { UsageError } from "../errors.js";
import { isObject } from "../records/json.js";
import { parseMatrix } from "../lab/matrix.js";
import { executeRun, type RunJson } from "../lab/run-exec.js";
import { envConfigDirs } from "../sources/discover.js";
import { checkWritable } from "../output/write-guard.js";
import { checkNamedFile } from "../sources/guard.js";
import { sanitize } from "../render/sanitize.js";
import { RUN_FILES, planRuns, type PlannedRun } from "../lab/run-plan.js";
import type { CommandOutput } from "../report/envelope.js";
import { matrixRunsTable, plannedRunsTable } from "../report/matrix-tables.js";
import type { InputFile } from "../sources/input.js";
import { labCommand, labSetup } from "./lab.js";
import type { Argv, CommandSpec } from "./registry.js";
import { checkArgv, CONFIG_DIR, OUTPUT } from "./options.js";

export const runCommand: CommandSpec = {
  command: "run <matrix>",
  describe: "runs claude -p over a matrix of configurations and collects the evidence into a runs dir",
  common: [...OUTPUT, ...CONFIG_DIR],
  examples: [
    [
      "ccforensics run samples/lab/matrix.json --out runs",
      "every configuration × repeat: runs/<label>-a/ with run.json, stream.jsonl, debug.txt, rpc-log.jsonl (rpc-log-<server>.jsonl each with several servers)",
    ],
    ["ccforensics run samples/matrices/order-two.json --dry-run", "a shipped matrix: two servers' instructions in both orders"],
    [
      "ccforensics run samples/lab/matrix.json --dry-run --json",
      "the planned claude -p command lines, MCP configs and env, without running anything",
    ],
  ],
  positionals: {
    matrix: {
      describe:
        'matrix JSON: {"prompt", "claude", "args", "env", "repeat", "configs": [{"label", "servers": [{"name", "kind", "args", "env", "entry"}], "env", "prompt", "args"}]} (one server: "server", "serverArgs", "name", "serverEntry")',
    },
  },
  options: {
    out: { type: "string", default: "runs", describe: "runs dir: one folder <label>-<a|b|…> per run" },
    "dry-run": { type: "boolean", describe: "print the planned commands; run and write nothing" },
    only: { type: "string", array: true, describe: "run only the configurations with these labels (repeatable)" },
    "skip-existing": { type: "boolean", describe: "keep run folders that already have a run.json and run the rest" },
    // Not where claude writes (its CLAUDE_CONFIG_DIR, else ~/.claude) nor where the session is copied from.
    "claude-dir": {
      // Own options go to the catalog as JSON: no coerce here, the value is made a list where it is used.
      type: "string",
      describe: "a config dir --out must not be written into (repeatable), beside CLAUDE_CONFIG_DIR, ~/.claude and ~/.config/claude",
    },
    "timeout-ms": { type: "number", default: 600000, describe: "stop a claude run, and what it started, after this long (0 = never)" },
  },
  run: (argv) => runMatrix(argv),
};

/** One row of the report: a run done, skipped, or (with --dry-run) planned. */
export interface RunRow {
  label: string;
  repeat: string;
  folder: string;
  /** `failed`: claude exited non-zero, was killed, or left nothing `compare` can read; `timeout`: stopped by --timeout-ms. */
  status: "ran" | "failed" | "timeout" | "skipped" | "planned";
  session: string | null;
  exitCode: number | null;
  /** The signal that ended claude (SIGTERM after --timeout-ms), else null. */
  signal: string | null;
  /** Why the run failed, else null. */
  error: string | null;
  durationMs: number | null;
  startedAt: string | null;
  answer: string | null;
  command: string[];
  env: Record<string, string>;
  /** The lab servers, in `mcpServers` order: name, kind, args, env, message log. */
  servers: PlannedRun["servers"];
  mcpConfig: unknown;
}

export async function runMatrix(argv: Argv): Promise<CommandOutput> {
  const file = String(argv.matrix);
  const matrix = parseMatrix(readMatrix(file, argv.cwd), file);
  const outDir = resolve(argv.cwd, String(argv.out ?? "runs"));
  const dryRun = argv.dryRun === true;
  const timeoutMs = Number(argv.timeoutMs ?? 600000);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 0)
    throw new UsageError(`--timeout-ms must be a whole number of milliseconds, got ${String(argv.timeoutMs)}`);
  const cliPath = fileURLToPath(new URL("../cli.js", import.meta.url));
  const env = argv.env;
  const plans = planRuns(matrix, {
    outDir,
    cliPath,
    nodePath: process.execPath,
    matrixDir: dirname(resolve(argv.cwd, file)),
    cwd: argv.cwd,
    env,
    only: argv.only as string[] | undefined,
  });
  const claudeDirs = argv.claudeDir === undefined ? undefined : ([] as string[]).concat(argv.claudeDir as string | string[]);
  guardOutDir(outDir, plans, claudeDirs, env, argv.cwd);
  preflightServers(plans, env);
  const existing = plans.filter((p) => existsSync(p.dir) && readdirSync(p.dir).length > 0);
  const skip = new Set(argv.skipExisting ? existing.filter((p) => existsSync(join(p.dir, RUN_FILES.runJson))).map((p) => p.folder) : []);
  const blocking = existing.filter((p) => !skip.has(p.folder));
  if (blocking.length && !dryRun) {
    throw new UsageError(
      `run folders already exist: ${blocking.map((p) => p.dir).join(", ")}\n(remove them, choose another --out${argv.skipExisting ? "" : ", or --skip-existing to keep finished runs"})`,
    );
  }
  const warnings = inheritedWarnings(plans);
  if (!dryRun && !plans.every((p) => skip.has(p.folder))) {
    const bin = plans.find((p) => !skip.has(p.folder))!;
    if (!findExecutable(bin.claude, bin.childEnv))
      throw new UsageError(`claude binary not found: ${bin.claude} (set "claude" in the matrix to its path, or put it on PATH)`);
  }

  const rows: RunRow[] = [];
  const inputs: InputFile[] = [];
  const health = emptyHealth();
  for (const [i, p] of plans.entries()) {
    if (dryRun) {
      rows.push(row(p, "planned", null));
      continue;
    }
    if (skip.has(p.folder)) {
      rows.push(row(p, "skipped", readRunJson(join(p.dir, RUN_FILES.runJson))));
      continue;
    }
    argv.stderr.write(`ccforensics run: ${i + 1}/${plans.length} ${sanitize(p.folder)} …\n`);
    const done = await executeRun(p, { timeoutMs });
    inputs.push(done.input);
    mergeHealth(health, done.health);
    const r = row(p, "ran", done.json);
    r.answer = done.run.result?.result ?? null;
    argv.stderr.write(
      // The session id is what claude printed: evidence, escaped as the warnings are.
      `ccforensics run: ${sanitize(`${p.folder}: exit ${done.json.exitCode ?? done.json.signal}, ${done.json.durationMs} ms, session ${done.json.session ?? "none"}`)}\n`,
    );
    const why: string[] = [];
    if (done.json.timedOut) why.push(`stopped after --timeout-ms ${timeoutMs}`);
    else if (done.json.exitCode !== 0)
      why.push(
        `claude ${done.json.signal ? `killed by ${done.json.signal}` : `exited ${done.json.exitCode}`}; see ${join(p.dir, RUN_FILES.stderr)}`,
      );
    // A claude that exits 0 but leaves no session compare can read is a failed run too: the runs dir lacks it.
    if (!done.json.session) why.push(`no session id in ${RUN_FILES.streamJson} (no init or result event)`);
    else if (!done.json.claudeDir)
      why.push(
        `the transcript of session ${done.json.session} was not found under ${p.claudeDir ?? "~/.claude or ~/.config/claude"}; the run folder holds no copy, so compare cannot read it`,
      );
    warnings.push(...why.map((w) => `${p.folder}: ${w}`));
    if (why.length) {
      r.status = done.json.timedOut ? "timeout" : "failed";
      r.error = why.join("; ");
    }
    rows.push(r);
  }
  if (dryRun && existing.length)
    warnings.push(
      `already exist (a real run would ${argv.skipExisting ? "skip those with run.json and refuse the rest" : "refuse"}): ${existing.map((p) => p.folder).join(", ")}`,
    );

  const failed = rows.filter((r) => r.status === "failed" || r.status === "timeout").length;
  return {
    command: "run",
    inputs,
    health,
    ...(failed ? { failure: `${failed} of ${rows.length} claude run(s) failed (see the warnings above)` } : {}),
    data: { outDir, dryRun, runs: rows },
    document: {
      title: `${dryRun ? "Planned" : "Runs"} — ${file} → ${outDir}`,
      summary: [
        ["configurations", new Set(plans.map((p) => p.label)).size, "int"],
        ["runs", plans.length, "int"],
        ["claude", plans[0]?.claude ?? matrix.claude],
      ],
      tables: [dryRun ? plannedRunsTable(rows) : matrixRunsTable(rows)],
      warnings,
    },
  };
}

function row(p: PlannedRun, status: RunRow["status"], json: RunJson | null): RunRow {
  return {
    label: p.label,
    repeat: p.repeat,
    folder: p.dir,
    status,
    session: json?.session ?? null,
    exitCode: json?.exitCode ?? null,
    signal: json?.signal ?? null,
    error: null,
    durationMs: json?.durationMs ?? null,
    startedAt: json?.startedAt ?? null,
    answer: null,
    command: [p.claude, ...p.args],
    env: p.env,
    servers: p.servers,
    mcpConfig: p.mcpConfig,
  };
}

function readMatrix(file: string, cwd: string): string {
  const abs = resolve(cwd, file);
  try {
    // A FIFO or device named as the matrix must not block the read below.
    checkNamedFile(abs, "matrix JSON");
    return readFileSync(abs, "utf8");
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === "ENOENT" ? `no such file: ${file}` : `cannot read ${file}: ${(e as Error).message}`);
  }
}

function readRunJson(path: string): RunJson | null {
  try {
    const v = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return isObject(v) ? (v as unknown as RunJson) : null;
  } catch {
    return null;
  }
}

/**
 * Evidence is read-only: the runs dir goes through the shared write guard (output/write-guard.ts), which
 * also protects every config dir a planned run's CLAUDE_CONFIG_DIR names.
 */
function guardOutDir(outDir: string, plans: PlannedRun[], claudeDir: string[] | undefined, env: NodeJS.ProcessEnv, cwd: string): void {
  const alsoProtect = plans.flatMap((p) => [...envConfigDirs(p.childEnv), ...envConfigDirs({ CLAUDE_CONFIG_DIR: p.claudeDir })]);
  checkWritable("--out", outDir, "folder", { env, cwd, claudeDir, inputPaths: [], alsoProtect });
}

/**
 * Checks each distinct lab server's args as `lab` itself would (its options, strictly, then its
 * setup), so bad server args fail here and not in a paid run. No server is started: a matrix can
 * name dozens, and a spawn each costs a Node start-up.
 */
function preflightServers(plans: PlannedRun[], env: NodeJS.ProcessEnv): void {
  const tried = new Set<string>();
  for (const p of plans) {
    for (const s of p.servers) {
      const key = JSON.stringify([s.kind, s.args, s.env]);
      if (tried.has(key)) continue;
      tried.add(key);
      try {
        checkServerArgs(s.kind, s.args, { ...env, ...s.env });
      } catch (e) {
        throw new UsageError(
          `config "${p.label}": the lab server "${s.name}" refused its args ${JSON.stringify(s.args)}: ${(e as Error).message}`,
        );
      }
    }
  }
}

function checkServerArgs(kind: string, args: string[], env: NodeJS.ProcessEnv): void {
  const argv = yargs()
    .options(labCommand.options ?? {})
    .strict()
    .exitProcess(false)
    .fail((msg, err) => {
      throw err ?? new UsageError(msg);
    })
    .parseSync(args) as Record<string, unknown> & { _: unknown[] };
  if (argv._.length) throw new UsageError(`unexpected argument ${JSON.stringify(String(argv._[0]))}`);
  const full = { ...argv, server: kind } as unknown as Argv;
  checkArgv(full, labCommand);
  labSetup(full, env);
}

function inheritedWarnings(plans: PlannedRun[]): string[] {
  const seen = new Map<string, string>();
  for (const p of plans) for (const [k, v] of Object.entries(p.envInherited)) seen.set(k, v);
  return [...seen].map(
    ([k, v]) =>
      `${k}=${v} comes from your environment and applies to every run that does not set it (recorded as envInherited in run.json)`,
  );
}

/** Where the OS would find `bin` with this PATH; undefined when it would not. */
function findExecutable(bin: string, env: Record<string, string>): string | undefined {
  const ok = (p: string) => {
    try {
      accessSync(p, process.platform === "win32" ? constants.F_OK : constants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (isAbsolute(bin) || /[\\/]/.test(bin)) return ok(bin) ? bin : undefined;
  const exts = process.platform === "win32" ? (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").concat([""]) : [""];
  for (const dir of (env.PATH ?? env.Path ?? "").split(delimiter).filter(Boolean)) {
    for (const ext of exts) if (ok(join(dir, bin + ext))) return join(dir, bin + ext);
  }
  return undefined;
}
