import type { CommandOutput } from "../report/envelope.js";
import { envelope } from "../report/envelope.js";
import { renderCsv } from "./csv.js";
import { renderHtml } from "./html.js";
import { renderMarkdown } from "./markdown.js";
import type { Palette } from "./palette.js";
import { renderTerminal } from "./table.js";

export type Format = "table" | "markdown" | "json" | "csv" | "html";

/** Every format, for the --format choices. */
export const FORMATS = ["table", "markdown", "json", "csv", "html"] as const satisfies readonly Format[];

/** The document for stdout in the chosen format. */
export async function render(out: CommandOutput, format: Format, palette: Palette): Promise<string> {
  switch (format) {
    case "json":
      return `${jsonSafe(JSON.stringify(envelope(out), null, 2))}\n`;
    case "markdown":
      return renderMarkdown(out.report);
    case "csv":
      return renderCsv(out.report);
    case "html":
      return renderHtml(out.report);
    case "table":
      return renderTerminal(out.report, palette);
    default:
      return unknownFormat(format);
  }
}

function unknownFormat(f: never): never {
  throw new Error(`unknown format ${String(f)}`);
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
