import { basename } from "node:path";
import type { AnyAnalysis } from "../analyses/analysis.js";
import type { OutputsCollected } from "../analyses/outputs.js";
import type { SavedLookup } from "../analyses/outputs-join.js";
import type { AnyRecord } from "../records/transcript.js";
import {
  type BaselineEvidence,
  type DebugEvidence,
  type Gathered,
  type SavedEvidence,
  type TranscriptEvidence,
  type TranscriptResults,
} from "../assemble/evidence.js";
import type { OutputsEvidence } from "../assemble/outputs.js";
import type { InputFile } from "../sources/input.js";
import { resolveSavedPath, toolResultsDir } from "../sources/saved-files.js";
import { baseName } from "../sources/saved-names.js";
import { NotASessionId, resolveTarget, type ResolvedTarget } from "../sources/targets.js";
import { configDirs, isEvidenceSessionId } from "../sources/discover.js";
import { UsageError } from "../errors.js";
import type { SessionFilter } from "../sources/session-filter.js";
import type { OutStream } from "../io.js";
import { newestNote, totalBytes } from "./newest-note.js";
import { spoolRowsFrom } from "../sources/row-spool.js";
import type { LocateOptions } from "./locate.js";
import type { RunnerOptions } from "./runner.js";
import { derivedHealth, readTranscripts } from "./transcripts.js";

/** What gathering reads from a command's options (CommonOptions carries them all). */
export interface GatherOptions extends LocateOptions {
  subagents?: boolean;
  baseline?: string;
  /** Progress display for long transcript passes (a terminal on stderr). */
  progress?: { update: NonNullable<RunnerOptions["onProgress"]>; done(): void; total?(bytes: number | undefined): void };
  /** `--project/--since/--until`, parsed once by main: which session a lookup may pick. */
  filter?: SessionFilter;
  /** Where the newest-session note goes (no target on a terminal), in the `--tz` zone, redacted with `--redact`. */
  stderr?: OutStream;
  tz?: string;
  redact?: boolean;
  /** `--verbose`: every saved output not found named, not just the first few. */
  verbose?: boolean;
  /** The target was read from evidence (a run.json's `session`): a session id only, never a path (targets.ts). */
  idOnly?: boolean;
}

/**
 * Every analysis a transcript pass can run, by the name commands pick it with; each loads only when a
 * command asks for it (`requests` runs one of the six, and loading all was a tenth of its start-up).
 */
const TRANSCRIPT_ANALYSES: {
  [K in keyof TranscriptResults]: (
    env: NodeJS.ProcessEnv,
    inputs: InputFile[],
    subagentFiles: ReadonlySet<string> | undefined,
  ) => Promise<AnyAnalysis<AnyRecord>>;
} = {
  requests: async (env, inputs, subagentFiles) =>
    (await import("../analyses/requests.js")).requestsAnalysisWith({
      memoryRows: spoolRowsFrom(env),
      taskLinks: taskLinks(inputs),
      subagentFiles,
    }),
  instructions: async () => (await import("../analyses/instructions.js")).instructionsAnalysis,
  outputs: async (_env, _inputs, subagentFiles) => (await import("../analyses/outputs.js")).outputsAnalysisWith({ subagentFiles }),
  inventory: async () => (await import("../analyses/inventory.js")).inventoryAnalysis,
  firstRequest: async () => (await import("../analyses/first-request.js")).firstRequestAnalysis,
  tools: async () => (await import("../analyses/tools.js")).toolsAnalysis,
};

/** tool_use id → subagent chain, as the subagent files' `.meta.json` name them (sources/subagent-meta.ts). */
function taskLinks(inputs: InputFile[]): Map<string, string> {
  const links = new Map<string, string>();
  for (const i of inputs)
    if (i.parentToolUseId !== undefined && i.chain !== undefined && !links.has(i.parentToolUseId)) links.set(i.parentToolUseId, i.chain);
  return links;
}

