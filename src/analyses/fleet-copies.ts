import { chainKind } from "../records/chains.js";
import { IdSet } from "./id-set.js";
import type { RequestRow } from "./request-row.js";

/** What the ledger reads of a session's facts (servers.ts SessionFacts has these and more). */
export interface CopyKeys {
  sessionId: string | null;
  results: ReadonlyArray<{ toolUseId: string; chain: string }>;
  instructions: ReadonlyArray<{ uuid: string | null; server: string; chain: string }>;
  tools: ReadonlyArray<{ callIds: readonly string[] }>;
}

/**
 * Ids seen across a fleet pass, each with where it was first seen ("session/chain#index"). The id costs what
 * IdSet costs (16 bytes of key and a 4-byte ordinal); the places are kept as runs of consecutive rows of one
 * chain, so they follow the number of chains, not of rows.
 */
export class CopyLedger {
  private readonly ids = new IdSet();
  private ordinal = 0;
  private readonly runStart: number[] = [];
  private readonly runIndex: number[] = [];
  private readonly runLabel: string[] = [];

  /** null for the first occurrence of `id` (remembered at `label#index`); else where that first one was. */
  mark(id: string, label: string, index: number): string | null {
    // Past 2^32 - 2 rows the ordinal no longer fits a slot: later ids are only remembered as seen.
    const ordinal = Math.min(this.ordinal, 0xfffffffe);
    const first = this.ids.getOrAdd(id, ordinal);
    if (first !== undefined) return this.where(first);
    const n = this.runStart.length;
    if (n === 0 || this.runLabel[n - 1] !== label || this.runIndex[n - 1]! + (ordinal - this.runStart[n - 1]!) !== index) {
      this.runStart.push(ordinal);
      this.runIndex.push(index);
      this.runLabel.push(label);
    }
    this.ordinal++;
    return null;
  }

  private where(ordinal: number): string {
    let lo = 0;
    let hi = this.runStart.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.runStart[mid]! <= ordinal) lo = mid;
      else hi = mid - 1;
    }
    return `${this.runLabel[lo]}#${this.runIndex[lo]! + (ordinal - this.runStart[lo]!)}`;
  }
}

/** Which of one session's rows copy rows an earlier session of the pass (or an earlier chain) already had. */
export interface SessionCopies {
  /**
   * Per `facts.results`: null for the first occurrence in the pass, else `session/chain/result#result_index` of it:
   * `/result` says the number is a result's, not a request's (`session/chain#request_index`).
   */
  results: (string | null)[];
  /** Per `facts.instructions`: the same, `session/chain/delivery#delivery_index`. */
  instructions: (string | null)[];
  /** Per `facts.tools`: how many of its calls were made (by tool_use id) in a row counted before. */
  copiedCalls: number[];
}

/**
 * Records that Claude Code copies into another session (resume, fork, a compaction agent's start) keep their
 * ids (FORMATS.md 1 trap 4), so across a fleet pass each is counted where it first occurs in the pass's
 * order, and marked a copy everywhere else: results by tool_use id, calls by tool_use id, instructions
 * deliveries by the carrier record's uuid and server, requests by message id. The totals do not depend on
 * which session is read first; only which row carries the mark does.
 */
export class FleetCopies {
  private readonly results = new CopyLedger();
  private readonly instructions = new CopyLedger();
  private readonly requests = new CopyLedger();
  private readonly calls = new IdSet();

  mark(s: CopyKeys): SessionCopies {
    const session = s.sessionId ?? "-";
    const results = s.results.map((r, i) => this.results.mark(r.toolUseId, `${session}/${r.chain}/result`, i + 1));
    const instructions = s.instructions.map((r, i) =>
      r.uuid === null ? null : this.instructions.mark(`${r.uuid}\u0000${r.server}`, `${session}/${r.chain}/delivery`, i + 1),
    );
    const copiedCalls = s.tools.map((t) => t.callIds.reduce((n, id) => n + (this.calls.getOrAdd(id, 0) === undefined ? 0 : 1), 0));
    return { results, instructions, copiedCalls };
  }

  /**
   * A request row's mark: its own (`chain#index`, a copy within the session) if it has one, else
   * `session/chain#index` of the same message id in an earlier session, else null (counted here).
   */
  requestCopy(sessionId: string | null, row: RequestRow): string | null {
    if (row.duplicateOf !== null) return row.duplicateOf;
    if (row.messageId === null) return null;
    return this.requests.mark(row.messageId, `${sessionId ?? "-"}/${row.chain}`, row.index);
  }
}

/**
 * The session a chain's records belong to: a resume copy's chain is labelled with its session id
 * (`agent@session` for a subagent's), every other chain is the file's own session's.
 */
export function recordSession(chain: string, fileSession: string | null): string | null {
  if (chainKind(chain) === "session") return chain;
  const at = chain.lastIndexOf("@");
  if (at > 0 && chainKind(chain.slice(at + 1)) === "session") return chain.slice(at + 1);
  return fileSession;
}
