import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RuntimeError } from "../errors.js";
import { evidenceTreeHolding } from "./discover.js";

/** report/streamed.ts's mark, by its registered name: the JSON writer streams what carries it. */
const JSON_ARRAY: unique symbol = Symbol.for("ccforensics.jsonArray");

/** Rows kept in memory before the spool starts writing to its temp file. 20,000 cost ≈50 MB of peak RSS at 100,000 requests (12 MB live, the rest GC headroom); 5,000 cost nothing measurable, and spilling is cheap. */
export const SPOOL_MEMORY_ROWS = 5_000;
/** `CCFORENSICS_SPOOL_ROWS`: rows kept in memory before the rest spill (tests make it small); undefined for the default. */
export function spoolRowsFrom(env: NodeJS.ProcessEnv): number | undefined {
  const v = env.CCFORENSICS_SPOOL_ROWS;
  const n = Number(v);
  return v !== undefined && v.trim() !== "" && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

const WRITE_BUFFER = 1 << 20;
const READ_CHUNK = 1 << 20;

/** A run of rows of one group pushed one after another: in memory from `at`, or in the file from byte `at` on, `bytes` long. */
interface Segment {
  inFile: boolean;
  at: number;
  count: number;
  bytes: number;
}

/**
 * Rows that are final, in push order per group (a group is a request chain). The first `memoryRows` stay
 * in memory, the rest go to a temp file as NDJSON and are read back when iterated, so a run of any size
 * holds a bounded number of rows. Rows must survive JSON.stringify/parse unchanged (plain data).
 *
 * The temp file lives under `os.tmpdir()` and is unlinked as soon as it is open (POSIX keeps the data
 * until the descriptor closes, whatever ends the process); where unlinking an open file fails (Windows)
 * it is removed on exit. Only the descriptor remains, closed by `close()` or when the spool is collected.
 */
export class RowSpool<T> {
  private readonly memory: T[] = [];
  private readonly groups: Segment[][] = [];
  private last: { group: number; seg: Segment } | undefined;
  private file: TempFile | undefined;
  private pending = "";
  /** Bytes in the file plus bytes pending: where the next row starts. */
  private end = 0;
  /** The weights of the rows in memory (`push`'s `weight`). */
  private weight = 0;

  /**
   * `dir`: where the temp file goes (tests); `os.tmpdir()` otherwise, never a Claude config dir. `memoryWeight`: past
   * this sum of the rows' weights (their text's length, say) the rest spill too, so rows of a megabyte each do not
   * hold `memoryRows` megabytes.
   */
  constructor(
    private readonly memoryRows = SPOOL_MEMORY_ROWS,
    private readonly dir?: string,
    private readonly memoryWeight = Infinity,
  ) {}

  push(group: number, row: T, weight = 0): void {
    const toFile = this.memory.length >= this.memoryRows || this.weight >= this.memoryWeight;
    if (this.last?.group !== group || this.last.seg.inFile !== toFile) {
      const seg: Segment = { inFile: toFile, at: toFile ? this.end : this.memory.length, count: 0, bytes: 0 };
      (this.groups[group] ??= []).push(seg);
      this.last = { group, seg };
    }
    this.last.seg.count += 1;
    if (!toFile) {
      this.memory.push(row);
      this.weight += weight;
      return;
    }
    // Opened at the first row that spills, so a temp folder that cannot be used fails the pass, not the printing.
    this.file ??= new TempFile(this.dir ?? tmpdir());
    const line = `${JSON.stringify(row)}\n`;
    const bytes = Buffer.byteLength(line);
    this.last.seg.bytes += bytes;
    this.end += bytes;
    this.pending += line;
    if (this.pending.length >= WRITE_BUFFER) this.flush();
  }

  /** Whether any row went to the temp file (tests). */
  get spilled(): boolean {
    return this.file !== undefined;
  }

  /** The rows of one group, in push order. */
  *rowsOf(group: number): Generator<T> {
    this.flush();
    for (const seg of this.groups[group] ?? []) {
      if (seg.inFile) yield* this.readRows(seg);
      else for (let i = seg.at; i < seg.at + seg.count; i++) yield this.memory[i]!;
    }
  }

  close(): void {
    this.file?.close();
  }

  private flush(): void {
    if (this.pending === "") return;
    const buf = Buffer.from(this.pending);
    this.file!.write(buf, this.end - buf.length);
    this.pending = "";
  }

  private *readRows(seg: Segment): Generator<T> {
    const file = this.file!;
    let pos = seg.at;
    const stop = seg.at + seg.bytes;
    let left = seg.count;
    let carry: Buffer | undefined;
    while (left > 0) {
      // Sized to the segment: 100,000 chains of two rows each must not read a MiB apiece.
      const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(READ_CHUNK, stop - pos)));
      const n = file.read(chunk, pos);
      if (n === 0) throw new Error(`spool file ended with ${left} row(s) unread`);
      pos += n;
      let data = chunk.subarray(0, n);
      if (carry) data = Buffer.concat([carry, data]);
      let start = 0;
      for (let nl = data.indexOf(0x0a); nl >= 0 && left > 0; nl = data.indexOf(0x0a, start)) {
        yield JSON.parse(data.toString("utf8", start, nl)) as T;
        left -= 1;
        start = nl + 1;
      }
      carry = start < data.length ? Buffer.from(data.subarray(start)) : undefined;
    }
  }
}

