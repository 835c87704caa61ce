import type { AnyAnalysis, ResultsOf } from "../analyses/analysis.js";
import { documentHealth, type Health } from "../records/health.js";
import type { AnyRecord } from "../records/transcript.js";
import type { InputPass } from "../pipeline/runner.js";
import { derivedHealth, readTranscripts } from "../pipeline/transcripts.js";
import { resolveTarget, type ResolvedTarget } from "../sources/targets.js";
import type { OutStream } from "../io.js";
import { progressReporter } from "./progress.js";

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

export interface Loaded<T extends Record<string, AnyAnalysis<AnyRecord>>> {
  resolved: ResolvedTarget;
  /** The transcripts' health, merged; `passes` has each input's own. */
  health: Health;
  passes: InputPass[];
  results: ResultsOf<T>;
}

/** Resolves a target and runs the given analyses over its transcripts in one pass. */
export async function loadTranscripts<T extends Record<string, AnyAnalysis<AnyRecord>>>(
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
  const progress = progressReporter(opts.stderr, opts.stderrIsTTY);
  const { results, inputs } = await readTranscripts(resolved.inputs, analyses, { stdin: opts.stdin, onProgress: progress?.update });
  progress?.done();
  const parts = [...inputs.map((p) => ({ health: p.health, share: "whole" as const })), { health: derivedHealth(results), share: "whole" as const }];
  return { resolved, health: documentHealth(parts), passes: inputs, results };
}
