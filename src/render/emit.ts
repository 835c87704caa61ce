import type { CommandOutput } from "../report/envelope.js";
import { envelope } from "../report/envelope.js";
import { renderCsv } from "./csv.js";
import { renderMarkdown } from "./markdown.js";
import type { Palette } from "./palette.js";
import { renderTerminal } from "./table.js";

export type Format = "table" | "markdown" | "json" | "csv";

/** The document for stdout in the chosen format. */
export function render(out: CommandOutput, format: Format, palette: Palette): string {
  switch (format) {
    case "json":
      return `${jsonSafe(JSON.stringify(envelope(out), null, 2))}\n`;
    case "markdown":
      return renderMarkdown(out.report);
    case "csv":
      return renderCsv(out.report);
    default:
      return renderTerminal(out.report, palette);
  }
}

/**
 * JSON.stringify escapes C0 controls and lone surrogates but leaves DEL, C1 controls (0x9b is CSI to
 * some terminals), bidi controls, invisible characters (zero-width, BOM, tag characters…) and the
 * line/paragraph separators raw. `\uXXXX` keeps the same JSON value and a safe terminal; the set is the
 * one `sanitize` escapes for the human formats (a test keeps the two equal).
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_JSON = /[\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
const u4 = (code: number) => `\\u${code.toString(16).padStart(4, "0")}`;
export function jsonSafe(text: string): string {
  return text.replace(UNSAFE_IN_JSON, (c) => c.split("").map((u) => u4(u.charCodeAt(0))).join(""));
}