const registry = new FinalizationRegistry<{ fd: number }>((h) => closeQuietly(h));

function closeQuietly(h: { fd: number }): void {
  if (h.fd < 0) return;
  try {
    closeSync(h.fd);
  } catch {
    // Already closed by the exit handler: nothing left to free.
  }
  h.fd = -1;
}

/** A read-write temp file whose name is gone from the directory as early as the platform allows. */
class TempFile {
  private readonly h: { fd: number };

  constructor(parent: string) {
    // Evidence is read-only: rows derived from it must not be written into a Claude config dir either.
    const tree = evidenceTreeHolding(parent);
    if (tree) throw new RuntimeError(`temp folder ${parent} lies inside the Claude config dir ${tree}: set TMPDIR to another folder`);
    const dir = mkdtempSync(join(parent, "ccforensics-spool-"));
    const path = join(dir, "rows.ndjson");
    this.h = { fd: openSync(path, "w+", 0o600) };
    try {
      unlinkSync(path);
      rmdirSync(dir);
    } catch {
      const h = this.h;
      process.once("exit", () => {
        closeQuietly(h);
        try {
          unlinkSync(path);
          rmdirSync(dir);
        } catch {
          // Nothing more can be done while the process exits.
        }
      });
    }
    registry.register(this, this.h, this);
  }

  write(buf: Buffer, pos: number): void {
    for (let off = 0; off < buf.length;) off += writeSync(this.h.fd, buf, off, buf.length - off, pos + off);
  }

  read(buf: Buffer, pos: number): number {
    return readSync(this.h.fd, buf, 0, buf.length, pos);
  }

  close(): void {
    registry.unregister(this);
    closeQuietly(this.h);
  }
}

/**
 * The rows of a finished spool, groups in order, as an iterable the JSON writer streams
 * (render/json-stream.ts, report/streamed.ts). Joins that need an array call `toArray()`, which holds every row: fine for
 * the inputs those joins see, never used by `requests --json`.
 */
/** What a finished analysis hands on: rows in order, streamed by the JSON writer, `toArray()` for joins. */
export interface RowList<T> extends Iterable<T> {
  readonly [JSON_ARRAY]: true;
  readonly length: number;
  toArray(): T[];
  toJSON(): T[];
}

/** `rows` with `fn` applied to each as it is read: a join that changes a few rows keeps the list streamed. */
export function mapRows<T>(rows: RowList<T>, fn: (row: T) => T): RowList<T> {
  let array: T[] | undefined;
  const list: RowList<T> = {
    [JSON_ARRAY]: true,
    length: rows.length,
    *[Symbol.iterator]() {
      if (array) return yield* array;
      for (const r of rows) yield fn(r);
    },
    toArray: () => (array ??= Array.from(list)),
    toJSON: () => list.toArray(),
  };
  return list;
}

export class SpooledRows<T> implements RowList<T> {
  readonly [JSON_ARRAY] = true as const;
  private array: T[] | undefined;

  constructor(
    private readonly spool: RowSpool<T>,
    private readonly groups: number,
    readonly length: number,
  ) {}

  *[Symbol.iterator](): Generator<T> {
    if (this.array) return yield* this.array;
    for (let g = 0; g < this.groups; g++) yield* this.spool.rowsOf(g);
  }

  toArray(): T[] {
    return (this.array ??= Array.from(this));
  }

  /** Plain JSON.stringify (tests, small documents) sees an array. */
  toJSON(): T[] {
    return this.toArray();
  }

  close(): void {
    this.spool.close();
  }
}
