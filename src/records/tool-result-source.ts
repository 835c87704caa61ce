import { utf16Length } from "../sources/saved-files.js";
import type { Pos } from "./pos.js";
import { decodeLines, type Source } from "./source.js";

/** One physical line of a saved tool output: its size, never its text (outputs can be 64 MB). */
export interface SavedLine {
  kind: "saved-line";
  pos: Pos;
  /** Length in JS characters (UTF-16 units), counted from the bytes; bytes for an over-long line. */
  chars: number;
  unterminated: boolean;
  /** The first 64 bytes, trimmed, for recognising the layout; null for an empty line. */
  head: string | null;
}

/**
 * A saved tool result in `tool-results/` (FORMATS.md 6.4): any bytes are valid content, so every line,
 * empty ones too, is a record and none is malformed.
 */
export const toolResultSource: Source<SavedLine> = {
  kind: "tool-result",
  recognise: () => true,
  records: (chunks, input) =>
    decodeLines<SavedLine>(chunks, {
      line(raw, out) {
        out.push({
          kind: "saved-line",
          pos: { file: input.file, line: raw.line },
          chars: raw.tooLong ? raw.bytes : utf16Length(raw.buf),
          unterminated: raw.unterminated,
          head: raw.buf.length > 0 ? raw.buf.subarray(0, 64).toString("utf8").trim() : null,
        });
      },
      end() {},
    }),
  facts: () => undefined,
};
