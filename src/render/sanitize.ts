/**
 * Makes evidence text safe for a terminal, a markdown page, a CSV cell or a chart: C0/C1 control
 * characters, DEL, lone surrogates, bidi controls, invisible characters (zero-width spaces and joiners,
 * word joiner, invisible operators, BOM, soft hyphen, Hangul fillers, Unicode tag characters) and the
 * line/paragraph separators are shown as escapes, so a transcript cannot move the cursor, recolour the
 * screen, reorder text, break a line where the reader sees none, or hide text (`l\u200bab` reads `lab`;
 * tag characters carry ASCII that no one sees).
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Every character UNSAFE can start a match with, as one plain class (any surrogate stands for the pairs and
 * lone halves): a string without one comes back as it is after one cheap test, and almost every cell has none.
 */
const MAYBE_UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\ud800-\udfff]/;

export function sanitize(s: string): string {
  if (!MAYBE_UNSAFE.test(s)) return s;
  return s.replace(UNSAFE, (c) => {
    const named = NAMED[c];
    if (named) return named;
    if (c.length === 2) return `\\u{${c.codePointAt(0)!.toString(16)}}`;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
