import { basename, dirname } from "node:path";
import { debugAnalysis, type DebugResult } from "../analyses/debug.js";
import { countRecord, emptyHealth, type Health } from "../analyses/health.js";
import type { Truncation } from "../analyses/instructions-join.js";
import { addDebugRecord, emptyDebugFacts, type DebugFacts } from "../analyses/outputs-evidence.js";
import { readDebugLog, type LineStats } from "../records/debug.js";
import { configDirs } from "../sources/discover.js";
import { evidenceInput, findDebugLog } from "../sources/evidence.js";
import type { InputFile } from "../sources/input.js";
import type { CommonOptions } from "./common.js";

/**
 * Everything the commands take from one Claude Code debug log, read in one pass: the `debug` reducer
 * (servers, events, flags), the facts `outputs` matches results against (count_tokens, persisted,
 * budget lines), and the instruction truncation lines `instructions` checks sizes against.
 */
export interface DebugEvidence {
  input: InputFile;
  result: DebugResult;
  facts: DebugFacts;
  truncations: Truncation[];
  /** MCP server names the log mentions. */
  servers: string[];
  /** The log's own health: its lines, entries and malformed lines. */
  health: Health;
}

export async function readDebugEvidence(input: InputFile, opts: { stdin?: NodeJS.ReadableStream } = {}): Promise<DebugEvidence> {
  const health = emptyHealth();
  const stats: LineStats = { lines: 0, blankLines: 0 };
  const state = debugAnalysis.init();
  const facts = emptyDebugFacts(input.path);
  const truncations: Truncation[] = [];
  const servers = new Set<string>();
  for await (const r of readDebugLog(input, { stdin: opts.stdin, stats })) {
    if (r.kind === "malformed") {
      countRecord(health, { ...r, chain: "debug" });
      continue;
    }
    health.records += 1;
    debugAnalysis.step(state, r);
    addDebugRecord(facts, r);
    if (r.server !== null) servers.add(r.server);
    if (r.event.type === "mcp-instructions-truncated" && r.server !== null) {
      truncations.push({ server: r.server, from: r.event.from, to: r.event.to, file: input.path, line: r.pos.line, ms: r.ms });
    }
  }
  health.lines = stats.lines;
  health.blankLines = stats.blankLines;
  return { input, result: debugAnalysis.finish(state), facts, truncations, servers: [...servers], health };
}

/**
 * The debug log of a session: `--debug-file` if given, else `<config dir>/debug/<session>.txt`, looking
 * first in the config dir the transcript itself sits in (`<dir>/projects/<key>/<id>.jsonl`).
 */
export function locateDebugLog(transcript: string | null, sessionId: string | null, opts: CommonOptions): string | null {
  if (opts.debugFile) return opts.debugFile;
  if (!sessionId) return null;
  const home = transcript !== null && basename(dirname(dirname(transcript))) === "projects" ? [dirname(dirname(dirname(transcript)))] : [];
  return findDebugLog([...home, ...configDirs({ claudeDir: opts.claudeDir, env: opts.env, cwd: opts.cwd })], sessionId, opts.env) ?? null;
}

/** Reads the session's debug log if there is one. */
export async function debugEvidenceFor(transcript: string | null, sessionId: string | null, opts: CommonOptions): Promise<DebugEvidence | null> {
  const path = locateDebugLog(transcript, sessionId, opts);
  return path === null ? null : readDebugEvidence(evidenceInput(path, "debug-log"), { stdin: opts.stdin });
}

/** Only a log's bad lines join a transcript report's health: its lines and entries are not transcript records. */
export function malformedOnly(h: Health): Health {
  return { ...emptyHealth(), malformed: h.malformed, malformedCount: h.malformedCount };
}
