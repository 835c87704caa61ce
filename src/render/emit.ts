import type { CommandOutput } from "../report/envelope.js";
import { envelope } from "../report/envelope.js";
import { csvLines } from "./csv.js";
import { jsonChunks } from "./json-stream.js";
import { markdownChunks } from "./markdown.js";
import type { Palette } from "./palette.js";
import { writeChunks, type Sink } from "./sink.js";
import { terminalChunks } from "./table.js";

export type Format = "table" | "markdown" | "json" | "csv";

/** The document for stdout in the chosen format, as one string (tests, small outputs). */
export function render(out: CommandOutput, format: Format, palette: Palette): string {
  return [...renderChunks(out, format, palette)].join("");
}

/** Writes the document to a sink piece by piece, waiting on backpressure: any size fits. */
export function writeDocument(sink: Sink, out: CommandOutput, format: Format, palette: Palette): Promise<void> {
  return writeChunks(sink, renderChunks(out, format, palette));
}

/** The document in pieces; joined, they are the document. */
export function* renderChunks(out: CommandOutput, format: Format, palette: Palette): Generator<string> {
  switch (format) {
    case "json":
      // jsonSafe escapes single UTF-16 units, so escaping chunk by chunk equals escaping the whole.
      for (const c of jsonChunks(envelope(out))) yield jsonSafe(c);
      yield "\n";
      return;
    case "markdown":
      yield* markdownChunks(out.report);
      return;
    case "csv":
      yield* csvLines(out.report);
      return;
    default:
      yield* terminalChunks(out.report, palette);
  }
}

/**
 * JSON.stringify escapes C0 controls but leaves DEL, C1 controls (0x9b is CSI to some terminals), bidi
 * overrides and line/paragraph separators raw. Escaping them keeps the same JSON value and a safe terminal.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
export function jsonSafe(text: string): string {
  return text.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
