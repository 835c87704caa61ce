import { Fanout, type AnyAnalysis, type ResultOf } from "../analyses/analysis.js";
import { addInvalid, type Health } from "../analyses/health.js";
import type { RequestsResult } from "../analyses/requests.js";
import { scanTranscripts } from "../sources/scan.js";
import { resolveTarget, type ResolvedTarget } from "../sources/targets.js";
import type { OutStream } from "../io.js";
import type { Format } from "../render/emit.js";
import { progressReporter } from "./progress.js";

/** Options every command understands (CONTRACT.md "Common options"). */
export interface CommonOptions {
  format: Format;
  claudeDir?: string[];
  subagents?: boolean;
  strict?: boolean;
  color?: boolean;
  redact?: boolean;
  debugFile?: string;
  rpcLog?: string;
  streamJson?: string;
  baseline?: string;
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
  });
  const fan = new Fanout(analyses);
  const progress = progressReporter(opts.stderr, opts.stderrIsTTY);
  const health = await scanTranscripts(resolved.inputs, (r) => fan.step(r), { stdin: opts.stdin, onProgress: progress?.update });
  progress?.done();
  const results = fan.finish();
  // Totals past 2^53 − 1 are found only when the requests are summed: they join the health here.
  const requests = (results as Record<string, unknown>).requests as RequestsResult | undefined;
  if (requests?.overflows.length) addInvalid(health, requests.overflows);
  return { resolved, health, results };
}
