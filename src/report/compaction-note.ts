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

/** The requests table's mark of a request after a rewind (`kind: "rewind"`, docs/REFERENCE.md "Rewinds"). */
export const REWIND_NOTE =
  "↶N after a rewind (Esc Esc, /rewind, an edited message; the abandoned branch stays in the file): this request's parentUuid path leaves the request before it, so its delta and what it added are counted from request N, the last request on its own path; what only the abandoned branch added is counted in no request. ↶ alone: the branch starts over from the first message (no delta)";

/** The outputs tables' word for a result no request carried because a rewind abandoned its branch. */
export const ABANDONED_NOTE =
  "req none ↶: a rewind (Esc Esc, /rewind, an edited message) left this result on a branch that no later request continued: the next request in the file grew from an earlier one, so no request carried it and it has no Δ tokens";

/** The notes for the kinds of boundary among `compactions`: none, one or both (rewinds have their own). */
export function compactionNotes(compactions: Iterable<Pick<Compaction, "kind"> | null>): string[] {
  let compact = false;
  let micro = false;
  for (const c of compactions) {
    if (c === null || c.kind === "rewind") continue;
    if (c.kind === "micro") micro = true;
    else compact = true;
  }
  return [...(compact ? [COMPACTION_NOTE] : []), ...(micro ? [MICROCOMPACTION_NOTE] : [])];
}

/** The reset's first part in the delta cell: `auto`, `manual`, `compaction`, `microcompact auto`, `microcompact`. */
export function compactionTrigger(c: Pick<Compaction, "kind" | "trigger"> | null): string | null {
  if (c === null || c.kind === "rewind") return null;
  if (c.kind === "micro") return c.trigger === null ? "microcompact" : `microcompact ${c.trigger}`;
  return c.trigger ?? "compaction";
}
