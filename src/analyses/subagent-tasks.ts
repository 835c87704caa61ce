import { hash } from "node:crypto";
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
  /** The subagent chain the result was joined to; null when no chain read is its own (file missing, --no-subagents). */
  chain: string | null;
  /** How: the result's `agentId`, the tool_use id an `agent_progress` record names, or the prompt. */
  joinedBy: "agentId" | "toolUseId" | "prompt" | null;
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
  /** The chain's last request, and whether the result's usage equals it on the input side (input, cache creation, cache read). */
  lastRequestIndex: number | null;
  matchesLastRequest: boolean | null;
  /** The output count that request shows now: taken from the result when it held only a placeholder. */
  outputTokensApplied: number | null;
}

/** The input side and output of a chain's last request, kept per chain so the join needs no row read back. */
export interface LastRequest {
  index: number;
  inputTokens: number | null;
  cacheCreationInputTokens: number | null;
  cacheReadInputTokens: number | null;
  outputTokens: number | null;
  placeholder: boolean;
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

  assistant(rec: AssistantRecord): void {
    for (const b of rec.content) {
      if (b.type !== "tool_use" || typeof b.id !== "string" || typeof b.name !== "string" || !TASK_TOOLS.has(b.name)) continue;
      this.uses.set(b.id, { tool: b.name, prompt: promptKey(isObject(b.input) ? b.input.prompt : undefined) });
    }
  }

  user(rec: UserRecord): void {
    const needPrompt = !this.firstPrompt.has(rec.chain) && !rec.isMeta;
    // A long string prompt stays undecoded unless it is the chain's first (records/lazy-strings.ts).
    if (!needPrompt && isStringAt(rec, "content")) return;
    const c = rec.content;
    if (needPrompt) {
      const text = typeof c === "string" ? c : Array.isArray(c) && !c.some((b) => b.type === "tool_result") ? textOf(c) : undefined;
      if (text !== undefined) this.firstPrompt.set(rec.chain, promptKey(text));
    }
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

  /** Joins each result to a chain and says what its usage confirms there. Each chain takes one result at most. */
  join(last: ReadonlyMap<string, LastRequest | null>): {
    tasks: SubagentTask[];
    fixes: Map<string, { index: number; outputTokens: number; recorded: number | null }>;
  } {
    const taken = new Set<string>();
    const byPrompt = new Map<string, string | null>();
    for (const [chain, key] of this.firstPrompt) {
      if (chain === "main" || key === null || !last.has(chain)) continue;
      // A prompt two chains share names neither.
      byPrompt.set(key, byPrompt.has(key) ? null : chain);
    }
    const fixes = new Map<string, { index: number; outputTokens: number; recorded: number | null }>();
    const tasks = this.results.map(({ prompt, ...t }) => {
      const viaProgress = this.progressAgent.get(t.toolUseId);
      const pick: Array<[string | null | undefined, SubagentTask["joinedBy"]]> = [
        [t.agentId, "agentId"],
        [viaProgress, "toolUseId"],
        [prompt === null ? undefined : byPrompt.get(prompt), "prompt"],
      ];
      const hit = pick.find(([c]) => c && c !== t.parentChain && last.has(c) && !taken.has(c));
      if (!hit) return t;
      const chain = hit[0]!;
      taken.add(chain);
      const req = last.get(chain) ?? null;
      const u = t.usage;
      const matches =
        req !== null &&
        u !== null &&
        u.inputTokens === req.inputTokens &&
        u.cacheCreationInputTokens === req.cacheCreationInputTokens &&
        u.cacheReadInputTokens === req.cacheReadInputTokens;
      let applied = req?.outputTokens ?? null;
      if (matches && req.placeholder && u.outputTokens !== null) {
        applied = u.outputTokens;
        fixes.set(chain, { index: req.index, outputTokens: u.outputTokens, recorded: req.outputTokens });
      }
      return {
        ...t,
        chain,
        joinedBy: hit[1],
        lastRequestIndex: req?.index ?? null,
        matchesLastRequest: req === null || u === null ? null : matches,
        outputTokensApplied: applied,
      };
    });
    return { tasks, fixes };
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

function textOf(blocks: Array<{ type?: unknown; text?: unknown }>): string | undefined {
  const texts = blocks.filter((b) => b.type === "text" && typeof b.text === "string").map((b) => b.text as string);
  return texts.length ? texts.join("\n") : undefined;
}
