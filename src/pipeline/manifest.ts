import { dirname, join, resolve } from "node:path";
import streamArray from "stream-json/streamers/stream-array.js";
import streamValues from "stream-json/streamers/stream-values.js";
import { UsageError } from "../errors.js";
import { isObject, type JsonObject } from "../records/json.js";
import { isEvidenceSessionId } from "../sources/discover.js";
import {
  checkNamedFile,
  isDir,
  isFile,
  openEvidence,
  pathExists,
  realish,
  realPath,
  safeReaddir,
  statPath,
  within,
} from "../sources/guard.js";

/** One run of a comparison, paths resolved (CONTRACT.md `compare`; the runs dir is what `ccforensics run` writes). */
export interface RunSpec {
  label: string;
  /** Folder name in a runs dir, else `<label>#<n>`. */
  name: string;
  /** Session id or transcript path. */
  session: string;
  claudeDir?: string;
  debugFile?: string;
  rpcLog?: string;
  streamJson?: string;
  /** Every server's message log (run.json `rpcLogs`, else `rpcLog`), in `mcpServers` order; `rpcLog` is the first when only `rpcLogs` is given. */
  rpcLogs: string[];
  /** The config's server name of each log run.json names by server (path → name): a lab server's serverInfo need not be it. */
  rpcLogServers?: Record<string, string>;
  /** The variables the configuration set (run.json `env`). */
  env: Record<string, string>;
  /** true: this run is a baseline; a string: the label this run is measured against. */
  baseline?: boolean | string;
  /** Why the run has nothing to read (`"session": null`: claude failed before a session existed), or why it is refused. */
  failed?: string;
  /**
   * run.json says claude did not finish (a non-zero exit, a signal, `--timeout-ms`) though a session exists:
   * its transcript may be cut short, so `compare` shows its row with this as the error and leaves it out of
   * the groups, the baseline and the fit.
   */
  runFailed?: string;
  /**
   * From a runs dir's run.json (evidence, not a file the user named): every path stays in the run's folder,
   * `session` is a session id looked up only in the run's own config dir (`claudeDir`, default `claude`).
   */
  confined?: boolean;
  /** Where it was declared, for messages. */
  from: string;
}

const KEYS = new Set(["label", "session", "claudeDir", "debugFile", "rpcLog", "rpcLogs", "streamJson", "baseline", "env"]);
const PATH_KEYS = ["claudeDir", "debugFile", "rpcLog", "streamJson"] as const;

/** A manifest file (a JSON array of runs) or a runs dir (one folder per run, each with run.json). */
export async function readRuns(path: string): Promise<RunSpec[]> {
  const st = statPath(path);
  if (st === undefined) throw new UsageError(`no such manifest or runs dir: ${path}`);
  if (st.isDirectory()) return readRunsDir(path);
  checkNamedFile(path, "manifest");
  const runs: RunSpec[] = [];
  const counts = new Map<string, number>();
  for await (const [i, v] of streamJson(path, "array")) {
    const from = `${path}: run ${i + 1}`;
    if (!isObject(v)) throw new UsageError(`${from}: expected an object, got ${JSON.stringify(v)?.slice(0, 40)}`);
    const label = typeof v.label === "string" ? v.label : "";
    const n = (counts.get(label) ?? 0) + 1;
    counts.set(label, n);
    runs.push(toSpec(v, dirname(resolve(path)), `${label}#${n}`, from));
  }
  return runs;
}

async function readRunsDir(dir: string): Promise<RunSpec[]> {
  const runs: RunSpec[] = [];
  const root = realPath(dir) ?? resolve(dir);
  for (const name of safeReaddir(dir)) {
    const folder = join(dir, name);
    const file = join(folder, "run.json");
    if (!isDir(folder) || !isFile(file)) continue;
    // A run folder or run.json linked out of the runs dir is not read: the row says so.
    const real = realPath(folder);
    const realFile = realPath(file);
    if (real === undefined || realFile === undefined || !within(real, root) || real === root || !within(realFile, real)) {
      const why =
        real !== undefined && within(real, root) && real !== root
          ? "run.json links outside its run folder"
          : "the run folder links outside the runs dir";
      runs.push({ label: name, name, session: "", rpcLogs: [], env: {}, failed: `refused: ${why}`, from: file, confined: true });
      continue;
    }
    // One bad run.json (cut short, a wrong type) is that run's row with the error, not the end of the comparison.
    try {
      const values: unknown[] = [];
      for await (const [, v] of streamJson(file, "values")) values.push(v);
      if (values.length === 0) throw new UsageError(`${file}: empty, expected a JSON object`);
      for (const v of values) {
        if (!isObject(v)) throw new UsageError(`${file}: expected a JSON object`);
        runs.push(confine(toSpec(v, folder, name, file, true), v, folder, real));
      }
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      runs.push({ label: name, name, session: "", rpcLogs: [], env: {}, failed: `bad run.json: ${e.message}`, from: file, confined: true });
    }
  }
  if (runs.length === 0) throw new UsageError(`${dir}: no run folders (<dir>/<run>/run.json) found`);
  return runs;
}

