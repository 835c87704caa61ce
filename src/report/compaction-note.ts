import type { Compaction } from "../analyses/request-row.js";

/**
 * The one explanation of the `§` mark, wherever a row next to a compaction is shown (FORMATS.md 11): the
 * request after a `compact_boundary` starts over from the summary, so its difference to the request
 * before is no cost of anything added in between.
 */
export const COMPACTION_NOTE =
  "§ after a compaction (compact_boundary) the chain starts a new segment from the summary: the next request's delta is a reset (trigger, context tokens before it), not a cost, it is charged to no tool result or attachment, and nothing from before the boundary counts as added after it (a compacted chain's total shows no first-to-last growth)";

/** The same for a `microcompact_boundary`: old tool results were cleared, the rest was sent again. */
export const MICROCOMPACTION_NOTE =
  "§ after a microcompaction (microcompact_boundary) Claude Code cleared old tool results and sent the rest again: what was added still counts as added, but the next request's delta mixes it with what was cleared, so it is a reset (context tokens before it), not a cost, and is charged to no tool result or attachment";

/** The notes for the kinds of boundary among `compactions`: none, one or both. */
export function compactionNotes(compactions: Iterable<Pick<Compaction, "kind"> | null>): string[] {
  let compact = false;
  let micro = false;
  for (const c of compactions) {
    if (c === null) continue;
    if (c.kind === "micro") micro = true;
    else compact = true;
  }
  return [...(compact ? [COMPACTION_NOTE] : []), ...(micro ? [MICROCOMPACTION_NOTE] : [])];
}

/** The reset's first part in the delta cell: `auto`, `manual`, `compaction`, `microcompact auto`, `microcompact`. */
export function compactionTrigger(c: Pick<Compaction, "kind" | "trigger"> | null): string | null {
  if (c === null) return null;
  if (c.kind === "micro") return c.trigger === null ? "microcompact" : `microcompact ${c.trigger}`;
  return c.trigger ?? "compaction";
}
