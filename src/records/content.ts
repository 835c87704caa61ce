import { isObject } from "./json.js";
import { isStringAt, stringLength } from "./lazy-strings.js";
import type { ContentBlock } from "./transcript.js";

/**
 * Characters the model sees of a tool_result's `content`: the string itself, or the text of its text
 * blocks. Images and other binary blocks have no characters; they are counted apart.
 */
export function visibleText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let s = "";
  for (const b of content) if (isObject(b) && b.type === "text" && typeof b.text === "string") s += b.text;
  return s;
}

/** `visibleText(block.content).length` for a tool_result block, without decoding its long strings. */
export function visibleLength(block: ContentBlock): number {
  const own = stringLength(block, "content");
  if (own !== undefined) return own;
  const content = block.content;
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const b of content) if (isObject(b) && b.type === "text") n += stringLength(b, "text") ?? 0;
  return n;
}

/** Where the strings `visibleText(holder[key])` joins are, as `[object, key]`, none of them decoded. */
export function visiblePieces(holder: object, key: string): Array<[object, string | number]> {
  if (isStringAt(holder, key)) return [[holder, key]];
  const content = (holder as Record<string, unknown>)[key];
  if (!Array.isArray(content)) return [];
  const out: Array<[object, string | number]> = [];
  for (const b of content) if (isObject(b) && b.type === "text" && isStringAt(b, "text")) out.push([b, "text"]);
  return out;
}

export function imageCount(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const b of content) if (isObject(b) && b.type === "image") n += 1;
  return n;
}

export function toolResults(content: string | ContentBlock[] | undefined): ContentBlock[] {
  if (!Array.isArray(content)) return [];
  return content.filter((b) => b.type === "tool_result");
}

/** Code points of a JS string (a lone surrogate counts as one). */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** UTF-8 bytes of a JS string as Node would write it (lone surrogates become U+FFFD, 3 bytes). */
export function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, "utf8");
}
