import { hash } from "node:crypto";
import { chainKind } from "../records/chains.js";
import { isObject, num, str } from "../records/json.js";
import { isStringAt } from "../records/lazy-strings.js";
import { usageOf, type AssistantRecord, type ProgressRecord, type UserRecord } from "../records/transcript.js";

/**
 * A subagent's Task/Agent result as its parent recorded it (FORMATS.md 11): the `user` record returning
 * the result carries `toolUseResult{agentId, prompt, totalDurationMs, totalTokens, totalToolUseCount,
 * usage}`, and that `usage` is the subagent's last request with its final output count, where the
 * subagent's own file keeps only the streaming placeholder (1–4).
 */
export interface SubagentTask {
  /** The subagent chain the result was joined to; null when none could be (`unjoinedReason` says why). */
  chain: string | null;
  /**
   * How: the result's `agentId`; its tool_use id, as an `agent_progress` record or the subagent file's
   * `.meta.json` names it; the prompt (one chain's first message); or "usage": a prompt several chains
   * start with, told apart by the one chain holding a request whose input side equals the result's usage.
   */
  joinedBy: "agentId" | "toolUseId" | "prompt" | "usage" | null;
  /**
   * Why no chain, when `chain` is null: "not-read" (the agentId or tool_use link names a chain that was not
   * read: its file missing, or --no-subagents), "no-link" (no agentId, no tool_use link, and no chain read
   * starts with its prompt), "prompt-shared" (`promptChains` chains start with its prompt and its usage
   * matches no single one), "taken" (the one chain its prompt names is joined to another result already).
   */
  unjoinedReason: "not-read" | "no-link" | "prompt-shared" | "taken" | null;
  /** How many chains start with the result's prompt, when that is why it was joined to none ("prompt-shared"). */
  promptChains: number | null;
  parentChain: string;
  toolUseId: string;
  tool: string;
  agentId: string | null;
  status: string | null;
  file: string;
  line: number;
  totalDurationMs: number | null;
  totalToolUseCount: number | null;
  totalTokens: number | null;
  usage: {
    inputTokens: number | null;
    cacheCreationInputTokens: number | null;
    cacheReadInputTokens: number | null;
    outputTokens: number | null;
  } | null;
  /**
   * The request of the chain the result speaks for, and whether the result's usage equals it on the input side
   * (input, cache creation, cache read): the one whose input side equals the usage among the chain's last
   * request and the last request before each later prompt of the chain (a resumed subagent: one result per
   * leg); when none does, the first of those no other result took, else the chain's last.
   */
  lastRequestIndex: number | null;
  matchesLastRequest: boolean | null;
  /** The output count that request shows now: taken from the result when it held only a placeholder. */
  outputTokensApplied: number | null;
}

/** The input side and output of a chain's last request (or a leg's), kept per chain so the join needs no row read back. */
export interface LastRequest {
  index: number;
  inputTokens: number | null;
  cacheCreationInputTokens: number | null;
  cacheReadInputTokens: number | null;
  outputTokens: number | null;
  placeholder: boolean;
}

/** What the join reads of a request row (analyses/request-row.ts, not imported: it imports this file). */
interface RequestRow {
  index: number;
  inputTokens: number | null;
  cacheCreationInputTokens: number | null;
  cacheReadInputTokens: number | null;
  outputTokens: number | null;
  outputPlaceholder: boolean;
  duplicateOf: string | null;
}

const TASK_TOOLS: ReadonlySet<string> = new Set(["Task", "Agent"]);

/**
 * Prompts are kept as a digest: 100,000 subagents must not hold their prompts. One `crypto.hash` call, the
 * same digest as a Hash object's (a lone surrogate is UTF-8-encoded the same way by both), which cost
 * ≈20 us a prompt to look the digest up.
 */
export function promptKey(text: unknown): string | null {
  if (typeof text !== "string") return null;
  const t = text.trim();
  return t !== "" ? hash("sha1", t, "base64") : null;
}

