import { escapeHtml } from "./html-escape.js";
import { sanitize } from "./sanitize.js";
import { isLineEnd, isSpace } from "../report/char-classes.js";

/**
 * Rebuilds an SVG string (vega's renderer output) so that it can sit inside an HTML page without any
 * evidence text becoming markup: only drawing elements and presentation attributes survive, every text
 * node and attribute value is decoded and escaped again, and anything that could load or run
 * something (script, foreignObject, image, href, on* handlers, url() to anything but a local id) is
 * dropped with its subtree. `idPrefix` keeps clip-path ids of two charts on one page apart.
 * Throws when the input is not the plain tag/text stream vega writes; the caller then leaves the chart out.
 */
export function safeSvg(svg: string, idPrefix: string): string {
  const out: string[] = [];
  const open: Array<{ name: string; kept: boolean }> = [];
  let skipping = 0;
  const TOKEN = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[A-Za-z_:][\w:.-]*\s*=\s*"[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < svg.length) {
    TOKEN.lastIndex = at;
    m = TOKEN.exec(svg);
    if (!m) throw new Error(`unexpected SVG markup at offset ${at}`);
    at = TOKEN.lastIndex;
    const [, closing, rawName, attrs, selfClosing, text] = m;
    if (text !== undefined) {
      if (skipping === 0 && open.length > 0) out.push(escapeHtml(sanitize(decodeEntities(text))));
      continue;
    }
    const name = rawName!;
    if (closing) {
      const top = open.pop();
      if (!top || top.name !== name) throw new Error(`unbalanced </${name}> in SVG`);
      if (!top.kept) skipping--;
      else if (skipping === 0) out.push(`</${name}>`);
      continue;
    }
    const kept = skipping === 0 && ELEMENTS.has(name);
    if (kept) out.push(`<${name}${safeAttrs(attrs ?? "", idPrefix)}${selfClosing ? "/" : ""}>`);
    if (selfClosing) continue;
    open.push({ name, kept });
    if (!kept) skipping++;
  }
  if (open.length) throw new Error(`unclosed <${open[open.length - 1]!.name}> in SVG`);
  return out.join("");
}

const ELEMENTS = new Set([
  "svg",
  "g",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "title",
  "desc",
  "defs",
  "clipPath",
  "linearGradient",
  "radialGradient",
  "stop",
]);

/** Presentation and accessibility attributes vega writes; anything else (href, on*, style with url()) is dropped. */
const ATTRS = new Set([
  "xmlns",
  "version",
  "class",
  "width",
  "height",
  "viewBox",
  "x",
  "y",
  "x1",
  "y1",
  "x2",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "d",
  "points",
  "transform",
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-dasharray",
  "stroke-dashoffset",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-miterlimit",
  "opacity",
  "display",
  "visibility",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "font-variant",
  "text-anchor",
  "dominant-baseline",
  "dx",
  "dy",
  "letter-spacing",
  "pointer-events",
  "clip-path",
  "id",
  "offset",
  "stop-color",
  "stop-opacity",
  "gradientUnits",
  "gradientTransform",
  "fx",
  "fy",
  "role",
  "aria-label",
  "aria-hidden",
  "aria-roledescription",
  "aria-description",
  "preserveAspectRatio",
  "shape-rendering",
  "paint-order",
  "mix-blend-mode",
  "blend-mode",
  "style",
]);

const ATTR = /([A-Za-z_:][\w:.-]*)\s*=\s*"([^"<]*)"/g;

function safeAttrs(attrs: string, idPrefix: string): string {
  let out = "";
  for (const [, name, raw] of attrs.matchAll(ATTR)) {
    if (!ATTRS.has(name!)) continue;
    let v = sanitize(decodeEntities(raw!));
    // Only references to this chart's own ids (clip paths, gradients); never a URL that could be fetched.
    const refs = urlRefs(v);
    if (refs.some((r) => !/^#[\w-]+$/.test(r))) continue;
    if (name === "style" && /[\\@]|expression|image|import/i.test(v)) continue;
    if (refs.length) v = v.replace(/url\(\s*(['"]?)#([\w-]+)\1\s*\)/g, (_m, _q, id: string) => `url(#${idPrefix}${id})`);
    if (name === "id") v = `${idPrefix}${v}`;
    out += ` ${name}="${escapeHtml(v)}"`;
  }
  return out;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/**
 * What each `url(…)` of a value refers to: group 2 of every match of `/url\(\s*(['"]?)(.*?)\1\s*\)/gi`, in
 * linear time. That regex read the rest of the line again after every `url(` (an aria-label holds evidence
 * text), so the searches it repeated are kept here: each only moves forward.
 */
export function urlRefs(v: string): string[] {
  const n = v.length;
  /** The first index at or after `from` that `ok` accepts (n when none); queries only step back by one, so one walk. */
  const finder = (ok: (p: number) => boolean) => {
    let at = -1;
    let found = -1;
    return (from: number) => {
      if (found >= from && at <= from) return found;
      if (from === at - 1 && found >= at) {
        at = from;
        if (ok(from)) found = from;
        return found;
      }
      let p = Math.max(from, 0);
      while (p < n && !ok(p)) p++;
      at = from;
      found = p;
      return p;
    };
  };
  /** Where white space from `p` on ends. */
  const spaceEnd = (p: number) => {
    while (p < n && isSpace(v.charCodeAt(p))) p++;
    return p;
  };
  const nextLineEnd = finder((p) => isLineEnd(v.charCodeAt(p)));
  const nextClose = finder((p) => v.charCodeAt(p) === 0x29);
  const closesAfter = (q: number) => finder((p) => v.charCodeAt(p) === q && v.charCodeAt(spaceEnd(p + 1)) === 0x29);
  const quoted: Record<number, (from: number) => number> = { 0x22: closesAfter(0x22), 0x27: closesAfter(0x27) };
  const refs: string[] = [];
  const head = /url\(/gi;
  for (let m = head.exec(v); m; m = head.exec(v)) {
    const w = spaceEnd(m.index + 4);
    const q = v.charCodeAt(w);
    let end = -1;
    const find = quoted[q];
    if (find) {
      // A quote: its partner followed by `\s*)`, with no line end before it.
      const p = find(w + 1);
      if (p < n && nextLineEnd(w + 1) >= p) {
        refs.push(v.slice(w + 1, p));
        end = spaceEnd(p + 1) + 1;
      }
    }
    if (end < 0) {
      // No quote (or no partner): up to the white space before the first `)`, with no line end in it.
      const r = nextClose(w);
      if (r < n) {
        let p = r;
        while (p > w && isSpace(v.charCodeAt(p - 1))) p--;
        if (nextLineEnd(w) >= p) {
          refs.push(v.slice(w, p));
          end = r + 1;
        }
      }
    }
    if (end >= 0) head.lastIndex = end;
  }
  return refs;
}

/** XML entities to text, so escaping again cannot double them; an unknown entity stays literal text. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, e: string) => {
    if (e[0] !== "#") return NAMED[e.toLowerCase()] ?? whole;
    const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
