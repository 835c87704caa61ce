import { basename } from "node:path";
import { mergeHealth, type Health } from "../analyses/health.js";
import { outputsAnalysis, type OutputsCollected } from "../analyses/outputs.js";
import type { DebugFacts } from "../analyses/outputs-evidence.js";
import { assembleOutputs, type SavedLookup, type ToolResultRow } from "../analyses/outputs-join.js";
import { requestsAnalysis, type RequestRow } from "../analyses/requests.js";
import type { ToolMeta } from "../records/tools-list.js";
import type { InputFile } from "../sources/input.js";
import { inspectSavedFile, resolveSavedPath, toolResultsDir } from "../sources/saved-files.js";
import type { ResolvedTarget } from "../sources/targets.js";
import { loadTranscripts, type CommonOptions } from "./common.js";
import { debugEvidenceFor, malformedOnly, type DebugEvidence } from "./debug-evidence.js";

/** One target's tool results with everything read to explain them. */
export interface LoadedOutputs {
  target: string;
  /** Short label for cross-run tables: the session id, else the file name. */
  run: string;
  sessionId: string | null;
  transcript: string | null;
  toolResultsDir: string | null;
  debugLog: string | null;
  rows: ToolResultRow[];
  inputs: InputFile[];
  health: Health;
  warnings: string[];
}

export interface LoadOptions {
  /** `--debug-file`, for a single target; otherwise the session's own debug log is looked up. */
  debugFile?: string;
  /** A debug log already read (by `report`); null = none. Undefined: look it up and read it here. */
  debug?: DebugEvidence | null;
  tools: Map<string, ToolMeta> | null;
}

/** One pass over the target's transcripts (requests and outputs side by side), then the saved files and the debug log. */
export async function loadOutputs(target: string | undefined, opts: CommonOptions, lo: LoadOptions): Promise<LoadedOutputs> {
  const { resolved, health, results } = await loadTranscripts(target, opts, { requests: requestsAnalysis, outputs: outputsAnalysis });
  return outputsFromPass(target, resolved, health, results.outputs, results.requests.requests.toArray(), opts, lo);
}

/**
 * What follows the pass: saved files, the debug log, the join. Exported so a command that runs
 * `outputsAnalysis` in its own single pass (report) gets the same rows without reading the transcript again.
 */
export async function outputsFromPass(
  target: string | undefined,
  resolved: ResolvedTarget,
  health: Health,
  collected: OutputsCollected,
  requests: RequestRow[],
  opts: CommonOptions,
  lo: LoadOptions,
): Promise<LoadedOutputs> {
  const sessionId = resolved.sessionId ?? collected.sessionIds[0] ?? null;
  const first = resolved.inputs[0]?.path ?? null;
  const transcript = resolved.mainPath ?? (first !== "-" ? first : null);
  const dir = toolResultsDir(transcript, sessionId);
  const inputs: InputFile[] = [...resolved.inputs];
  const warnings: string[] = [];

  const saved = await lookUpSaved(collected, dir, inputs, warnings);
  const ev = lo.debug !== undefined ? lo.debug : await debugEvidenceFor(transcript, sessionId, { ...opts, debugFile: lo.debugFile ?? opts.debugFile });
  const debugPath = ev?.input.path ?? null;
  const debug: DebugFacts | null = ev?.facts ?? null;
  const servers = new Set<string>(ev?.servers ?? []);
  if (ev) {
    inputs.push(ev.input);
    mergeHealth(health, malformedOnly(ev.health));
  }

  const rows = assembleOutputs(collected, { requests, saved, debug, tools: lo.tools, servers: [...servers] });
  const run = sessionId ?? (target && target !== "-" ? basename(target) : "-");
  return { target: target ?? "-", run, sessionId, transcript, toolResultsDir: dir, debugLog: debugPath, rows, inputs, health, warnings };
}

/** Every printed saved path (results and budget stubs), resolved in the session's tool-results/ folder and streamed once. */
async function lookUpSaved(c: OutputsCollected, dir: string | null, inputs: InputFile[], warnings: string[]): Promise<Map<string, SavedLookup>> {
  const printed = new Set<string>();
  for (const r of c.results) if (r.message.savedPath !== null) printed.add(r.message.savedPath);
  for (const r of Object.values(c.replacements)) if (r.message.savedPath !== null) printed.add(r.message.savedPath);
  const out = new Map<string, SavedLookup>();
  const byFile = new Map<string, SavedLookup>();
  for (const p of [...printed].sort()) {
    const res = resolveSavedPath(p, dir);
    let look: SavedLookup = { resolvedPath: res.path, exists: res.exists, suspicious: res.suspicious, bytes: null, lines: null, newlines: null, longestLine: null, format: null };
    if (res.exists && res.path !== null) {
      const known = byFile.get(res.path);
      if (known) look = known;
      else {
        const input: InputFile = { path: res.path, kind: "tool-result", bytes: 0, sha256: "" };
        try {
          const st = await inspectSavedFile(input);
          inputs.push(input);
          look = { ...look, bytes: st.bytes, lines: st.lines, newlines: st.newlines, longestLine: st.longestLine, format: st.format };
        } catch (e) {
          warnings.push(`cannot read saved output ${res.path}: ${(e as Error).message}`);
        }
        byFile.set(res.path, look);
      }
    } else if (res.suspicious !== null) {
      warnings.push(`saved output not looked up, suspicious: ${p} (${res.suspicious})`);
    } else if (res.exists === false) {
      warnings.push(`saved output not found: ${p} (looked in ${dir})`);
    }
    out.set(p, look);
  }
  return out;
}
