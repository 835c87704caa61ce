/**
 * Chains whose newest rows are still open to fragments. A request's fragments can have another chain's
 * records between them (an inline sidechain written while the main request streamed), so leaving a chain
 * must not close it; but thousands of subagent chains must not all hold a window. The OPEN_CHAINS most
 * recently active chains stay open; when one more becomes active, the least recently active one is closed.
 * `requests.ts` and `session-requests.ts` share this, so their counts stay equal.
 */
export const OPEN_CHAINS = 16;

/**
 * `c` is now the most recently active of `recent` (oldest first, at most OPEN_CHAINS long). Returns the chain
 * that must be closed because `c` joined a full list, else undefined.
 */
export function touchChain<C>(recent: C[], c: C): C | undefined {
  const at = recent.lastIndexOf(c);
  if (at === recent.length - 1 && at >= 0) return undefined;
  if (at >= 0) {
    recent.splice(at, 1);
    recent.push(c);
    return undefined;
  }
  recent.push(c);
  return recent.length > OPEN_CHAINS ? recent.shift() : undefined;
}
