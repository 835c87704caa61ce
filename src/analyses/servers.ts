import type { Check } from "../records/tool-output.js";
import { normalizeServer, splitToolName } from "../records/tool-names.js";
import type { DebugServer } from "./debug.js";
import type { InstructionRow } from "./instructions-join.js";
import type { ToolResultRow } from "./outputs-join.js";
import type { ToolSighting } from "./tool-sightings.js";
import { FleetCopies, recordSession, type SessionCopies } from "./fleet-copies.js";
import { IdSet } from "./id-set.js";

/** What one session contributes to the per-server aggregates (assemble/fleet-session.ts builds it). */
export interface SessionFacts {
  sessionId: string | null;
  results: ToolResultRow[];
  instructions: InstructionRow[];
  tools: ToolSighting[];
  /** Per-server facts of the session's debug log; empty without one. */
  debugServers: DebugServer[];
  /** Server names the session itself names (instructions deltas, debug log), to split `mcp__a__b__c`. */
  knownServers: string[];
}

export const CHECKS: readonly Check[] = ["inline", "size", "token", "token-legacy", "truncated", "read-limit", "budget", "cleared"];

const FAILED: ReadonlySet<DebugServer["status"]> = new Set(["failed", "timeout", "errored", "needs-auth", "killed"]);

/** Everything summed for one server or one tool (CONTRACT.md `servers`; extras after). */
export interface FleetRow {
  name: string;
  sessions: number;
  /** Distinct tools seen (deferred, defined, loaded or called); `toolsDeferred`, `toolsDefined`, `toolsLoaded`, `toolsCalled` split it. */
  tools: number;
  toolCalls: number;
  resultChars: number;
  resultCharsMax: number | null;
  checks: Record<Check, number>;
  /** Σ over the distinct requests that carried its results of their growth (compaction-aware: null deltas are left out and counted). */
  deltaTokens: number;
  followUpReads: number;
  instructions: { deliveries: number; chars: number; truncated: number };
  // extras
  server: string | null;
  tool: string | null;
  toolsDeferred: number;
  toolsDefined: number;
  /** Whose full definition reached the model in some session (snapshot, ToolSearch load or call). */
  toolsLoaded: number;
  toolsCalled: number;
  results: number;
  /** Results whose size is unknown (a legacy token error names tokens only). */
  resultCharsUnknown: number;
  /** Results whose carrying request's growth is unknown (after a compaction boundary, first request, no request). */
  deltaTokensUnknown: number;
  /** Requests counted in `deltaTokens` that also carried other results: their growth is shared. */
  sharedRequests: number;
  followUpTokens: number;
  /** deltaTokens / resultChars over the results with both known. */
  tokensPerChar: number | null;
  /** Sessions whose debug log ends this server failed, timed out, errored, needed auth or was killed. */
  connectionFailures: number;
  debugLogs: number;
  lastError: string | null;
}

interface Acc {
  key: string;
  row: FleetRow;
  tools: Map<string, { deferred: boolean; defined: boolean; loaded: boolean; called: boolean }>;
  /** Chars of results whose request growth is known, for tokensPerChar. */
  pricedChars: number;
  pricedTokens: number;
}

export type FleetBy = "server" | "tool";

/**
 * Per-server (or per-tool) sums over sessions fed one at a time: only the aggregates are kept, so memory
 * follows the number of servers and tools, never the number of sessions.
 */
export class FleetAggregate {
  private readonly accs = new Map<string, Acc>();
  /** Copies across sessions (resume, fork, one session in two config dirs), when the caller marks none. */
  private readonly copies = new FleetCopies();
  /** (row, session) pairs counted in `sessions` by records of the file's own session, across the pass. */
  private readonly appeared = new IdSet();
  /** The sessions folded in (their own files read), by id. */
  private readonly folded = new IdSet();
  /**
   * (row, copied session, file session) of records another session's file copied in (a resume), each once:
   * whether they count for the copied session or the file's is known only at the end of the pass.
   */
  private readonly copiedSeen = new IdSet();
  private readonly copied: { a: Acc; session: string; file: string }[] = [];
  sessions = 0;
  constructor(readonly by: FleetBy) {}

