import { sessionIdFromName } from "../sources/discover.js";

/**
 * Which chain a transcript record belongs to. Chains are keyed by (sessionId, agentId), not by file
 * (FORMATS.md 11): a main file can hold records with `isSidechain:true` and an `agentId`, or records of
 * another session (resume copies); a request of another chain in the middle must not give the file's
 * own chain a delta. Such records form their own chain, labelled with their agent id, else their
 * session id (`agent@session` when a subagent file holds another session's records of its agent).
 *
 * Older Claude Code wrote subagent records inline in the main file with `isSidechain:true` and no
 * `agentId`. In a main file such a record follows its parent (`parentUuid`) when the parent was one too,
 * else it is the root of a chain of its own, `sidechain-<first 8 chars of its uuid>` (the full uuid when
 * another root took that label; `sidechain` for a record with no uuid and no such parent). Labels never
 * meet an agent id (`a…`), a session id (a uuid) or `main`, and `chainKind` calls them subagents.
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
  uuid: string | undefined;
  parentUuid: string | undefined;
}

export class ChainSplitter {
  private session: string | undefined;
  /** uuid → chain of each sidechain record with no agent id seen in a main file (only old files have them). */
  private sideOf: Map<string, string> | undefined;
  /** Labels the roots of such chains took. */
  private sideLabels: Set<string> | undefined;
  /** The chain of the last such record: where one hanging off a main-chain record goes. */
  private lastSide: string | undefined;

  constructor(private readonly home: ChainHome) {
    this.session = home.sessionId;
  }

  chainOf(rec: ChainKeys): string {
    const { home } = this;
    const agent = home.agentId;
    if (agent === undefined) {
      if (rec.isSidechain) return rec.agentId ?? this.sidechainOf(rec);
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

  /**
   * The chain of a main file's sidechain record with no agent id: its parent's; a new one when it is a root
   * (no parent, as a subagent's first record is); else (its parent is a main-chain record or was never
   * seen) the chain of the last such record, so that one subagent's records split by the main chain's do
   * not each become a chain of their own.
   */
  private sidechainOf(rec: ChainKeys): string {
    const of = (this.sideOf ??= new Map());
    const labels = (this.sideLabels ??= new Set());
    const { uuid } = rec;
    // A record written twice (a resume copy) stays where it was first.
    let chain = (uuid !== undefined ? of.get(uuid) : undefined) ?? (rec.parentUuid !== undefined ? of.get(rec.parentUuid) : undefined);
    if (chain === undefined && rec.parentUuid !== undefined) chain = this.lastSide;
    if (chain === undefined) {
      if (uuid === undefined) return (this.lastSide = "sidechain");
      // Letters, digits and dashes only: a label must never read as `agent@session` or hold anything a
      // renderer would have to escape; a uuid made of other characters is numbered instead.
      if (/^[0-9A-Za-z-]+$/.test(uuid)) {
        chain = `sidechain-${uuid.slice(0, 8)}`;
        if (labels.has(chain)) chain = `sidechain-${uuid}`;
        // Only a uuid of 8 chars or fewer can meet a label taken already: number it.
        for (let n = 2; labels.has(chain); n++) chain = `sidechain-${uuid}-${n}`;
      } else {
        let n = 1;
        do chain = `sidechain-${n++}`;
        while (labels.has(chain));
      }
      labels.add(chain);
    }
    if (uuid !== undefined) of.set(uuid, chain);
    this.lastSide = chain;
    return chain;
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