/** Resolves a target (CONTRACT.md) and runs the chosen analyses over its transcripts in one pass. */
export async function gatherTranscripts<K extends keyof TranscriptResults>(
  target: string | undefined,
  opts: GatherOptions,
  keys: K[],
): Promise<TranscriptEvidence<K>> {
  const resolved = await resolveTarget(target, {
    claudeDir: opts.claudeDir,
    subagents: opts.subagents,
    env: opts.env,
    cwd: opts.cwd,
    stdinIsTTY: opts.stdinIsTTY,
    filter: opts.filter,
    idOnly: opts.idOnly,
  });
  if (resolved.picked) opts.stderr?.write(`${await newestNote(resolved.picked, opts.tz ?? "UTC", opts.redact === true)}\n`);
  return readResolved(resolved, opts, keys);
}

/**
 * A session id named by other evidence (a `claude -p` output): its transcripts, looked up only as a session
 * id under the config dirs (never as a path), or, when no config dir holds it, an empty pass (`missing`
 * true) so the rest of the evidence is still reported. A value that is no session id (a path, `..`) is not
 * used at all: an empty pass with a warning.
 */
export async function gatherNamedSession<K extends keyof TranscriptResults>(
  sessionId: string,
  opts: GatherOptions,
  keys: K[],
): Promise<TranscriptEvidence<K> & { missing: boolean; warnings: string[] }> {
  const searched = configDirs({ claudeDir: opts.claudeDir, env: opts.env, cwd: opts.cwd });
  if (!isEvidenceSessionId(sessionId)) {
    const empty = await readResolved({ target: "-", sessionId: null, mainPath: null, inputs: [], searched }, opts, keys);
    return { ...empty, missing: true, warnings: [`${new NotASessionId(sessionId).message}; no transcript was looked up`] };
  }
  try {
    return { ...(await gatherTranscripts(sessionId, { ...opts, idOnly: true }, keys)), missing: false, warnings: [] };
  } catch (e) {
    // Only "not here": a transcript that is found but refused (a FIFO, a directory) stays the usage error it is.
    if (!(e instanceof UsageError) || !/^no session matches/.test(e.message)) throw e;
    const empty = await readResolved({ target: sessionId, sessionId, mainPath: null, inputs: [], searched }, opts, keys);
    return { ...empty, missing: true, warnings: [] };
  }
}

/**
 * No transcript to look for (a `claude -p` output that names no session because it is malformed): the
 * empty pass `gatherNamedSession` gives a session no config dir holds, so the rest of the evidence is reported.
 */
export async function gatherNoSession<K extends keyof TranscriptResults>(opts: GatherOptions, keys: K[]): Promise<TranscriptEvidence<K>> {
  const searched = configDirs({ claudeDir: opts.claudeDir, env: opts.env, cwd: opts.cwd });
  return readResolved({ target: "-", sessionId: null, mainPath: null, inputs: [], searched }, opts, keys);
}

async function readResolved<K extends keyof TranscriptResults>(
  resolved: ResolvedTarget,
  opts: GatherOptions,
  keys: K[],
): Promise<TranscriptEvidence<K>> {
  opts.progress?.total?.(totalBytes(resolved.inputs));
  const subagentFiles = progressChainsFor(resolved.inputs, opts);
  const analyses = Object.fromEntries(
    await Promise.all(keys.map(async (k) => [k, await TRANSCRIPT_ANALYSES[k](opts.env, resolved.inputs, subagentFiles)])),
  ) as Record<K, AnyAnalysis<AnyRecord>>;
  const { results, inputs } = await readTranscripts(resolved.inputs, analyses, { stdin: opts.stdin, onProgress: opts.progress?.update });
  opts.progress?.done();
  const r = results as unknown as Pick<TranscriptResults, K> & Partial<TranscriptResults>;
  const first = resolved.inputs[0]?.path ?? null;
  return {
    resolved,
    sessionId: resolved.sessionId ?? r.outputs?.sessionIds[0] ?? null,
    transcript: resolved.mainPath ?? (first !== "-" ? first : null),
    passes: inputs,
    derived: derivedHealth(results),
    results: r,
  };
}

