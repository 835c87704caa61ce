import { createRequire } from "node:module";

/**
 * string-width, loaded on first use: at load it makes an Intl.Segmenter (ICU's break-iterator data,
 * ~13 ms), and a table whose every cell passes the tiers below never calls it. In the bundle the
 * literal require() is esbuild's lazy init of the bundled copy; in the unbundled ES modules (tests,
 * library use) there is no require, and Node's require of the ES package stands in.
 */
let stringWidthFn: ((s: string) => number) | undefined;
function stringWidth(s: string): number {
  stringWidthFn ??= (
    (typeof require === "function" ? require("string-width") : createRequire(import.meta.url)("string-width")) as {
      default: (s: string) => number;
    }
  ).default;
  return stringWidthFn(s);
}

// Most cells are printable ASCII (numbers, times, ids): their width is their length, and the test is
// far cheaper than string-width's grapheme segmentation.
const ASCII = /^[\x20-\x7e]*$/;

/**
 * The second tier: printable ASCII and code points that string-width counts as one column each, none of
 * which joins a neighbour into one grapheme (each is its own cluster), so a string made only of them is
 * as wide as it is long and cuts anywhere. Latin-1 to Cyrillic without the soft hyphen; general
 * punctuation (dashes, quotes, `…`, `‹›`) without the separators and bidi controls; currency, letterlike
 * symbols and number forms, arrows, mathematical operators; box drawing, blocks and geometric shapes;
 * `✓✔✕✖✗✘`. Every code point is proven by test/render/text-width-tier.test.ts against string-width and
 * Intl.Segmenter, alone, in pairs and in random mixes: what a report's cells carry beyond ASCII (`…`,
 * `§`, `›`, `—`, `×`, `Δ`, `✓`) no longer goes through grapheme segmentation.
 */
export const NARROW =
  /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0377\u037a-\u037f\u0384-\u038a\u038c\u038e-\u03a1\u03a3-\u0482\u048a-\u052f\u2010-\u2027\u2030-\u205e\u20a0-\u20c0\u2100-\u218b\u2190-\u22ff\u2500-\u25fc\u2713-\u2718]*$/;

// Made on first use: the first Intl.Segmenter costs milliseconds, and most tables never need one.
let segmenter: Intl.Segmenter | undefined;
const segments = (s: string) => (segmenter ??= new Intl.Segmenter()).segment(s);

/** Terminal columns the text takes (CJK and emoji 2, combining marks 0). */
export function textWidth(s: string): number {
  return ASCII.test(s) || NARROW.test(s) ? s.length : stringWidth(s);
}

/** Grapheme clusters with their widths, so a cut never splits a character a terminal draws as one. */
function clusters(s: string): Array<[string, number]> {
  return [...segments(s)].map(({ segment }) => [segment, stringWidth(segment)]);
}

/** The longest start of `s` that fits `width` columns. */
function head(s: string, width: number): string {
  if (NARROW.test(s)) return s.slice(0, width);
  let out = "";
  let used = 0;
  for (const [c, w] of clusters(s)) {
    if (used + w > width) break;
    out += c;
    used += w;
  }
  return out;
}

/** The longest end of `s` that fits `width` columns. */
function tail(s: string, width: number): string {
  if (NARROW.test(s)) return width <= 0 ? "" : s.slice(-width);
  let out = "";
  let used = 0;
  const cs = clusters(s);
  for (let i = cs.length - 1; i >= 0; i--) {
    const [c, w] = cs[i]!;
    if (used + w > width) break;
    out = c + out;
    used += w;
  }
  return out;
}

export type Cut = "end" | "middle-id" | "middle-path";

/**
 * `s` in at most `width` columns, `…` where text was left out: at the end for prose; in the middle for
 * ids (the prefix a reader matches by stays long) and paths (the file name at the end stays long).
 */
export function shorten(s: string, width: number, how: Cut = "end"): string {
  if (textWidth(s) <= width) return s;
  if (width <= 1) return width === 1 ? "…" : "";
  const room = width - 1;
  if (how === "end") return `${head(s, room)}…`;
  const back = how === "middle-id" ? Math.floor(room / 3) : Math.ceil((room * 2) / 3);
  return `${head(s, room - back)}…${tail(s, back)}`;
}

/** Lines of at most `width` columns, broken at spaces; a word longer than a line is cut. With an indent, lines after the first start with it. */
export function wrap(s: string, width: number, indent = ""): string[] {
  if (textWidth(s) <= width) return [s];
  const inner = Math.max(1, width - textWidth(indent));
  const lines: string[] = [];
  const room = () => (lines.length === 0 ? width : inner);
  let line = "";
  for (const word of s.split(" ")) {
    const candidate = line === "" ? word : `${line} ${word}`;
    if (textWidth(candidate) <= room()) {
      line = candidate;
      continue;
    }
    if (line !== "") lines.push(line);
    let rest = word;
    while (textWidth(rest) > room()) {
      // A path breaks after a slash where it can; a character wider than the line still goes somewhere.
      let piece = head(rest, room()) || [...segments(rest)][0]!.segment;
      const slash = piece.lastIndexOf("/");
      if (slash > 0 && slash < piece.length - 1) piece = piece.slice(0, slash + 1);
      lines.push(piece);
      rest = rest.slice(piece.length);
    }
    line = rest;
  }
  if (line !== "") lines.push(line);
  return lines.map((l, i) => (i === 0 ? l : indent + l));
}
