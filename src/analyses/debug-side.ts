import type { DebugRecord } from "../records/debug.js";
import type { Analysis } from "./analysis.js";
import type { Truncation } from "./instructions-join.js";
import { addDebugRecord, emptyDebugFacts, type DebugFacts } from "./outputs-evidence.js";

/** What the other commands take from a debug log besides the `debug` reducer, in the same pass. */

/** The facts `outputs` matches tool results against: count_tokens, persisted, budget lines. */
export function debugFactsAnalysis(file: string): Analysis<DebugFacts, DebugFacts, DebugRecord> {
  return { init: () => emptyDebugFacts(file), step: addDebugRecord, finish: (f) => f };
}

/** The instruction truncation lines `instructions` checks sizes against. */
export function truncationsAnalysis(file: string): Analysis<Truncation[], Truncation[], DebugRecord> {
  return {
    init: () => [],
    step(out, r) {
      if (r.kind === "debug" && r.event.type === "mcp-instructions-truncated" && r.server !== null) {
        out.push({ server: r.server, from: r.event.from, to: r.event.to, file, line: r.pos.line, ms: r.ms });
      }
    },
    finish: (out) => out,
  };
}

/** MCP server names the log mentions, in order of first mention. */
export const serversNamedAnalysis: Analysis<Set<string>, string[], DebugRecord> = {
  init: () => new Set(),
  step(s, r) {
    if (r.kind === "debug" && r.server !== null) s.add(r.server);
  },
  finish: (s) => [...s],
};