/**
 * The agents whose chains come from their subagent files in this pass: every other agent's chain is read from
 * the parent's `agent_progress` records (analyses/requests.ts `progressChain`). None with `--no-subagents`,
 * which reads the main chain only.
 */
function progressChainsFor(inputs: InputFile[], opts: GatherOptions): ReadonlySet<string> | undefined {
  if (opts.subagents === false) return undefined;
  return new Set(inputs.flatMap((i) => (i.kind === "subagent-transcript" && i.chain !== undefined ? [i.chain] : [])));
}

/** The session's debug log, `--debug-file` or found beside the transcript, read once. */
export async function gatherDebug(t: TranscriptEvidence<never>, opts: GatherOptions): Promise<Gathered<DebugEvidence> | null> {
  return (await import("./locate.js")).debugEvidenceFor(t.transcript, t.sessionId, opts);
}

/** Every printed saved path (results and budget stubs), resolved in the session's tool-results/ folder and streamed once. */
export async function gatherSaved(c: OutputsCollected, t: TranscriptEvidence<never>, verbose = false): Promise<SavedEvidence> {
  const dir = toolResultsDir(t.transcript, t.sessionId);
  const inputs: InputFile[] = [];
  const warnings: string[] = [];
  const missing: string[] = [];
  const suspicious: PassedOver[] = [];
  const unreadable: PassedOver[] = [];
  const printed = new Set<string>();
  // A resume copies another session's results with that session's id (FORMATS.md 1 trap 4): their saved
  // files are in that session's folder, not this one's. They are neither looked up here nor said to be
  // missing (savedExists null); the session they copy reports its own.
  const own = (r: { sessionId: string | null }) => r.sessionId === null || t.sessionId === null || r.sessionId === t.sessionId;
  for (const r of c.results) if (r.message.savedPath !== null && own(r)) printed.add(r.message.savedPath);
  for (const r of Object.values(c.replacements)) if (r.message.savedPath !== null) printed.add(r.message.savedPath);
  const lookups = new Map<string, SavedLookup>();
  const byFile = new Map<string, SavedLookup>();
  for (const p of [...printed].sort()) {
    const res = resolveSavedPath(p, dir);
    let look: SavedLookup = {
      resolvedPath: res.path,
      exists: res.exists,
      suspicious: res.suspicious,
      bytes: null,
      lines: null,
      newlines: null,
      longestLine: null,
      format: null,
    };
    if (res.exists && res.path !== null) {
      const known = byFile.get(res.path);
      if (known) look = known;
      else {
        const input: InputFile = { path: res.path, kind: "tool-result", bytes: 0, sha256: "" };
        try {
          const st = await (await import("./evidence.js")).inspectSavedFile(input);
          inputs.push(input);
          look = { ...look, bytes: st.bytes, lines: st.lines, newlines: st.newlines, longestLine: st.longestLine, format: st.format };
        } catch (e) {
          unreadable.push({ path: res.path, why: (e as Error).message });
        }
        byFile.set(res.path, look);
      }
    } else if (res.suspicious !== null) {
      suspicious.push({ path: p, why: res.suspicious });
    } else if (res.exists === false) missing.push(p);
    lookups.set(p, look);
  }
  warnings.push(
    ...cappedWarnings("saved output not looked up, suspicious", "saved outputs not looked up, suspicious", suspicious, verbose),
  );
  warnings.push(...cappedWarnings("cannot read saved output", "saved outputs not readable", unreadable, verbose));
  warnings.push(...missingWarnings(missing, dir, verbose));
  return { dir, lookups, inputs, warnings };
}

/** The longest printed path a warning quotes whole: a real one is shorter (PATH_MAX is 4,096 bytes, most are under 300). */
export const WARNED_PATH_MAX = 512;

/**
 * A printed path as a warning quotes it: evidence text of any length (a 200 KB "path" made stderr one
 * 200 KB line), so past WARNED_PATH_MAX its head and its tail (the file name), joined by `…`.
 */
