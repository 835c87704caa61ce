import { createHash } from "node:crypto";
import { openEvidence } from "./guard.js";
import { LineSplitter, type RawLine } from "./lines.js";

export type InputKind = "transcript" | "subagent-transcript" | "debug-log" | "rpc-log" | "stream-json" | "tool-result";

/** One file (or stdin) that a report read; `bytes` and `sha256` are filled in as it streams. */
export interface InputFile {
  path: string;
  kind: InputKind;
  bytes: number;
  sha256: string;
  /** The chain this input's records belong to: "main" or an agent id. Transcripts only. */
  chain?: string;
}

export interface ReadOptions {
  maxLineBytes?: number;
  /** What `path` "-" reads: the CLI's io.stdin. */
  stdin?: NodeJS.ReadableStream;
}

/**
 * Streams the raw chunks of a file or of stdin ("-"), hashing the bytes on the way; `bytes` and
 * `sha256` are set on `input` when the stream ends. For readers that must not split on lines
 * (a one-line JSON array of a whole run).
 */
export async function* readChunks(input: InputFile, opts: ReadOptions = {}): AsyncGenerator<Buffer> {
  if (input.path === "-" && !opts.stdin) throw new Error("stdin (-) read without the CLI's stdin handed down");
  const stream = input.path === "-" ? opts.stdin! : openEvidence(input.path);
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    hash.update(buf);
    bytes += buf.length;
    yield buf;
  }
  input.bytes = bytes;
  input.sha256 = hash.digest("hex");
}

/**
 * Streams the lines of a file or of stdin ("-"), hashing the bytes on the way. Memory stays bounded by
 * the longest line held; over-long lines come out flagged, not buffered.
 */
export async function* readLines(input: InputFile, opts: ReadOptions = {}): AsyncGenerator<RawLine> {
  const splitter = new LineSplitter(opts.maxLineBytes);
  const out: RawLine[] = [];
  for await (const buf of readChunks(input, opts)) {
    splitter.push(buf, out);
    for (const l of out) yield l;
    out.length = 0;
  }
  splitter.end(out);
  for (const l of out) yield l;
}
