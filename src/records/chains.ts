import { sessionIdFromName } from "../sources/discover.js";

/**
 * Which chain a transcript record belongs to. Chains are keyed by (sessionId, agentId), not by file
 * (FORMATS.md 11): a main file can hold records with `isSidechain:true` and an `agentId`, or records of
 * another session (resume copies); a request of another chain in the middle must not give the file's
 * own chain a delta. Such records form their own chain, labelled with their agent id, else their
 * session id (`agent@session` when a subagent file holds another session's records of its agent).
 */
export interface ChainHome {
  /** The file's own chain label: "main" or the subagent file's agent id. */
  chain: string;
  /** The session the file belongs to, when its name or its parent says so; else the first one its records name. */
  sessionId?: string;
  /** Set for a subagent file: its agent id. */
  agentId?: string;
}

/** The envelope fields the split reads. */
export interface ChainKeys {
  sessionId: string | undefined;
  agentId: string | undefined;
  isSidechain: boolean;
}

export class ChainSplitter {
  private session: string | undefined;

  constructor(private readonly home: ChainHome) {
    this.session = home.sessionId;
  }

  chainOf(rec: ChainKeys): string {
    const { home } = this;
    const agent = home.agentId;
    if (agent === undefined) {
      if (rec.isSidechain && rec.agentId !== undefined) return rec.agentId;
    } else if (rec.agentId !== undefined && rec.agentId !== agent) return rec.agentId;
    const s = rec.sessionId;
    // Metadata records carry no session: they stay with the file.
    if (s === undefined || s === this.session) return home.chain;
    if (this.session === undefined) {
      this.session = s;
      return home.chain;
    }
    return agent === undefined ? s : `${agent}@${s}`;
  }
}

/** What a chain label names: the main chain, another session's records, or a subagent. */
export function chainKind(chain: string): "main" | "session" | "subagent" {
  if (chain === "main") return "main";
  return sessionIdFromName(chain) !== undefined ? "session" : "subagent";
}

/**
 * Whether a chain is the file's own session's (its main chain, a sidechain or subagent of it), not records
 * of another session copied in (a resume copy: its session id as the label, or `agent@session`). A
 * session's time span is taken from these only: a resumed file's copies carry the earlier session's times.
 */
export function ownSessionChain(chain: string): boolean {
  return chainKind(chain) !== "session" && !chain.includes("@");
}