export function abridgedPath(p: string): string {
  const half = WARNED_PATH_MAX / 2;
  return p.length > WARNED_PATH_MAX ? `${p.slice(0, half - 1)}…${p.slice(-half)}` : p;
}

/** Names shown of the saved outputs not found, without `--verbose`. */
const MISSING_SHOWN = 3;

/**
 * One warning for every saved output not found, not one each (a session whose folder was not copied
 * misses them all): the count, the folder and a few names; `verbose` lists every printed path. The rows
 * (`savedExists: false`) say which, in every format.
 */
export function missingWarnings(missing: string[], dir: string | null, verbose: boolean): string[] {
  if (missing.length === 0) return [];
  if (missing.length === 1) return [`saved output not found: ${abridgedPath(missing[0]!)} (looked in ${dir})`];
  const head = `${missing.length} saved outputs not found (looked in ${dir})`;
  if (verbose) return [`${head}:`, ...missing.map((p) => `  ${abridgedPath(p)}`)];
  const names = missing.slice(0, MISSING_SHOWN).map((p) => abridgedPath(baseName(p)));
  const more = missing.length - names.length;
  return [`${head}: ${names.join(", ")}${more > 0 ? ` … and ${more} more (--verbose lists them)` : ""}`];
}

/** A printed path and why it was passed over (the reason ccforensics wrote, never evidence text). */
interface PassedOver {
  path: string;
  why: string;
}

/**
 * One warning for the saved outputs passed over for one reason, not one each (a hostile transcript can
 * print 100,000 such names): the count and the first few with why, the rest counted; `verbose` lists
 * every one. The rows (`savedSuspicious`, `savedExists`) say which, in every format.
 */
export function cappedWarnings(one: string, many: string, items: readonly PassedOver[], verbose: boolean): string[] {
  if (items.length === 0) return [];
  const named = (x: PassedOver) => `${abridgedPath(x.path)} (${x.why})`;
  if (items.length === 1) return [`${one}: ${named(items[0]!)}`];
  const head = `${items.length} ${many}`;
  if (verbose) return [`${head}:`, ...items.map((x) => `  ${named(x)}`)];
  const names = items.slice(0, MISSING_SHOWN).map(named);
  const more = items.length - names.length;
  return [`${head}: ${names.join(", ")}${more > 0 ? ` … and ${more} more (--verbose lists them)` : ""}`];
}

/** `--baseline TARGET`: its main transcript only (no subagents), for the first request's size. */
export async function gatherBaseline(opts: GatherOptions): Promise<BaselineEvidence | null> {
  if (!opts.baseline) return null;
  // The filters pick the session measured; the baseline is named outright and must not be filtered away.
  const b = await gatherTranscripts(opts.baseline, { ...opts, subagents: false, progress: undefined, filter: undefined }, [
    "requests",
    "instructions",
  ]);
  return {
    inputs: b.resolved.inputs,
    passes: b.passes,
    derived: b.derived,
    file: b.resolved.mainPath ?? b.resolved.inputs[0]?.path ?? opts.baseline,
    firstRequestTokens: b.results.requests.totals.find((t) => t.chain === "main")?.firstTotalInputTokens ?? null,
    instructions: b.results.instructions.sightings.length,
  };
}

/** Short label for cross-run tables: the session id, else the file name. */
export function runLabel(target: string | undefined, sessionId: string | null): string {
  return sessionId ?? (target && target !== "-" ? basename(target) : "-");
}

/** One target of `outputs`: its transcripts (requests and outputs side by side), saved files and debug log. */
export async function gatherOutputs(target: string | undefined, opts: GatherOptions): Promise<OutputsEvidence> {
  const transcripts = await gatherTranscripts(target, opts, ["requests", "outputs"]);
  const saved = await gatherSaved(transcripts.results.outputs, transcripts, opts.verbose);
  const debug = await gatherDebug(transcripts, opts);
  return { target: target ?? "-", run: runLabel(target, transcripts.sessionId), transcripts, debug, saved };
}
