import { compileProbe, DEFAULT_PROBE_SOURCES } from "../analyses/probe.js";
import { UsageError } from "../errors.js";
import type { CommandOutput } from "../report/envelope.js";
import type { CommonOptions } from "./common.js";
import { envelopeInputs } from "./inputs.js";
import { loadInstructions } from "./instructions-load.js";
import { instructionsReport } from "./instructions-report.js";
import type { CommandSpec } from "./registry.js";
import { OUTPUT, LOOKUP } from "./options.js";

export interface InstructionsCliOptions extends CommonOptions {
  probeBegin?: string;
  probeEnd?: string;
  probeMarker?: string;
  wrapperTokens?: number;
}

export const instructionsCommand: CommandSpec = {
  command: "instructions [target]",
  describe: "MCP server instructions: carrier, request, size (chars / code points / bytes), truncation, probe values, answer check",
  common: [...OUTPUT, ...LOOKUP, "debug-file", "stream-json", "baseline"],
  examples: [
    ["ccforensics instructions e2000000 --claude-dir samples/instructions/en-20000-truncated", "where lab's 20,000-char text landed, how much survived (2,048 + marker), the original length from the session's debug log"],
    ["ccforensics instructions 1a7e0000 --claude-dir samples/instructions/late-server --stream-json samples/instructions/late-server/run.stream.jsonl", "a server pending at init: the request that went out without its instructions"],
    ["ccforensics instructions a3000000 --claude-dir samples/instructions/ja-3000-truncated --claude-dir samples/instructions/baseline --baseline b0000000 --wrapper-tokens 51", "first-request token cost against a run without instructions, tokens per char"],
  ],
  positionals: { target: { describe: "session id or prefix (6+ chars), transcript path, or - for stdin" } },
  options: {
    "probe-begin": { type: "string", describe: `regex for the opening codeword (value: named or first group); default ${DEFAULT_PROBE_SOURCES.begin}` },
    "probe-end": { type: "string", describe: `regex for the closing codeword; default ${DEFAULT_PROBE_SOURCES.end}` },
    "probe-marker": { type: "string", describe: `regex for a position marker with a number; default ${DEFAULT_PROBE_SOURCES.marker}` },
    "wrapper-tokens": { type: "number", describe: "tokens of heading + wrapper to take off the baseline delta for text chars/token (the write-up measured ≈51)" },
  },
  run: (argv) => runInstructions(argv.target, argv as InstructionsCliOptions),
};

/** `instructions [target]`: every delivery of MCP server instructions, with the checks of seed 000. */
export async function runInstructions(target: string | undefined, opts: InstructionsCliOptions): Promise<CommandOutput> {
  let probe;
  try {
    probe = compileProbe({ begin: opts.probeBegin, end: opts.probeEnd, marker: opts.probeMarker });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (opts.wrapperTokens !== undefined && !Number.isFinite(opts.wrapperTokens)) throw new UsageError("--wrapper-tokens needs a number");
  if (opts.wrapperTokens !== undefined && !opts.baseline) throw new UsageError("--wrapper-tokens needs --baseline");
  const l = await loadInstructions(target, opts, { probe, wrapperTokens: opts.wrapperTokens ?? null });
  return {
    command: "instructions",
    inputs: envelopeInputs(l.inputs),
    health: l.health,
    data: { instructions: l.rows, answer: l.answer, baseline: l.baseline, pendingServers: l.pending },
    report: instructionsReport(l),
  };
}