/**
 * A run.json is evidence: it may name only files in its own run folder (real paths, symlinks resolved),
 * `session` only as a session id, and its config dir (`claudeDir`, `claude` when not named) inside the
 * folder too. A run that names anything else is refused with that as its error, and nothing it names is read.
 */
function confine(spec: RunSpec, v: JsonObject, folder: string, realFolder: string): RunSpec {
  if (spec.failed) return spec;
  const refuse = (why: string): RunSpec => ({ ...spec, rpcLogs: [], rpcLogServers: undefined, failed: `refused: ${why}` });
  if (!isEvidenceSessionId(spec.session))
    return refuse(`run.json "session" must be a session id, not a path (${JSON.stringify(String(v.session).slice(0, 120))})`);
  const named: Array<[string, string]> = [];
  for (const k of PATH_KEYS) if (typeof v[k] === "string") named.push([k, v[k]]);
  const logs = Array.isArray(v.rpcLogs) ? v.rpcLogs : isObject(v.rpcLogs) ? Object.values(v.rpcLogs) : [];
  for (const p of logs as string[]) named.push(["rpcLogs", p]);
  for (const [k, p] of named) {
    const abs = resolve(folder, p);
    // Said apart before anything is resolved: a path that leaves the folder as written is not even stat'ed.
    const written = within(abs, resolve(folder));
    if (!written) return refuse(`run.json "${k}" names a path outside the run folder (${JSON.stringify(p.slice(0, 200))})`);
    // Inside as written, outside once resolved: a symlink leads out, and the message says so.
    if (!within(realish(abs), realFolder))
      return refuse(`run.json "${k}" names a path that links outside the run folder (${JSON.stringify(p.slice(0, 200))})`);
  }
  if (spec.claudeDir !== undefined) return spec;
  // The default config dir is held to the same rule: a `claude` link out of the folder is not followed.
  const own = join(resolve(folder), RUN_CLAUDE_DIR);
  if (pathExists(own) && !within(realish(own), realFolder))
    return refuse(`the run's "${RUN_CLAUDE_DIR}" folder leads outside the run folder (${JSON.stringify(realish(own).slice(0, 200))})`);
  return { ...spec, claudeDir: own };
}

/** The run folder's own config dir when run.json names none (what `ccforensics run` copies the session into). */
const RUN_CLAUDE_DIR = "claude";

