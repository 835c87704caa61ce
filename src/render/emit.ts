import type { CommandOutput } from "../report/envelope.js";
import { envelope } from "../report/envelope.js";
import { jsonChunks } from "./json-stream.js";
import type { Palette } from "./palette.js";
import { writeChunks, type Sink } from "./sink.js";
import type { TerminalLayout } from "./table.js";

import type { Format } from "./formats.js";

export type { Format };

/** Every format, for the --format choices. */
export { FORMATS } from "./formats.js";

/** The document for stdout in the chosen format, as one string (tests, small outputs). */
export async function render(out: CommandOutput, format: Format, palette: Palette, layout: TerminalLayout = {}): Promise<string> {
  return [...(await documentChunks(out, format, palette, layout))].join("");
}

/** Writes the document to a sink piece by piece, waiting on backpressure: any size fits. */
export async function writeDocument(
  sink: Sink,
  out: CommandOutput,
  format: Format,
  palette: Palette,
  layout: TerminalLayout = {},
): Promise<void> {
  return writeChunks(sink, await documentChunks(out, format, palette, layout));
}

/**
 * The document in pieces (joined, they are the document), its charts drawn first. Each format's
 * renderer loads only when it is asked for: JSON, the scripted format, needs none of the terminal,
 * markdown, CSV or HTML code (string-width, chalk, csv-stringify), which was a third of its start-up.
 */
export async function documentChunks(
  out: CommandOutput,
  format: Format,
  palette: Palette,
  layout: TerminalLayout = {},
): Promise<Generator<string>> {
  switch (format) {
    case "json":
      return jsonDocument(out);
    case "markdown":
      return (await import("./markdown.js")).markdownChunks(out.document, 2, out);
    case "csv":
      return (await import("./csv.js")).csvLines(out.document);
    case "html": {
      // Charts are drawn (asynchronously, by vega) only for the one format that shows them.
      const { chartFigures, htmlChunks } = await import("./html.js");
      return htmlChunks(out.document, await chartFigures(out.document));
    }
    case "table":
      return (await import("./table.js")).terminalChunks(out.document, palette, layout);
    default:
      // A new format must say here how it renders.
      return format satisfies never;
  }
}

/** Chunks are gathered to about this many characters before the unsafe-character test: one test per piece. */
const SAFE_BATCH = 1 << 16;

function* jsonDocument(out: CommandOutput): Generator<string> {
  // jsonSafe escapes single UTF-16 units (a tag character's pair is matched on its lead, and a pair is
  // never split by JSON.stringify's own chunks), so escaping gathered chunks equals escaping the whole.
  let buf = "";
  for (const c of jsonChunks(envelope(out))) {
    buf += c;
    if (buf.length >= SAFE_BATCH) {
      yield jsonSafe(buf);
      buf = "";
    }
  }
  yield jsonSafe(`${buf}\n`);
}

/**
 * JSON.stringify escapes C0 controls and lone surrogates but leaves DEL, C1 controls (0x9b is CSI to
 * some terminals), bidi controls, invisible characters (zero-width, BOM, tag characters…) and the
 * line/paragraph separators raw. `\uXXXX` keeps the same JSON value and a safe terminal; the set is the
 * one `sanitize` escapes for the human formats (a test keeps the two equal).
 */
const UNSAFE_IN_JSON =
  /[\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
/**
 * The same set as one character class, a tag character's lead surrogate standing for the pair: a plain
 * class test runs in about half the time of the alternation, and almost no document needs escaping.
 */
const MAYBE_UNSAFE =
  /[\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\udb40]/;
const u4 = (code: number) => `\\u${code.toString(16).padStart(4, "0")}`;
export function jsonSafe(text: string): string {
  if (!MAYBE_UNSAFE.test(text)) return text;
  return text.replace(UNSAFE_IN_JSON, (c) =>
    c
      .split("")
      .map((u) => u4(u.charCodeAt(0)))
      .join(""),
  );
}
