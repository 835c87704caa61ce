/**
 * The one explanation of the `§` mark, wherever a row next to a compaction is shown (FORMATS.md 11): the
 * request after a `compact_boundary` starts over from the summary, so its difference to the request
 * before is no cost of anything added in between.
 */
export const COMPACTION_NOTE =
  "§ after a compaction (compact_boundary) the chain starts a new segment from the summary: the next request's delta is a reset (trigger, context tokens before it), not a cost, it is charged to no tool result or attachment, and nothing from before the boundary counts as added after it (a compacted chain's total shows no first-to-last growth)";
