import { isAscii } from "node:buffer";
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
  if (format === "json") return writeChunks(sink, jsonDocumentBytes(out));
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
      return htmlChunks(out.document, await chartFigures(out.document), out);
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

/**
 * The JSON document in pieces of about SAFE_BATCH characters. jsonSafe escapes single UTF-16 units (a tag
 * character's pair is matched on its lead, and a pair is never split by JSON.stringify's own chunks), so
 * escaping gathered chunks equals escaping the whole.
 */
function* jsonPieces(out: CommandOutput): Generator<string> {
  let buf = "";
  for (const c of jsonChunks(envelope(out))) {
    buf += c;
    if (buf.length >= SAFE_BATCH) {
      yield buf;
      buf = "";
    }
  }
  yield `${buf}\n`;
}

function* jsonDocument(out: CommandOutput): Generator<string> {
  for (const piece of jsonPieces(out)) yield jsonSafe(piece);
}

/**
 * jsonDocument as the UTF-8 bytes stdout would write anyway, encoded here so that the unsafe-character
 * test can run on them (see `surelySafe`); a piece that may hold one takes jsonSafe's regular expression.
 * Each piece gets its own buffer: a stream may keep a chunk it could not write yet.
 */
export function* jsonDocumentBytes(out: CommandOutput): Generator<string | Uint8Array> {
  for (const piece of jsonPieces(out)) {
    const bytes = Buffer.from(piece, "utf8");
    if (surelySafe(bytes) || !MAYBE_UNSAFE.test(piece)) yield bytes;
    else yield jsonSafe(piece);
  }
}

/**
 * The lead bytes of the UTF-8 of every character UNSAFE_IN_JSON matches, but for U+2000–U+207F (E2): DEL;
 * U+0080–U+00BF (C2: C1 controls, soft hyphen); U+034F (CD); U+061C (D8); U+115F, U+1160, U+17B4, U+17B5,
 * U+180B–U+180F (E1); U+3164 (E3); U+FEFF, U+FFA0, U+FFF9–U+FFFB (EF); the tag characters U+E0000–U+E007F (F3).
 */
const UNSAFE_LEADS = [0x7f, 0xc2, 0xcd, 0xd8, 0xe1, 0xe3, 0xef, 0xf3];

/**
 * true only when the bytes hold no character jsonSafe escapes, by byte searches (SIMD and memchr) instead of
 * a regular expression over the text: all ASCII without DEL, or no unsafe lead byte and, after each E2 (the
 * ellipsis, dashes and quotes are common), none of U+200B–U+200F (E2 80 8B–8F), U+2028–U+202E (E2 80 A8–AE),
 * U+2060–U+206F (E2 81 A0–AF). false means "maybe": the exact test decides.
 */
export function surelySafe(bytes: Buffer): boolean {
  if (isAscii(bytes)) return bytes.indexOf(0x7f) === -1;
  for (const lead of UNSAFE_LEADS) if (bytes.indexOf(lead) !== -1) return false;
  for (let i = bytes.indexOf(0xe2); i !== -1; i = bytes.indexOf(0xe2, i + 1)) {
    const b1 = bytes[i + 1];
    const b2 = bytes[i + 2] ?? 0;
    if (b1 === 0x80 ? (b2 >= 0x8b && b2 <= 0x8f) || (b2 >= 0xa8 && b2 <= 0xae) : b1 === 0x81 && b2 >= 0xa0 && b2 <= 0xaf) return false;
  }
  return true;
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
