import { headlessEmpty, headlessEmptyText } from "../analyses/headless-run.js";
import { assembleInstructions } from "../assemble/instructions.js";
import { envelopeInputs } from "../assemble/inputs.js";
import { readHeadlessRun, readRpcEvidence } from "../pipeline/evidence.js";
import { documentHealth } from "../records/health.js";
import { gatherBaseline, gatherDebug, gatherTranscripts } from "../pipeline/gather.js";
import type { CommandOutput } from "../report/envelope.js";
import { instructionsDocument } from "../report/instructions-tables.js";
import { evidenceInput } from "../sources/evidence.js";
import type { CommonOptions } from "./common.js";
import { instructionsOptions, PROBE_OPTIONS, type ProbeCliOptions } from "./probe-options.js";
import { progressReporter } from "./progress.js";
import type { CommandSpec } from "./registry.js";
import { OUTPUT, LOOKUP } from "./options.js";

export type InstructionsCliOptions = CommonOptions & ProbeCliOptions;

export const instructionsCommand: CommandSpec = {
  command: "instructions [target]",
  describe: "MCP server instructions: carrier, request, size (chars / code points / bytes), truncation, probe values, answer check",
  common: [...OUTPUT, ...LOOKUP, "debug-file", "rpc-log", "stream-json", "baseline"],
  examples: [
    [
      "ccforensics instructions e2000000 --claude-dir samples/instructions/en-20000-truncated",
      "where lab's 20,000-char text landed, how much survived (2,048 + marker), the original length from the session's debug log",
    ],
    [
      "ccforensics instructions 1a7e0000 --claude-dir samples/instructions/late-server --stream-json samples/instructions/late-server/run.stream.jsonl",
      "a server pending at init: the request that went out without its instructions",
    ],
    [
      "ccforensics instructions e5000000 --claude-dir samples/instructions/rpc-source --rpc-log samples/instructions/rpc-source/rpc-log.jsonl",
      "no debug log: the original length from the lab server's message log (its initialize result), and whether the 2,048 kept chars are its verbatim prefix",
    ],
    [
      "ccforensics instructions a3000000 --claude-dir samples/instructions/ja-3000-truncated --claude-dir samples/instructions/baseline --baseline b0000000 --wrapper-tokens 51",
      "first-request token cost against a run without instructions, tokens per char",
    ],
  ],
  positionals: { target: { describe: "session id or prefix (6+ chars), transcript path, or - for stdin" } },
  options: PROBE_OPTIONS,
  run: (argv) => runInstructions(argv.target, argv as InstructionsCliOptions),
};

/** `instructions [target]`: every delivery of MCP server instructions, with the checks of seed 000. */
export async function runInstructions(target: string | undefined, opts: InstructionsCliOptions): Promise<CommandOutput> {
  const io = instructionsOptions(opts);
  const transcripts = await gatherTranscripts(target, { ...opts, progress: progressReporter(opts.stderr, opts.stderrIsTTY) }, [
    "requests",
    "instructions",
  ]);
  const debug = await gatherDebug(transcripts, opts);
  const headless = opts.streamJson ? await readHeadlessRun(evidenceInput(opts.streamJson, "stream-json"), { stdin: opts.stdin }) : null;
  const baseline = await gatherBaseline(opts);
  const rpc = opts.rpcLog ? await readRpcEvidence(evidenceInput(opts.rpcLog, "rpc-log"), { stdin: opts.stdin }, { sentTexts: true }) : null;
  const logs = rpc ? [{ file: rpc.input.path, rpc: rpc.result.rpc }] : [];
  const l = assembleInstructions({ transcripts, debug, headless, baseline, rpc: logs }, io);
  // Read alongside, as report reads it: its bad lines count, its good ones do not.
  if (rpc) l.health = documentHealth([...l.parts, { health: rpc.health, share: "bad-lines" }]);
  const document = instructionsDocument(l);
  if (headless && headlessEmpty(headless.result, headless.health))
    document.warnings = [`${opts.streamJson}: ${headlessEmptyText(headless.health)}`, ...(document.warnings ?? [])];
  return {
    command: "instructions",
    inputs: envelopeInputs(l.inputs, rpc ? [rpc.input] : []),
    health: l.health,
    data: { instructions: l.rows, answer: l.answer, baseline: l.baseline, pendingServers: l.pending },
    document,
  };
}
