import { fnv1a, mulberry32 } from "./instructions-text.js";
import { emitMarkers } from "./output-text.js";

/**
 * `lab output --content json`: one line of minified JSON with short keys (seed 003's "minified JSON
 * of short keys"), exactly `chars` JS chars, markers as its first and last members:
 * `{"begin":"BEGIN-MARKER: start-…","d":[{"a":417,"b":"qx","c":true},…],"end":"END-MARKER: end-…"}`.
 * The array is closed with one pad element (a string, or a digit when only 1–2 chars are left) so the
 * length is exact and the text stays valid JSON. Below the size of the frame (≈80 chars) the text is
 * the frame's first `chars` chars and is not valid JSON. Pure.
 */
export function emitJson(chars: number): string {
  const m = emitMarkers(chars, "json");
  const head = `{"begin":"BEGIN-MARKER: ${m.start}","d":[`;
  const tail = `],"end":"END-MARKER: ${m.end}"}`;
  const budget = chars - head.length - tail.length;
  if (budget < 0) return (head + tail).slice(0, chars);
  const next = mulberry32(fnv1a(`${chars}|json|body`));
  const parts: string[] = [];
  let len = 0;
  for (;;) {
    const e = entry(next);
    const add = (parts.length ? 1 : 0) + e.length;
    const left = budget - len - add;
    // A leftover of 1 after an element cannot hold `,` plus a value.
    if (left < 0 || left === 1) break;
    parts.push(e);
    len += add;
  }
  return head + parts.join(",") + pad(budget - len, parts.length > 0) + tail;
}

function pad(n: number, afterElement: boolean): string {
  if (n === 0) return "";
  const sep = afterElement ? "," : "";
  const room = n - sep.length;
  return sep + (room < 2 ? "7" : `"${"z".repeat(room - 2)}"`);
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

function entry(next: () => number): string {
  const pick = () => LETTERS[Math.floor(next() * LETTERS.length)]!;
  return `{"a":${Math.floor(next() * 1000)},"b":"${pick()}${pick()}","c":${next() < 0.5}}`;
}