function toSpec(v: JsonObject, base: string, name: string, from: string, confined = false): RunSpec {
  // A manifest is written by hand: an unknown key is most likely a typo. A run.json is written by `run`,
  // maybe a newer one: a key this version does not know is passed over (forward compatible).
  if (!confined)
    for (const k of Object.keys(v))
      if (!KEYS.has(k) && !RUN_JSON_EXTRAS.has(k)) throw new UsageError(`${from}: unknown key "${k}" (expected ${[...KEYS].join(", ")})`);
  if (typeof v.label !== "string" || v.label === "") throw new UsageError(`${from}: "label" must be a non-empty string`);
  const env = envOf(v.env, from);
  if (v.session === null) return { label: v.label, name, session: "", rpcLogs: [], env, failed: failure(v), from };
  if (typeof v.session !== "string" || v.session === "")
    throw new UsageError(`${from}: "session" must be a session id or a transcript path (or null for a run that failed)`);
  const spec: RunSpec = { label: v.label, name, session: v.session, rpcLogs: [], env, from, ...(confined ? { confined } : {}) };
  const unfinished = howItFailed(v);
  if (unfinished !== undefined) spec.runFailed = `claude did not finish: ${unfinished}${seeStderr(v)}`;
  // In a manifest (a file the user named) a session that names an existing file (relative to it) is a
  // transcript path; a run.json's session is only ever an id, never stat'ed.
  const asPath = resolve(base, v.session);
  if (!confined && (/[\\/]|\.jsonl$/.test(v.session) || pathExists(asPath))) spec.session = asPath;
  if (typeof v.baseline === "boolean" || typeof v.baseline === "string") spec.baseline = v.baseline;
  else if (v.baseline !== undefined && v.baseline !== null) throw new UsageError(`${from}: "baseline" must be true or a label`);
  for (const k of PATH_KEYS) {
    const p = v[k];
    if (p === undefined || p === null) continue;
    if (typeof p !== "string") throw new UsageError(`${from}: "${k}" must be a path`);
    spec[k] = resolve(base, p);
  }
  // run.json has them by server name; a hand-written manifest may list them.
  const listed = Array.isArray(v.rpcLogs) ? v.rpcLogs : isObject(v.rpcLogs) ? Object.values(v.rpcLogs) : [];
  // Anything else (one path as a string, a number) would be no log at all, silently: said instead.
  const shaped = v.rpcLogs === undefined || v.rpcLogs === null || Array.isArray(v.rpcLogs) || isObject(v.rpcLogs);
  if (!shaped || listed.some((p) => typeof p !== "string"))
    throw new UsageError(`${from}: "rpcLogs" must name paths: a list, or an object of server name: path`);
  const logs = listed as string[];
  spec.rpcLogs = logs.length ? logs.map((p) => resolve(base, p)) : spec.rpcLog ? [spec.rpcLog] : [];
  if (isObject(v.rpcLogs))
    spec.rpcLogServers = Object.fromEntries(Object.entries(v.rpcLogs).map(([name, p]) => [resolve(base, p as string), name]));
  if (spec.rpcLog && !spec.rpcLogs.includes(spec.rpcLog)) spec.rpcLogs.unshift(spec.rpcLog);
  // `rpcLogs` alone (a run whose first server wrote no log, a hand-written manifest): its first log is the
  // run's message log, read with the session exactly as `rpcLog` would be; the others alongside it.
  if (!spec.rpcLog && spec.rpcLogs.length) spec.rpcLog = spec.rpcLogs[0];
  return spec;
}

function envOf(v: unknown, from: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isObject(v) || Object.values(v).some((x) => typeof x !== "string"))
    throw new UsageError(`${from}: "env" must be an object of strings`);
  return v as Record<string, string>;
}

/** What run.json says of a run with no session: its exit, signal or timeout, and where claude's stderr went. */
function failure(v: JsonObject): string {
  const how = howItFailed(v) ?? (typeof v.exitCode === "number" ? `claude exited ${v.exitCode}` : "claude gave no session id");
  return `no session: ${how}${seeStderr(v)}`;
}

/** A timeout, a signal or a non-zero exit in run.json; undefined for a run that finished (or a manifest that says nothing). */
function howItFailed(v: JsonObject): string | undefined {
  if (v.timedOut === true) return "stopped by --timeout-ms";
  if (typeof v.signal === "string") return `claude killed by ${v.signal}`;
  if (typeof v.exitCode === "number" && v.exitCode !== 0) return `claude exited ${v.exitCode}`;
  return undefined;
}

const seeStderr = (v: JsonObject): string => (typeof v.stderr === "string" ? ` (see ${v.stderr})` : "");

/** Keys `ccforensics run` adds to run.json beside the manifest keys; read and ignored here. */
const RUN_JSON_EXTRAS = new Set([
  "exitCode",
  "startedAt",
  "durationMs",
  "repeat",
  "signal",
  "timedOut",
  "stderr",
  "mcpConfig",
  "cwd",
  "command",
  "envRemoved",
  "envInherited",
  "claudeVersion",
  "model",
  "copied",
  "sourceClaudeDir",
]);

/** Streams a JSON array's items (or a file's top-level values) without holding the document as text. */
async function* streamJson(path: string, mode: "array" | "values"): AsyncGenerator<[number, unknown]> {
  const parser = mode === "array" ? streamArray.withParserAsStream() : streamValues.withParserAsStream();
  const source = openEvidence(path);
  source.on("error", (e) => parser.destroy(e));
  source.pipe(parser);
  try {
    for await (const item of parser as AsyncIterable<{ key: number; value: unknown }>) yield [item.key, item.value];
  } catch (e) {
    // The path as given: in a runs dir every file is a run.json, so the name alone does not say which.
    throw new UsageError(`${path}: not a valid JSON ${mode === "array" ? "array of runs" : "object"} (${(e as Error).message})`);
  }
}
