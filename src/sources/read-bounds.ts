import { AsyncLocalStorage } from "node:async_hooks";

/** How many paths a note names word for word; the rest are counted. */
const NAMED = 10;

/**
 * What `export --redact`'s two passes read (commands/export.ts): the first records how far it read each
 * file, the second reads each file exactly that far and no further, so it sees the bytes the first pass
 * collected its texts from even when Claude Code appends to a live transcript between the passes. A file
 * the first pass never opened is read as empty by the second. What the second pass left unread is said
 * (`notes`), never read. One entry per file read: memory follows the inputs list, not the files' sizes.
 */
export class ReadBounds {
  private readonly read = new Map<string, number>();
  private capping = false;
  private readonly grew: string[] = [];
  private readonly appeared: string[] = [];
  private grewCount = 0;
  private appearedCount = 0;

  /** From now on reads stop where the first pass's did. */
  cap(): void {
    this.capping = true;
  }

  /** How many bytes of `path` a read may take: undefined (all of it) while recording. */
  limit(path: string): number | undefined {
    if (!this.capping) return undefined;
    const n = this.read.get(path);
    if (n !== undefined) return Math.max(n, 0);
    if (this.appearedCount++ < NAMED) this.appeared.push(path);
    // Recorded now (-1: appeared), so a second read of it in this pass is not counted again, nor as grown.
    this.read.set(path, -1);
    return 0;
  }

  /** A read of `path` took `bytes` (the first pass; the furthest of several reads counts). */
  took(path: string, bytes: number): void {
    if (this.capping) return;
    if (bytes > (this.read.get(path) ?? -1)) this.read.set(path, bytes);
  }

  /** The second pass found bytes past `path`'s limit, and left them unread. */
  grown(path: string): void {
    if (this.read.get(path) === -1) return;
    if (this.grewCount++ < NAMED) this.grew.push(path);
  }

  /** What the second pass left out, as warnings (none when the files held still). */
  notes(): string[] {
    const more = (n: number, named: number) => (n > named ? ` and ${(n - named).toLocaleString("en-US")} more` : "");
    const out: string[] = [];
    if (this.grewCount > 0)
      out.push(
        `${this.grewCount} file(s) grew between the two passes of --redact (a live session still being written?); only the bytes the first pass read were exported: ${this.grew.join(", ")}${more(this.grewCount, this.grew.length)}`,
      );
    if (this.appearedCount > 0)
      out.push(
        `${this.appearedCount} file(s) appeared between the two passes of --redact and were read as empty: ${this.appeared.join(", ")}${more(this.appearedCount, this.appeared.length)}`,
      );
    return out;
  }
}

const store = new AsyncLocalStorage<ReadBounds>();

/** Runs `f` with every file read under it (sources/input.ts) going through `bounds`. */
export function withReadBounds<T>(bounds: ReadBounds, f: () => Promise<T>): Promise<T> {
  return store.run(bounds, f);
}

/** The bounds of the pass this read belongs to, if any. */
export function readBounds(): ReadBounds | undefined {
  return store.getStore();
}