/** Collects Task/Agent results, `agent_progress` links and each chain's first prompt during the pass. */
export class TaskCollector {
  private readonly uses = new Map<string, { tool: string; prompt: string | null }>();
  private readonly results: Array<SubagentTask & { prompt: string | null }> = [];
  private readonly progressAgent = new Map<string, string>();
  private readonly firstPrompt = new Map<string, string | null>();
  /** Per subagent chain, its newest own request when a later prompt came (a resumed subagent's leg ends), in order. */
  private readonly legEnds = new Map<string, RequestRow[]>();

  /** `links`: tool_use id → the subagent chain whose file's `.meta.json` names it (sources/subagent-meta.ts). */
  constructor(private readonly links: ReadonlyMap<string, string> = new Map()) {}

  assistant(rec: AssistantRecord): void {
    for (const b of rec.content) {
      if (b.type !== "tool_use" || typeof b.id !== "string" || typeof b.name !== "string" || !TASK_TOOLS.has(b.name)) continue;
      this.uses.set(b.id, { tool: b.name, prompt: promptKey(isObject(b.input) ? b.input.prompt : undefined) });
    }
  }

  /** `rows`: the chain's open rows and last final row as requests.ts holds them, for a leg's end. */
  user(rec: UserRecord, rows?: { open: readonly RequestRow[]; last: RequestRow | null }): void {
    const needPrompt = !this.firstPrompt.has(rec.chain) && !rec.isMeta;
    // A long string prompt stays undecoded unless it is the chain's first (records/lazy-strings.ts).
    if (!needPrompt && isStringAt(rec, "content")) {
      if (!rec.isMeta) this.legEnd(rec.chain, rows);
      return;
    }
    const c = rec.content;
    const prompt = typeof c === "string" || (Array.isArray(c) && !c.some((b) => b.type === "tool_result"));
    if (needPrompt) {
      const text = typeof c === "string" ? c : prompt ? textOf(c as Array<{ type?: unknown; text?: unknown }>) : undefined;
      if (text !== undefined) this.firstPrompt.set(rec.chain, promptKey(text));
    } else if (prompt && !rec.isMeta) this.legEnd(rec.chain, rows);
    if (!Array.isArray(c)) return;
    for (const b of c) {
      if (b.type !== "tool_result" || typeof b.tool_use_id !== "string") continue;
      const use = this.uses.get(b.tool_use_id);
      if (use) this.onResult(rec, b.tool_use_id, use);
    }
  }

  progress(rec: ProgressRecord): void {
    if (rec.dataType !== "agent_progress" || !isObject(rec.raw.data)) return;
    const agent = str(rec.raw.data.agentId);
    const parent = str(rec.raw.parentToolUseID);
    if (agent && parent && !this.progressAgent.has(parent)) this.progressAgent.set(parent, agent);
  }

