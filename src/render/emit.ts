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
      return `${JSON.stringify(envelope(out), null, 2)}\n`;
    case "markdown":
      return renderMarkdown(out.report);
    case "csv":
      return renderCsv(out.report);
    default:
      return renderTerminal(out.report, palette);
  }
}