  /**
   * Folds one session in. `marks` says which of its rows copy rows counted before (FleetCopies.mark, made
   * once per session when several aggregates read it); without it this aggregate marks them itself.
   */
  add(s: SessionFacts, marks: SessionCopies = this.copies.mark(s)): void {
    this.sessions++;
    const known = { servers: s.knownServers };
    const own = s.sessionId ?? "";
    this.folded.getOrAdd(own, 0);
    // A server appears in the session its records belong to, and one session read twice counts once, in
    // any order. A resume copy's chain is the copied session's: it counts for that session when that
    // session's own file is in the pass too (so the copy adds no session), else for the file that holds it
    // (a session seen only through copies is no session of the pass). rows() settles which.
    const touch = (a: Acc, chain: string | null) => {
      const session = chain === null ? own : (recordSession(chain, s.sessionId) ?? "");
      if (session === own) {
        if (this.appeared.getOrAdd(`${a.key}\u0000${own}`, 0) === undefined) a.row.sessions++;
      } else if (this.copiedSeen.getOrAdd(`${a.key}\u0000${session}\u0000${own}`, 0) === undefined) {
        this.copied.push({ a, session, file: own });
      }
    };
    const keyOf = (server: string | null, tool: string | null, full: string) =>
      server === null ? null : this.by === "server" ? this.acc(normalizeServer(server), server, null) : this.acc(full, server, tool);
    s.tools.forEach((t, k) => {
      const split = splitToolName(t.name, known);
      const a = keyOf(t.server, split.tool, t.name);
      if (!a) return;
      for (const chain of t.chains.length > 0 ? t.chains : [null]) touch(a, chain);
      const seen = a.tools.get(t.name) ?? { deferred: false, defined: false, loaded: false, called: false };
      seen.deferred ||= t.deferred;
      seen.defined ||= t.defined;
      seen.loaded ||= t.loaded;
      seen.called ||= t.calls > 0;
      a.tools.set(t.name, seen);
      // Calls are counted by tool_use id: a copied call counts once, whether or not its result was copied too.
      a.row.toolCalls += Math.max(0, t.calls - (marks.copiedCalls[k] ?? 0));
    });
    // A session's results are distinct already (outputs.ts); one seen in an earlier session is that
    // session's, copied here with its call: not counted again.
    const results = s.results.filter((r, i) => {
      if (marks.results[i] === null) return true;
      const a = keyOf(r.server, r.toolName, r.tool);
      if (a) touch(a, r.chain);
      return false;
    });
    const carried = new Map<Acc, Set<string>>();
    for (const r of results) {
      const a = keyOf(r.server, r.toolName, r.tool);
      if (!a) continue;
      touch(a, r.chain);
      const row = a.row;
      row.results++;
      row.checks[r.check]++;
      if (r.resultChars === null) row.resultCharsUnknown++;
      else {
        row.resultChars += r.resultChars;
        row.resultCharsMax = Math.max(row.resultCharsMax ?? 0, r.resultChars);
      }
      row.followUpReads += r.followUpReadCount;
      row.followUpTokens += r.followUpTokens ?? 0;
      if (r.deltaTokens === null || r.requestIndex === null) {
        row.deltaTokensUnknown++;
        continue;
      }
      if (r.resultChars !== null) a.pricedChars += r.resultChars;
      const req = `${r.chain}#${r.requestIndex}`;
      const set = carried.get(a) ?? new Set<string>();
      carried.set(a, set);
      if (set.has(req)) continue;
      set.add(req);
      row.deltaTokens += r.deltaTokens;
      a.pricedTokens += r.deltaTokens;
      if ((r.resultsInRequest ?? 0) > 1) row.sharedRequests++;
    }
    if (this.by === "server") {
      s.instructions.forEach((i, k) => {
        if (i.removed) return;
        const a = this.acc(normalizeServer(i.server), i.server, null);
        touch(a, i.chain);
        // A delivery copied by a resume or fork (same record uuid) was delivered once.
        if (marks.instructions[k] !== null) return;
        a.row.instructions.deliveries++;
        a.row.instructions.chars += i.chars;
        if (i.truncated) a.row.instructions.truncated++;
      });
      for (const d of s.debugServers) {
        const a = this.acc(normalizeServer(d.name), d.name, null);
        touch(a, null);
        a.row.debugLogs++;
        if (FAILED.has(d.status)) a.row.connectionFailures++;
        if (d.lastError !== null) a.row.lastError = d.lastError;
      }
    }
  }

  rows(): FleetRow[] {
    const fromCopies = this.copiedSessions();
    return [...this.accs.values()]
      .map((a) => {
        const tools = [...a.tools.values()];
        return {
          ...a.row,
          sessions: a.row.sessions + (fromCopies.get(a) ?? 0),
          tools: tools.length,
          toolsDeferred: tools.filter((t) => t.deferred).length,
          toolsDefined: tools.filter((t) => t.defined).length,
          toolsLoaded: tools.filter((t) => t.loaded).length,
          toolsCalled: tools.filter((t) => t.called).length,
          tokensPerChar: a.pricedChars > 0 ? a.pricedTokens / a.pricedChars : null,
        };
      })
      .sort((x, y) => y.deltaTokens - x.deltaTokens || y.resultChars - x.resultChars || x.name.localeCompare(y.name));
  }

  /** Per row, the sessions only copies add: the copied session if its file was folded, else the copy's file. */
  private copiedSessions(): Map<Acc, number> {
    const added = new Map<Acc, number>();
    const counted = new Set<string>();
    for (const c of this.copied) {
      const session = this.folded.has(c.session) ? c.session : c.file;
      const key = `${c.a.key}\u0000${session}`;
      if (this.appeared.has(key) || counted.has(key)) continue;
      counted.add(key);
      added.set(c.a, (added.get(c.a) ?? 0) + 1);
    }
    return added;
  }

  private acc(key: string, server: string | null, tool: string | null): Acc {
    let a = this.accs.get(key);
    if (!a) {
      a = {
        key,
        row: emptyRow(key, server === null ? null : normalizeServer(server), tool),
        tools: new Map(),
        pricedChars: 0,
        pricedTokens: 0,
      };
      this.accs.set(key, a);
    }
    // The server's own spelling (instructions, debug log) over the normalized one in tool names.
    if (this.by === "server" && server !== null && server !== key && a.row.name === key) a.row.name = server;
    return a;
  }
}

function emptyRow(name: string, server: string | null, tool: string | null): FleetRow {
  return {
    name,
    sessions: 0,
    tools: 0,
    toolCalls: 0,
    resultChars: 0,
    resultCharsMax: null,
    checks: Object.fromEntries(CHECKS.map((c) => [c, 0])) as Record<Check, number>,
    deltaTokens: 0,
    followUpReads: 0,
    instructions: { deliveries: 0, chars: 0, truncated: 0 },
    server,
    tool,
    toolsDeferred: 0,
    toolsDefined: 0,
    toolsLoaded: 0,
    toolsCalled: 0,
    results: 0,
    resultCharsUnknown: 0,
    deltaTokensUnknown: 0,
    sharedRequests: 0,
    followUpTokens: 0,
    tokensPerChar: null,
    connectionFailures: 0,
    debugLogs: 0,
    lastError: null,
  };
}