  /**
   * Joins each result to a chain and says what its usage confirms there. A link (agentId, tool_use id) may
   * join several results to one chain (a resumed subagent); a prompt names only a chain no result took yet.
   * Each of a chain's requests (its last, and each leg's end) takes one result at most.
   */
  join(last: ReadonlyMap<string, LastRequest | null>): {
    tasks: SubagentTask[];
    fixes: Map<string, TaskOutputFixes>;
  } {
    const joined = new Set<string>();
    const byPrompt = new Map<string, string[]>();
    for (const [chain, key] of this.firstPrompt) {
      if (chain === "main" || key === null || !last.has(chain)) continue;
      const list = byPrompt.get(key);
      if (list) list.push(chain);
      else byPrompt.set(key, [chain]);
    }
    const ends = new Map<string, LastRequest[]>();
    const endsOf = (chain: string): LastRequest[] => {
      let e = ends.get(chain);
      if (e === undefined) ends.set(chain, (e = requestEnds(this.legEnds.get(chain), last.get(chain) ?? null)));
      return e;
    };
    // Each chain's requests a result matched, by index: a request speaks for one result.
    const used = new Map<string, Set<number>>();
    const usedOf = (chain: string): Set<number> => {
      let u = used.get(chain);
      if (u === undefined) used.set(chain, (u = new Set()));
      return u;
    };
    const free = (chain: string, u: SubagentTask["usage"]): LastRequest | undefined => {
      const taken = used.get(chain);
      return endsOf(chain).find((r) => !taken?.has(r.index) && sameInput(u, r));
    };
    const picked: Array<{ chain: string; by: NonNullable<SubagentTask["joinedBy"]>; req: LastRequest | undefined } | undefined> = [];
    const tasks: SubagentTask[] = this.results.map(({ prompt, ...t }) => {
      const readable = (c: string | null | undefined): c is string => !!c && c !== t.parentChain && last.has(c);
      const links: Array<[string | null | undefined, "agentId" | "toolUseId"]> = [
        [t.agentId, "agentId"],
        [this.progressAgent.get(t.toolUseId), "toolUseId"],
        [this.links.get(t.toolUseId), "toolUseId"],
      ];
      const link = links.find(([c]) => readable(c));
      let hit: { chain: string; by: NonNullable<SubagentTask["joinedBy"]> } | undefined = link && { chain: link[0]!, by: link[1] };
      let reason: SubagentTask["unjoinedReason"] = links.some(([c]) => c) ? "not-read" : "no-link";
      let promptChains: number | null = null;
      const named = prompt === null ? undefined : byPrompt.get(prompt)?.filter((c) => c !== t.parentChain);
      if (!hit && named?.length === 1) {
        if (!joined.has(named[0]!)) hit = { chain: named[0]!, by: "prompt" };
        else if (reason === "no-link") reason = "taken";
      } else if (!hit && named !== undefined && named.length > 1) {
        // A prompt several chains share names none; the input side of the usage may name one.
        const matching = t.usage === null ? [] : named.filter((c) => !joined.has(c) && free(c, t.usage) !== undefined);
        if (matching.length === 1) hit = { chain: matching[0]!, by: "usage" };
        else if (reason === "no-link") ((reason = "prompt-shared"), (promptChains = named.length));
      }
      if (!hit) {
        picked.push(undefined);
        return { ...t, unjoinedReason: reason, promptChains };
      }
      joined.add(hit.chain);
      const req = free(hit.chain, t.usage);
      if (req) usedOf(hit.chain).add(req.index);
      picked.push({ ...hit, req });
      return { ...t, chain: hit.chain, joinedBy: hit.by };
    });
    const fixes = new Map<string, TaskOutputFixes>();
    for (let i = 0; i < tasks.length; i++) {
      const p = picked[i];
      if (!p) continue;
      const t = tasks[i]!;
      const u = t.usage;
      // A request an earlier result matched (the same usage twice): it matches, and shows the earlier one's count.
      const again = p.req === undefined && u !== null ? endsOf(p.chain).find((r) => sameInput(u, r)) : undefined;
      // No request matched: the first no other result took stands for it (for a chain of one leg, its last).
      const req = p.req ?? again ?? endsOf(p.chain).find((r) => !used.get(p.chain)?.has(r.index)) ?? last.get(p.chain) ?? null;
      if (!p.req && !again && req) usedOf(p.chain).add(req.index);
      const matches = p.req !== undefined || again !== undefined;
      let applied = req?.outputTokens ?? null;
      if (again) applied = fixes.get(p.chain)?.find((f) => f.index === again.index)?.outputTokens ?? applied;
      else if (matches && req!.placeholder && u!.outputTokens !== null) {
        applied = u!.outputTokens;
        const list = fixes.get(p.chain);
        const fix = { index: req!.index, outputTokens: u!.outputTokens, recorded: req!.outputTokens };
        if (list) list.push(fix);
        else fixes.set(p.chain, [fix]);
      }
      tasks[i] = {
        ...t,
        lastRequestIndex: req?.index ?? null,
        matchesLastRequest: req === null || u === null ? null : matches,
        outputTokensApplied: applied,
      };
    }
    return { tasks, fixes };
  }

