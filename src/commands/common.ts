import { statSync } from "node:fs";
import { Fanout, type AnyAnalysis, type ResultOf } from "../analyses/analysis.js";
import { addInvalid, type Health } from "../analyses/health.js";
import type { RequestsResult } from "../analyses/requests.js";
import { scanTranscripts } from "../sources/scan.js";
import { resolveTarget, type ResolvedTarget } from "../sources/targets.js";
import type { OutStream } from "../io.js";
import { sanitize } from "../render/sanitize.js";
import { makeRedactor } from "../report/redact.js";
import { timeInZone } from "../render/zone.js";
import type { Picked } from "../sources/newest.js";
import { progressReporter } from "./progress.js";
import { sessionFilter } from "./since.js";

/** Options every command understands (CONTRACT.md "Common options"). */
export interface CommonOptions {
  format: "table" | "markdown" | "json" | "csv";
  claudeDir?: string[];
  subagents?: boolean;
  strict?: boolean;
  color?: boolean;
  redact?: boolean;
  debugFile?: string;
  rpcLog?: string;
  streamJson?: string;
  baseline?: string;
  /** `--project`, `--since`, `--until`: which sessions a lookup may pick (raw flag text; parsed by since.ts). */
  project?: string;
  since?: string;
  until?: string;
  /** `--tz`: the zone main resolved (given, else TZ, else the local zone). */
  tz?: string;
  /** The CLI's surroundings (main fills these from its Io): nothing below reads `process` for them. */
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  /** Relative paths resolve against this. */
  cwd: string;
  stdinIsTTY: boolean;
  /** Diagnostics and progress; never the document. */
  stderr: OutStream;
  stderrIsTTY: boolean;
}

export interface Loaded<T extends Record<string, AnyAnalysis>> {
  resolved: ResolvedTarget;
  health: Health;
  results: { [K in keyof T]: ResultOf<T[K]> };
}

/** Resolves a target and runs the given analyses over its transcripts in one pass. */
export async function loadTranscripts<T extends Record<string, AnyAnalysis>>(
  target: string | undefined,
  opts: CommonOptions,
  analyses: T,
): Promise<Loaded<T>> {
  const resolved = await resolveTarget(target, {
    claudeDir: opts.claudeDir,
    subagents: opts.subagents,
    env: opts.env,
    cwd: opts.cwd,
    stdinIsTTY: opts.stdinIsTTY,
    filter: sessionFilter(opts),
  });
  if (resolved.picked) opts.stderr.write(`${sanitize(newestNote(resolved.picked, opts.tz ?? "UTC", opts.redact === true))}\n`);
  const fan = new Fanout(analyses);
  const progress = progressReporter(opts.stderr, opts.stderrIsTTY, { total: totalBytes(resolved.inputs) });
  const health = await scanTranscripts(resolved.inputs, (r) => fan.step(r), { stdin: opts.stdin, onProgress: progress?.update });
  progress?.done();
  const results = fan.finish();
  // Totals past 2^53 − 1 are found only when the requests are summed: they join the health here.
  const requests = (results as Record<string, unknown>).requests as RequestsResult | undefined;
  if (requests?.overflows.length) addInvalid(health, requests.overflows);
  return { resolved, health, results };
}

/** The stderr line that names the session picked for a command given no target (CONTRACT.md). */
export function newestNote(p: Picked, zone: string, redact = false): string {
  const when = p.byMtime ? `${timeInZone(p.time, zone)} (file time; no record has one)` : timeInZone(p.time, zone);
  const note = `newest session: ${p.file.id} · ${p.glance.cwd ?? "(no cwd recorded)"} · ${when}`;
  if (!redact) return note;
  // A terminal session gets pasted too: --redact shortens the id and the home dir here as in the document.
  const r = makeRedactor();
  r.collect(note);
  return r.apply(note);
}

/** Bytes of the files to read, for the progress line; undefined when stdin is among them (its size is unknown). */
export function totalBytes(inputs: Array<{ path: string }>): number | undefined {
  let n = 0;
  for (const i of inputs) {
    if (i.path === "-") return undefined;
    try {
      n += statSync(i.path).size;
    } catch {
      return undefined;
    }
  }
  return n;
}
