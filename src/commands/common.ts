import { transcriptParts, type TranscriptEvidence, type TranscriptResults } from "../assemble/evidence.js";
import type { OutStream } from "../io.js";
import type { Format } from "../render/emit.js";
import { gatherTranscripts } from "../pipeline/gather.js";
import { documentHealth, type Health } from "../records/health.js";
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

/** A target's transcripts read in one pass with the named analyses, and their health merged. */
export async function loadTranscripts<K extends keyof TranscriptResults>(
  target: string | undefined,
  opts: CommonOptions,
  keys: K[],
): Promise<TranscriptEvidence<K> & { health: Health }> {
  const t = await gatherTranscripts(target, { ...opts, progress: progressReporter(opts.stderr, opts.stderrIsTTY) }, keys);
  return { ...t, health: documentHealth(transcriptParts(t)) };
}
