import { join } from "node:path";
import { ROOT } from "../helpers.js";
import { CLAUDE_P_JSON, DEBUG_LOGS, DEMO_SESSION, RPC_LOGS, STREAM_JSONL, TRANSCRIPTS } from "./corpus.js";
import { asTarget, fileEqualsStdin, humanFormats, jsonHealth, saneTotals, strictExit, type Command, type Target } from "./props.js";
import type { Prop } from "./run.js";

/**
 * Every fuzz property by name. The test files run them with a small count; explore.ts runs any of
 * them with a large one and groups the failures.
 */
const TRANSCRIPT_COMMANDS: Command[] = ["requests", "outputs", "instructions", "inventory", "report"];
const transcriptTargets = TRANSCRIPT_COMMANDS.map((c) => asTarget(c));

// Debug logs are text and MCP logs may mix JSON with other lines, so neither has a JSON-per-line oracle.
const debug = asTarget("debug", false);
const rpc = asTarget("rpc", false);
const session = join(ROOT, DEMO_SESSION);
const beside = (flag: string, jsonl: boolean): Target => ({
  command: "report",
  args: (p) => ["report", session, flag, p],
  jsonl,
  sole: false,
  stdin: false,
});
const streamJsonl = beside("--stream-json", true);
const claudePJson = beside("--stream-json", false);
const debugFile = beside("--debug-file", false);
const rpcLog = beside("--rpc-log", false);

// sessions takes no file: the mutated transcript is the only session of a scratch config dir.
const sessions: Target = {
  command: "sessions",
  args: (_p, dir) => ["sessions", "--claude-dir", dir],
  sub: "projects/-tmp-fuzz",
  jsonl: false,
  sole: false,
  stdin: false,
};

export const PROPS: Record<string, Prop<any>> = {};
const add = (p: Prop<unknown>) => void (PROPS[p.name] = p);

for (const t of transcriptTargets) {
  add(jsonHealth(`${t.command}-json`, t, TRANSCRIPTS) as Prop<unknown>);
  add(humanFormats(`${t.command}-human`, t, TRANSCRIPTS, true) as Prop<unknown>);
}
add(saneTotals("requests-totals", asTarget("requests"), TRANSCRIPTS) as Prop<unknown>);
add(saneTotals("report-totals", asTarget("report"), TRANSCRIPTS) as Prop<unknown>);
add(fileEqualsStdin("transcripts-stdin", transcriptTargets, TRANSCRIPTS) as Prop<unknown>);
add(strictExit("transcripts-strict", transcriptTargets, TRANSCRIPTS) as Prop<unknown>);

add(jsonHealth("debug-json", debug, DEBUG_LOGS) as Prop<unknown>);
add(humanFormats("debug-human", debug, DEBUG_LOGS, false) as Prop<unknown>);
add(jsonHealth("rpc-json", rpc, RPC_LOGS) as Prop<unknown>);
add(humanFormats("rpc-human", rpc, RPC_LOGS, true) as Prop<unknown>);
add(fileEqualsStdin("debug-stdin", [debug], DEBUG_LOGS) as Prop<unknown>);
add(fileEqualsStdin("rpc-stdin", [rpc], RPC_LOGS) as Prop<unknown>);
add(jsonHealth("stream-json", streamJsonl, STREAM_JSONL) as Prop<unknown>);
add(jsonHealth("claude-p-json", claudePJson, CLAUDE_P_JSON) as Prop<unknown>);
add(humanFormats("stream-json-human", streamJsonl, STREAM_JSONL, true) as Prop<unknown>);
add(jsonHealth("debug-file", debugFile, DEBUG_LOGS) as Prop<unknown>);
add(jsonHealth("rpc-log", rpcLog, RPC_LOGS) as Prop<unknown>);
add(humanFormats("debug-file-human", debugFile, DEBUG_LOGS, true) as Prop<unknown>);
add(humanFormats("rpc-log-human", rpcLog, RPC_LOGS, true) as Prop<unknown>);
add(strictExit("debug-strict", [debug, debugFile], DEBUG_LOGS) as Prop<unknown>);
add(strictExit("rpc-strict", [rpc, rpcLog], RPC_LOGS) as Prop<unknown>);
add(strictExit("stream-json-strict", [streamJsonl], STREAM_JSONL) as Prop<unknown>);

// What issue 9 adds to escaping; report covers every section, inventory the record-type lists.
add(humanFormats("report-escaping", asTarget("report"), TRANSCRIPTS, true, true) as Prop<unknown>);
add(humanFormats("inventory-escaping", asTarget("inventory"), TRANSCRIPTS, true, true) as Prop<unknown>);
add(humanFormats("rpc-escaping", rpc, RPC_LOGS, true, true) as Prop<unknown>);
add(humanFormats("sessions-escaping", sessions, TRANSCRIPTS, true, true) as Prop<unknown>);

add(jsonHealth("sessions-json", sessions, TRANSCRIPTS) as Prop<unknown>);
add(humanFormats("sessions-human", sessions, TRANSCRIPTS, true) as Prop<unknown>);
add(strictExit("sessions-strict", [sessions], TRANSCRIPTS) as Prop<unknown>);

export function prop(name: string): Prop<unknown> {
  const p = PROPS[name];
  if (!p) throw new Error(`no fuzz property ${name}; known: ${Object.keys(PROPS).join(", ")}`);
  return p;
}
