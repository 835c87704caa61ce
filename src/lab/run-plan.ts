import { isAbsolute, join, resolve } from "node:path";
import { UsageError } from "../errors.js";
import type { JsonObject } from "../records/json.js";
import { repeatLetter, type LabServerSpec, type Matrix, type MatrixConfig } from "./matrix.js";

/**
 * What `ccforensics run` will do, decided before anything runs: one folder per configuration ×
 * repeat, its MCP config, the `claude -p` command line and its environment. Pure (no I/O), so
 * `--dry-run` prints exactly what a real run would execute.
 */
export interface PlannedRun {
  label: string;
  /** a, b, …: which repeat of the configuration. */
  repeat: string;
  /** `<label>-<repeat>`, under the runs dir. */
  folder: string;
  dir: string;
  /** The configuration's lab servers, each with the message log it writes (relative to the run folder). */
  servers: PlannedServer[];
  claude: string;
  args: string[];
  /** The config's env, as applied on top of ours. */
  env: Record<string, string>;
  /** The whole environment `claude` gets. */
  childEnv: Record<string, string>;
  /** Variables of an enclosing Claude Code session that were removed. */
  envRemoved: string[];
  /** Variables that change these experiments, inherited from our environment rather than set by the config. */
  envInherited: Record<string, string>;
  /** `CLAUDE_CONFIG_DIR` of the run, when it is not the default. */
  claudeDir: string | undefined;
  mcpConfig: JsonObject;
}

export interface PlannedServer {
  name: string;
  kind: LabServerSpec["kind"];
  args: string[];
  env: Record<string, string>;
  rpcLog: string;
}

/** File names inside a run folder (run.json holds them relative to the folder). */
export const RUN_FILES = {
  runJson: "run.json",
  mcpConfig: "mcp.json",
  streamJson: "stream.jsonl",
  stderr: "stderr.txt",
  debugFile: "debug.txt",
  rpcLog: "rpc-log.jsonl",
} as const;

/**
 * What a Claude Code session exports to the commands it runs; a nested `claude` refuses to start
 * under `CLAUDECODE`, and the others would tie the run to the enclosing session (seed 000 removed them).
 */
export const ENCLOSING_SESSION_VARS = [
  "CLAUDECODE",
  "CLAUDE_CODE_ENTRYPOINT",
  "CLAUDE_CODE_SESSION_ID",
  "CLAUDE_CODE_SESSION_ACCESS_TOKEN",
  "CLAUDE_CODE_SSE_PORT",
];

/** Variables the seeds varied: inherited silently, they would change a run's numbers. */
export const EXPERIMENT_VARS = [
  "CLAUDE_CONFIG_DIR",
  "ANTHROPIC_MODEL",
  "MAX_MCP_OUTPUT_TOKENS",
  "CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH",
  "ENABLE_TOOL_SEARCH",
  "MCP_PROTOCOL_NEGOTIATION",
  "MCP_SDK_GENERATION",
  "MCP_TIMEOUT",
  "MCP_TOOL_TIMEOUT",
  "CLAUDE_CODE_MCP_STARTUP_WAIT_MS",
];

/** Flags `run` sets itself; giving them in `args` would contradict the evidence it collects. */
const OWNED_FLAGS = ["-p", "--print", "--output-format", "--mcp-config", "--debug-file", "--strict-mcp-config"];

export interface PlanOptions {
  /** Absolute runs dir. */
  outDir: string;
  /** Absolute path of this ccforensics' dist/cli.js, run by `nodePath`. */
  cliPath: string;
  nodePath: string;
  /** Where a relative `claude` path, `CLAUDE_CONFIG_DIR` or path argument in the matrix is resolved. */
  matrixDir: string;
  /** Where a relative `CLAUDE_CONFIG_DIR` inherited from our environment is resolved (default: the process's). */
  cwd?: string;
  env: NodeJS.ProcessEnv;
  only?: string[];
}

export function planRuns(m: Matrix, o: PlanOptions): PlannedRun[] {
  const unknown = (o.only ?? []).filter((l) => !m.configs.some((c) => c.label === l));
  if (unknown.length)
    throw new UsageError(
      `--only: no configuration labelled ${unknown.map((l) => `"${l}"`).join(", ")}; labels: ${m.configs.map((c) => c.label).join(", ")}`,
    );
  const configs = o.only?.length ? m.configs.filter((c) => o.only!.includes(c.label)) : m.configs;
  const claude = /[\\/]/.test(m.claude) && !isAbsolute(m.claude) ? resolve(o.matrixDir, m.claude) : m.claude;
  const out: PlannedRun[] = [];
  for (const c of configs) {
    const owned = [...new Set(c.args.map((a) => a.split("=")[0]!).filter((f) => OWNED_FLAGS.includes(f)))];
    if (owned.length)
      throw new UsageError(
        `config "${c.label}": args ${owned.join(", ")} are set by run itself (each run's mcp.json, debug.txt and stream-json are the evidence it reads back; lab servers go in "servers")`,
      );
    for (let i = 0; i < m.repeat; i++) out.push(planOne(c, repeatLetter(i), claude, o));
  }
  return out;
}

