/**
 * Read buffers that are filled again once their lines were handed on (sources/line-chunks.ts). A view
 * into one is valid only until then: records are stepped before the next read, and an undecoded string
 * (records/lazy-strings.ts) notes the generation of the buffer it points into, so reading it after its
 * bytes were replaced fails loudly instead of decoding other bytes.
 */
const generations = new WeakMap<ArrayBufferLike, number>();

/** Marks `buf`'s memory as about to be overwritten: every view taken before is stale. */
export function reuse(buf: Uint8Array): void {
  generations.set(buf.buffer, (generations.get(buf.buffer) ?? 0) + 1);
}

/** How often the memory under `view` was reused; 0 for memory that never is. */
export const generationOf = (view: Uint8Array): number => generations.get(view.buffer) ?? 0;

/**
 * Test hooks: a small read size makes every sample span reads; poison fills reused memory with 0xff.
 * The buffer grows to hold a line of up to `maxChunk` bytes, the size past which transcript lines are
 * scanned as they stream (records/transcript-source.ts), so a giant line is never held here.
 */
export const readTuning = { chunk: 1 << 20, maxChunk: 8 << 20, poison: false };
