import { closeSync, readSync } from "node:fs";
import { isSystemError, RuntimeError, UnreadableError } from "../errors.js";
import { openEvidenceSized } from "./guard.js";
import { fileHasher, inlineHasher, WORKER_HASH_MIN, type Hasher } from "./hasher.js";
import { lineChunks } from "./line-chunks.js";
import { LineSplitter, linePieces, type RawLine } from "./lines.js";
import { boundHeapGrowth } from "./memory.js";
import { readBounds } from "./read-bounds.js";

export type InputKind = "transcript" | "subagent-transcript" | "debug-log" | "rpc-log" | "stream-json" | "tool-result";

/** One file (or stdin) that a report read; `bytes` and `sha256` are filled in as it streams. */
export interface InputFile {
  path: string;
  kind: InputKind;
  bytes: number;
  sha256: string;
  /** The chain this input's records belong to: "main" or an agent id. Transcripts only. */
  chain?: string;
  /** The session a transcript belongs to, from its file name or its parent's (records/chains.ts); not in the envelope. */
  sessionId?: string;
  /** A subagent file's parent Task/Agent tool_use id, from its `.meta.json` (sources/subagent-meta.ts); not in the envelope. */
  parentToolUseId?: string;
  /**
   * A `--tools` tools/list response: CONTRACT lists it as an `rpc-log`, the Evidence list of markdown and HTML
   * names it for what it is. Not in the envelope.
   */
  toolsList?: true;
}

/** A file read ahead of its turn (sources/prefetch.ts): its bytes, to its end, and their sha256. */
export interface ReadAhead {
  bytes: Buffer;
  sha256: string;
}

export interface ReadOptions {
  maxLineBytes?: number;
  /** What `path` "-" reads: the CLI's io.stdin. */
  stdin?: NodeJS.ReadableStream;
}

/** A file's chunks for a reader that takes them synchronously; see `readFileChunks`. */
export interface FileChunks {
  /**
   * Call once and iterate, to the end or not: stopping early stops the hash and closes the file.
   * `reused`: chunks that end at line ends in one buffer read into again (sources/line-chunks.ts), for
   * a reader done with each chunk's lines before it asks for the next; otherwise fresh buffers.
   */
  chunks(reused: boolean): Generator<Buffer>;
  /** Once `chunks` ran out: sets `bytes` and `sha256` on the input. */
  finish(): Promise<void>;
  /** Lets go of the file and the hash if `chunks` was never called (a reader that failed first). */
  abandon(): void;
}

/**
 * Opens a file (never stdin) and reads it in chunks synchronously, counting and hashing its bytes on the
 * way: per chunk no promise, no thread pool round trip. A file of WORKER_HASH_MIN bytes or more is
 * hashed by a worker reading the same descriptor, so the file stays open until both are done with it.
 * `chunks` must be called and iterated (its `finally` closes the file).
 */