  /** A later prompt in a subagent chain ends a leg: its newest own request is what a result for that leg speaks for. */
  private legEnd(chain: string, rows: { open: readonly RequestRow[]; last: RequestRow | null } | undefined): void {
    // Only a subagent's: the main chain and another session's copied records are no Task's to speak for.
    if (rows === undefined || chain === "main" || chainKind(chain) !== "subagent") return;
    let row: RequestRow | null = rows.last;
    for (let i = rows.open.length - 1; i >= 0; i--)
      if (rows.open[i]!.duplicateOf === null) {
        row = rows.open[i]!;
        break;
      }
    if (row === null) return;
    const list = this.legEnds.get(chain);
    if (!list) this.legEnds.set(chain, [row]);
    else if (list[list.length - 1] !== row) list.push(row);
  }

  private onResult(rec: UserRecord, toolUseId: string, use: { tool: string; prompt: string | null }): void {
    let r: unknown;
    try {
      r = rec.toolUseResult;
    } catch {
      // A damaged lazy copy (records/lazy.ts): the result is counted in health, its figures are unknown.
      r = undefined;
    }
    const o = isObject(r) ? r : {};
    const usage = usageOf(o.usage);
    this.results.push({
      chain: null,
      joinedBy: null,
      unjoinedReason: null,
      promptChains: null,
      parentChain: rec.chain,
      toolUseId,
      tool: use.tool,
      agentId: str(o.agentId) ?? null,
      status: str(o.status) ?? null,
      file: rec.pos.file,
      line: rec.pos.line,
      totalDurationMs: num(o.totalDurationMs) ?? null,
      totalToolUseCount: num(o.totalToolUseCount) ?? null,
      totalTokens: num(o.totalTokens) ?? null,
      usage: usage
        ? {
            inputTokens: usage.inputTokens,
            cacheCreationInputTokens: usage.cacheCreationInputTokens,
            cacheReadInputTokens: usage.cacheReadInputTokens,
            outputTokens: usage.outputTokens,
          }
        : null,
      lastRequestIndex: null,
      matchesLastRequest: null,
      outputTokensApplied: null,
      prompt: promptKey(o.prompt) ?? use.prompt,
    });
  }
}

/** The fixes a chain's requests take from its results: one per leg whose last request held a placeholder. */
export type TaskOutputFixes = Array<{ index: number; outputTokens: number; recorded: number | null }>;

/** The requests a chain's results may speak for, in order: each leg's end, then its last (once). */
/** What the Task/Agent join checks a request of a chain (its last, or a leg's last) against. */
export function lastRequest(row: RequestRow): LastRequest {
  return {
    index: row.index,
    inputTokens: row.inputTokens,
    cacheCreationInputTokens: row.cacheCreationInputTokens,
    cacheReadInputTokens: row.cacheReadInputTokens,
    outputTokens: row.outputTokens,
    placeholder: row.outputPlaceholder,
  };
}

function requestEnds(legs: readonly RequestRow[] | undefined, last: LastRequest | null): LastRequest[] {
  const out: LastRequest[] = [];
  for (const row of legs ?? []) {
    if (last !== null && row.index >= last.index) continue;
    out.push(lastRequest(row));
  }
  if (last !== null) out.push(last);
  return out;
}

/** The result's usage equals the request on the input side: input, cache creation, cache read. */
function sameInput(u: SubagentTask["usage"], r: LastRequest): boolean {
  return (
    u !== null &&
    u.inputTokens === r.inputTokens &&
    u.cacheCreationInputTokens === r.cacheCreationInputTokens &&
    u.cacheReadInputTokens === r.cacheReadInputTokens
  );
}

function textOf(blocks: Array<{ type?: unknown; text?: unknown }>): string | undefined {
  const texts = blocks.filter((b) => b.type === "text" && typeof b.text === "string").map((b) => b.text as string);
  return texts.length ? texts.join("\n") : undefined;
}