function planOne(c: MatrixConfig, repeat: string, claude: string, o: PlanOptions): PlannedRun {
  const folder = `${c.label}-${repeat}`;
  const dir = join(o.outDir, folder);
  const mcpServers: JsonObject = {};
  const servers: PlannedServer[] = [];
  for (const s of c.servers) {
    const rpcLog = rpcLogName(s.name, c.servers.length);
    const args = [o.cliPath, "lab", s.kind, ...s.args, "--log", join(dir, rpcLog)];
    mcpServers[s.name] = { type: "stdio", command: o.nodePath, args, ...(Object.keys(s.env).length ? { env: s.env } : {}), ...s.entry };
    servers.push({ name: s.name, kind: s.kind, args: s.args, env: s.env, rpcLog });
  }
  const settings = c.args.some((a) => a === "--settings" || a.startsWith("--settings=")) ? [] : ["--settings", '{"disableAllHooks": true}'];
  const args = [
    "-p",
    c.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    "--strict-mcp-config",
    "--mcp-config",
    join(dir, RUN_FILES.mcpConfig),
    "--debug-file",
    join(dir, RUN_FILES.debugFile),
    ...settings,
    ...absoluteArgs(c.args, o.matrixDir),
  ];
  const childEnv: Record<string, string> = {};
  const envRemoved: string[] = [];
  for (const [k, v] of Object.entries(o.env)) {
    if (v === undefined) continue;
    if (ENCLOSING_SESSION_VARS.includes(k) && !(k in c.env)) envRemoved.push(k);
    else childEnv[k] = v;
  }
  // claude runs in an empty temp dir: a relative config dir would be taken from there, and the transcript
  // written and left there. The matrix's is relative to the matrix file, an inherited one to our cwd.
  const env = { ...c.env };
  if (env.CLAUDE_CONFIG_DIR) env.CLAUDE_CONFIG_DIR = absoluteDir(env.CLAUDE_CONFIG_DIR, o.matrixDir);
  else if (childEnv.CLAUDE_CONFIG_DIR) childEnv.CLAUDE_CONFIG_DIR = absoluteDir(childEnv.CLAUDE_CONFIG_DIR, o.cwd ?? process.cwd());
  Object.assign(childEnv, env);
  const envInherited: Record<string, string> = {};
  for (const k of EXPERIMENT_VARS) if (!(k in c.env) && o.env[k] !== undefined) envInherited[k] = o.env[k]!;
  const configDir = childEnv.CLAUDE_CONFIG_DIR;
  const claudeDir = configDir || undefined;
  return {
    label: c.label,
    repeat,
    folder,
    dir,
    servers,
    claude,
    args,
    env,
    childEnv,
    envRemoved: envRemoved.sort(),
    envInherited,
    claudeDir,
    mcpConfig: { mcpServers },
  };
}

/** One server keeps seed 000's `rpc-log.jsonl`; with several, each writes `rpc-log-<name>.jsonl`, one handshake per file. */
export function rpcLogName(server: string, servers: number): string {
  return servers === 1 ? RUN_FILES.rpcLog : `rpc-log-${server}.jsonl`;
}

/** A relative dir made absolute against `base`; a comma list (several config dirs) is left as it is. */
function absoluteDir(dir: string, base: string): string {
  return dir.includes(",") ? dir : resolve(base, dir);
}

/**
 * claude's flags that take a path, each made absolute against the matrix's folder (claude runs in an
 * empty temp dir, where a relative path finds nothing). `--add-dir` and `--plugin-dir` take several; `--settings` may be
 * JSON text instead of a file.
 */
const PATH_FLAGS = new Set(["--settings", "--add-dir", "--system-prompt-file", "--append-system-prompt-file", "--plugin-dir"]);
const MULTI_PATH_FLAGS = new Set(["--add-dir", "--plugin-dir"]);

export function absoluteArgs(args: string[], base: string): string[] {
  const abs = (v: string) => (v === "" || v.trimStart().startsWith("{") || isAbsolute(v) ? v : resolve(base, v));
  const out: string[] = [];
  let taking: string | null = null;
  for (const a of args) {
    if (a.startsWith("-")) {
      const eq = a.indexOf("=");
      const flag = eq > 0 ? a.slice(0, eq) : a;
      taking = PATH_FLAGS.has(flag) && eq < 0 ? flag : null;
      out.push(PATH_FLAGS.has(flag) && eq > 0 ? `${flag}=${abs(a.slice(eq + 1))}` : a);
      continue;
    }
    out.push(taking ? abs(a) : a);
    if (taking && !MULTI_PATH_FLAGS.has(taking)) taking = null;
  }
  return out;
}