export function readFileChunks(input: InputFile, read?: ReadAhead): FileChunks {
  // Under `export --redact`'s bounds (sources/read-bounds.ts) the file is read here, so the bytes read are known and capped.
  const bounds = readBounds();
  if (read !== undefined && bounds === undefined) return readChunksOf(input, read);
  // The size the guard's fstat saw serves every later use: a second and third fstat per file were a
  // tenth of the syscalls when listing 20,000 small sessions. Reads still go on past it, unless bounded.
  const { fd, size } = openEvidenceSized(input.path);
  const limit = bounds?.limit(input.path);
  let users = 2;
  const drop = () => {
    if (--users === 0) closeSync(fd);
  };
  let hash: Hasher;
  try {
    const big = size >= WORKER_HASH_MIN;
    if (big) boundHeapGrowth();
    hash = big ? fileHasher(fd, drop) : (drop(), inlineHasher());
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  let bytes = 0;
  let complete = false;
  let started = false;
  function* chunks(reused: boolean): Generator<Buffer> {
    started = true;
    try {
      for (const c of reused ? lineChunks(fd, size, limit) : fileChunks(fd, size, limit)) {
        hash.update(c);
        bytes += c.length;
        yield c;
      }
      // Bytes past the limit are left unread, and said: one byte's probe, where the read stopped.
      if (limit !== undefined && bytes === limit && readSync(fd, probe, 0, 1, limit) > 0) bounds!.grown(input.path);
      complete = true;
    } catch (e) {
      // A read that fails (EIO: a bad disk, /proc/self/mem) says which file, in one line, exit 1.
      throw isSystemError(e) ? new UnreadableError(input.path, e.message) : e;
    } finally {
      bounds?.took(input.path, bytes);
      if (!complete) hash.close();
      drop();
    }
  }
  return {
    chunks,
    async finish() {
      if (!complete) throw new Error(`internal: ${input.path} was not read to its end before its hash was asked for`);
      input.bytes = bytes;
      try {
        input.sha256 = await hash.digest();
      } catch (e) {
        throw new RuntimeError(`cannot hash ${input.path}: ${(e as Error).message}`);
      }
    },
    abandon() {
      if (started) return;
      started = true;
      bounds?.took(input.path, 0);
      hash.close();
      drop();
    },
  };
}

/**
 * `readFileChunks` of a file whose bytes were read and hashed already (sources/prefetch.ts reads small
 * files ahead on a worker): the same chunks a read of it would give (one, for a file that small).
 */
function readChunksOf(input: InputFile, read: ReadAhead): FileChunks {
  let complete = false;
  return {
    *chunks() {
      if (read.bytes.length > 0) yield read.bytes;
      complete = true;
    },
    async finish() {
      if (!complete) throw new Error(`internal: ${input.path} was not read to its end before its hash was asked for`);
      input.bytes = read.bytes.length;
      input.sha256 = read.sha256;
    },
    abandon() {},
  };
}

/**
 * Streams the raw chunks of a file or of stdin ("-"), hashing the bytes on the way; `bytes` and
 * `sha256` are set on `input` when the stream ends. For readers that must not split on lines
 * (a one-line JSON array of a whole run).
 */
export async function* readChunks(input: InputFile, opts: ReadOptions = {}): AsyncGenerator<Buffer> {
  if (input.path !== "-") {
    const file = readFileChunks(input);
    yield* file.chunks(false);
    await file.finish();
    return;
  }
  if (!opts.stdin) throw new Error("stdin (-) read without the CLI's stdin handed down");
  const hash = inlineHasher();
  let bytes = 0;
  for await (const chunk of opts.stdin) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    hash.update(buf);
    bytes += buf.length;
    yield buf;
  }
  input.bytes = bytes;
  input.sha256 = await hash.digest();
}

const CHUNK = 1 << 20;
const scratch = Buffer.alloc(1 << 16);
const probe = Buffer.alloc(1);

/**
 * A file's bytes in fresh buffers of up to 1 MiB, read synchronously: an async stream costs four thread
 * pool round trips per file, which is most of the time for 100,000 small subagent files. Buffers are
 * sized to what is left of the file and never reused; a transcript still being written is read on.
 * The caller closes `fd`; `sizeAtOpen` is its size when opened. `limit`: no byte past it is read.
 */
function* fileChunks(fd: number, sizeAtOpen: number, limit = Infinity): Generator<Buffer> {
  let left = Math.min(sizeAtOpen, limit);
  let total = 0;
  for (;;) {
    if (left === 0) {
      // Past the size seen at open: probe into scratch space and copy only if the file grew.
      const n = total < limit ? readSync(fd, scratch, 0, Math.min(scratch.length, limit - total), null) : 0;
      if (n === 0) return;
      total += n;
      yield Buffer.from(scratch.subarray(0, n));
      continue;
    }
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, left));
    const n = readSync(fd, buf, 0, buf.length, null);
    if (n === 0) return;
    total += n;
    left = n < buf.length ? 0 : left - n;
    yield n === buf.length ? buf : buf.subarray(0, n);
  }
}

/**
 * Streams the lines of a file or of stdin ("-"), hashing the bytes on the way. Memory stays bounded by
 * the longest line held; over-long lines come out flagged, not buffered.
 */
export async function* readLines(input: InputFile, opts: ReadOptions = {}): AsyncGenerator<RawLine> {
  const splitter = new LineSplitter(opts.maxLineBytes);
  const out: RawLine[] = [];
  for await (const buf of readChunks(input, opts)) {
    for (const piece of linePieces(buf)) {
      splitter.push(piece, out);
      for (const l of out) yield l;
      out.length = 0;
    }
  }
  splitter.end(out);
  for (const l of out) yield l;
}
