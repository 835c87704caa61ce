import { envelopeInputs } from "../assemble/inputs.js";
import { assembleTools, type AssembledTools } from "../assemble/tools.js";
import { readRpcEvidence, readToolsList } from "../pipeline/evidence.js";
import { gatherDebug } from "../pipeline/gather.js";
import { gatherWithRun, type SessionGatherOptions } from "../pipeline/gather-session.js";
import type { CommandOutput } from "../report/envelope.js";
import { toolsDocument } from "../report/tools-tables.js";
import { evidenceInput } from "../sources/evidence.js";
import type { CommonOptions } from "./common.js";
import { OUTPUT, LOOKUP } from "./options.js";
import { progressReporter } from "./progress.js";
import type { CommandSpec } from "./registry.js";

export type ToolsCliOptions = CommonOptions & { tools?: string };

export const toolsCommand: CommandSpec = {
  command: "tools [target]",
  describe:
    "tool definitions as delivered: per tool its server, description and schema size, truncation, deferred or loaded, first request",
  common: [...OUTPUT, ...LOOKUP, "debug-file", "rpc-log", "stream-json"],
  examples: [
    [
      "ccforensics tools c0ffee00 --claude-dir samples/claude-home --stream-json samples/demo/claude-p.stream.jsonl --tools samples/demo/big-tools-list.json",
      "the demo session's tools: snapshot, deferred list, calls, the init event's names and the big server's tools/list",
    ],
    [
      "ccforensics tools 7001de00 --claude-dir samples/tools/long-description --rpc-log samples/tools/long-description/rpc-log.jsonl",
      "a 3,000-char tool description cut to 2,048 + marker, measured against the server's own length",
    ],
  ],
  positionals: { target: { describe: "session id or prefix (6+ chars), transcript path, or - for stdin; optional with --stream-json" } },
  options: {
    tools: {
      type: "string",
      describe: "a tools/list response (JSON) to measure descriptions against, for a server whose message log is not given",
    },
  },
  run: (argv) => runTools(argv.target, argv as ToolsCliOptions),
};

/** Every evidence file `tools` reads, each once: the transcripts (with the run's session id when no target), the logs beside them. */
export async function gatherToolsEvidence(
  target: string | undefined,
  opts: ToolsCliOptions & SessionGatherOptions,
): Promise<AssembledTools> {
  const w = await gatherWithRun(target, { ...opts, progress: progressReporter(opts.stderr, opts.stderrIsTTY) }, ["requests", "tools"]);
  const debug = await gatherDebug(w.transcripts, opts);
  const rpc = opts.rpcLog ? await readRpcEvidence(evidenceInput(opts.rpcLog, "rpc-log"), { stdin: opts.stdin }) : null;
  const toolsList = opts.tools !== undefined ? await readToolsList(evidenceInput(opts.tools, "rpc-log"), { stdin: opts.stdin }) : null;
  return assembleTools({ target: w.target ?? "-", transcripts: w.transcripts, debug, rpc, toolsList, headless: w.headless });
}

/** `tools [target]`: the tool definitions the model was given, and the system prompt's length. */
export async function runTools(target: string | undefined, opts: ToolsCliOptions): Promise<CommandOutput> {
  const a = await gatherToolsEvidence(target, opts);
  return {
    command: "tools",
    inputs: envelopeInputs(a.inputs),
    health: a.health,
    data: { tools: a.rows, systemPrompt: a.systemPrompt },
    document: toolsDocument(a),
  };
}
