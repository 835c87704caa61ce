import {
  CUT_CHECK_MAX,
  deepDamage,
  excerptOf,
  notJsonThere,
  notUtf8Count,
  nulDamage,
  nulsBefore,
  nulTailDamage,
  utf8Damage,
  type JsonObject,
  type LineDamage,
  type ParsedLine,
} from "./json.js";
import type { DeepCut } from "../sources/json-depth.js";
import { defineLazy, type LazyString } from "./lazy-strings.js";
import { skipZeros } from "./nul-scan.js";
import { BODY_INVALID, BODY_MORE, forgetWindow, StringBody } from "./stream-string.js";
import { MAX_KEY, StringToken } from "./stream-token.js";

/**
 * One line too long to hold, parsed as it streams (sources/lines.ts hands it over chunk by chunk). It
 * checks the bytes as `parseWhole` would (UTF-8 decoded the same way, JSON's grammar, the depth limit) and
 * builds the same object, except that a string token of `keepMax` bytes or more is not kept: it reads as a
 * lazy string (records/lazy-strings.ts) whose length was counted on the bytes and whose value, if an
 * analysis asks for it, is read back from the file (from a temporary copy for stdin: records/spill.ts).
 * A string longer than V8 allows cannot be read whole: it reads as "" and the line's `textKept` says so.
 */

export interface StreamScanOptions {
  /** The input's path ("-" for stdin): where a counted string is read back from. */
  file: string;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  maxDepth: number;
  /** String tokens (quotes included) this long or longer are counted, not kept. */
  keepMax?: number;
  /** Tokens longer than this cannot be decoded whole (V8's limit; tests lower it). */
  maxString?: number;
}

export interface ScannedLine {
  parsed: ParsedLine;
  /** Every counted string can be read back (a file, and no string past V8's limit). */
  textKept: boolean;
}

export const KEEP_MAX = 16 * 1024;
/** V8's longest string: a token longer than this cannot be decoded whole. */
const MAX_STRING = 0x1fffffe8;
const HEAD = 480;
/** Numbers are kept whole; past this length the line is reported instead of held. */
const MAX_NUMBER = 1024 * 1024;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

// What the next byte may be.
const VALUE = 0,
  FIRST_VALUE = 1, // just after `[`: a value or `]`
  FIRST_KEY = 2, // just after `{`: a key or `}`
  KEY = 3,
  COLON = 4,
  AFTER = 5,
  STRING = 6,
  LITERAL = 7,
  NUM = 8,
  DONE = 9,
  FAILED = 10,
  SKIP = 11; // inside a value nested past maxDepth: brackets counted to its end, nothing built

interface Frame {
  arr: boolean;
  obj: unknown[] | JsonObject;
  key: string;
}

const isWs = (b: number) => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;
const LITERALS: Record<number, [string, unknown]> = { 0x74: ["true", true], 0x66: ["false", false], 0x6e: ["null", null] };

export class StreamScanner {
  private mode = VALUE;
  private readonly stack: Frame[] = [];
  private root: unknown = undefined;
  private tooDeep = false;
  /** Why a too-deep value cut out is not JSON (then the line is malformed, as parseWhole says). */
  private cutError = "";
  /** The values cut for nesting past maxDepth (parseWhole's `keepShallow`), and the one in progress. */
  private readonly cuts: DeepCut[] = [];
  private cutAt = 0;
  private cutDepth = 0;
  private cutInString = false;
  private cutEscape = false;
  /** The cut's bytes while it is at most CUT_CHECK_MAX long, to check as JSON (and for bytes that are not UTF-8) as parseWhole does. */
  private cutCopy: Buffer[] | null = null;
  private cutCopied = 0;
  private cutBad = 0;
  private cutFirstBad = -1;
  /** Whether the outermost value of a line found too deep is an array. */
  private rootArray = false;
  private error = "";
  private at = 0; // bytes of the line fed so far
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private nulAt = -1;
  private onlyNulWs = true;
  /** NUL bytes before the value (whitespace among them), skipped as parseWhole skips them; where the value starts. */
  private leadNuls = 0;
  private firstAt = -1;
  /** The first NUL from `firstAt` on: one the value cannot get past. */
  private laterNul = -1;
  /** NULs after the complete value (the zero-filled tail a crash leaves), and where the first is. */
  private tailNuls = 0;
  private tailFirst = -1;
  // The string in progress.
  private readonly body = new StringBody();
  private isKey = false;
  private strFrom = 0; // in the line
  private readonly token: StringToken;
  // The literal or number in progress.
  private lit = "";
  private litValue: unknown = null;
  private litAt = 0;
  private num = "";

  constructor(private readonly o: StreamScanOptions) {
    this.token = new StringToken({ file: o.file, keepMax: o.keepMax ?? KEEP_MAX, maxString: o.maxString ?? MAX_STRING });
  }

  push(c: Buffer): void {
    try {
      this.scan(c);
    } catch (err) {
      // A fault here must cost one line, never the run: the line is reported malformed with the reason.
      this.fail(`could not scan: ${(err as Error).message}`);
    }
    this.at += c.length;
  }

  private scan(c: Buffer): void {
    forgetWindow();
    if (this.headBytes < HEAD) {
      // Copied, as is every byte kept past this chunk: a reader may reuse its buffer for the next one.
      this.head.push(Buffer.from(c.subarray(0, HEAD - this.headBytes)));
      this.headBytes += Math.min(c.length, HEAD - this.headBytes);
    }
    const nul = c.indexOf(0);
    if (nul >= 0 && this.nulAt < 0) this.nulAt = this.at + nul;
    this.body.base = this.at;
    let i = 0;
    const n = c.length;
    let from = 0; // where the string in progress starts in this chunk
    while (i < n && this.mode !== FAILED) {
      if (this.mode === SKIP) {
        const j = this.skip(c, i);
        if (j < 0) break;
        i = j;
        continue;
      }
      if (this.mode === STRING) {
        const q = this.body.scan(c, i);
        if (q === BODY_MORE) break;
        if (q === BODY_INVALID) {
          this.fail(`${this.body.error}, in the string from byte ${this.strFrom + 1}`);
          break;
        }
        this.keepPiece(c, from, q + 1);
        if (this.failed()) break;
        this.endString(this.o.offset + this.at + q + 1);
        i = q + 1;
        continue;
      }
      const b = c[i]!;
      if (this.onlyNulWs && b !== 0 && !isWs(b)) {
        this.onlyNulWs = false;
        this.firstAt = this.at + i;
      }
      if (b === 0 && this.onlyNulWs) {
        // Before the value: a crash remnant the next write landed after (parseWhole skips the same run).
        // Skipped a memcmp block at a time: a 300 MB run cost 300 M turns of this loop (3x the time of a line of text).
        const j = skipZeros(c, i);
        this.leadNuls += j - i;
        i = j;
        continue;
      }
      if (this.mode === LITERAL) {
        if (b !== this.lit.charCodeAt(this.litAt)) {
          this.fail(`unexpected byte at byte ${this.at + i + 1} in the literal ${this.lit}`);
          break;
        }
        if (++this.litAt === this.lit.length) this.put(this.litValue);
        i++;
        continue;
      }
      if (this.mode === NUM) {
        if ((b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2b || b === 0x2e || b === 0x65 || b === 0x45) {
          if (this.num.length >= MAX_NUMBER) {
            this.fail(`a number of more than ${MAX_NUMBER} characters before byte ${this.at + i + 1}`);
            break;
          }
          this.num += String.fromCharCode(b);
          i++;
          continue;
        }
        if (!this.endNumber()) break;
        continue;
      }
      if (isWs(b)) {
        i++;
        continue;
      }
      if (this.mode === DONE && b === 0) {
        if (this.tailFirst < 0) this.tailFirst = this.at + i;
        const j = skipZeros(c, i);
        this.tailNuls += j - i;
        i = j;
        continue;
      }
      if (this.mode === DONE) {
        this.fail(
          b === 0x7b
            ? `two JSON values glued on one line (the second starts at byte ${this.at + i + 1})`
            : `trailing garbage after the JSON value at byte ${this.at + i + 1}`,
        );
        break;
      }
      if (!this.structural(b, this.at + i)) break;
      if (this.mode === STRING) from = i;
      i++;
    }
    if (this.mode === STRING) this.keepPiece(c, from, n, true);
    if (nul >= 0 && this.laterNul < 0 && this.firstAt >= 0) {
      const k = c.indexOf(0, Math.max(0, this.firstAt - this.at));
      if (k >= 0) this.laterNul = this.at + k;
    }
  }

  end(unterminated: boolean): ScannedLine {
    if (this.mode === NUM) this.endNumber();
    return { parsed: this.outcome(unterminated), textKept: this.token.textKept };
  }

  private outcome(unterminated: boolean): ParsedLine {
    const blank = this.onlyNulWs && this.nulAt < 0;
    if (blank && this.mode === VALUE && this.stack.length === 0) return { ok: "blank" };
    const excerpt = excerptOf(Buffer.concat(this.head).toString("utf8"));
    // The same verdicts as parseWhole: NULs only, NULs past the start, NULs at two places; NULs before the value are skipped.
    let after = "";
    if (this.nulAt >= 0) {
      // NULs only after the complete value: its line's zero-filled tail, skipped as parseWhole skips it.
      const tailOnly = this.mode === DONE && this.tailNuls > 0 && this.laterNul === this.tailFirst;
      if (this.onlyNulWs || (this.leadNuls === 0 && !tailOnly)) {
        const kind = this.onlyNulWs ? "NUL bytes only" : `NUL bytes from byte ${this.nulAt + 1}`;
        return { ok: false, reason: `${kind} (crash remnant)`, excerpt };
      }
      if (this.laterNul >= 0 && !tailOnly)
        return { ok: false, reason: `NUL bytes from byte ${this.nulAt + 1} and from byte ${this.laterNul + 1} (crash remnant)`, excerpt };
      if (this.leadNuls > 0) after = `${nulsBefore(this.leadNuls, this.firstAt)}, then `;
    }
    const limit = this.o.maxDepth;
    if (this.tooDeep)
      return {
        ok: false,
        reason: this.rootArray
          ? `not a JSON object (an array nested deeper than ${limit} levels)`
          : this.cutError
            ? notJsonThere(this.cutError)
            : `nested deeper than ${limit} levels`,
        excerpt,
      };
    // Inside a cut when the line ended: it never closes, so the line is too deep (parseWhole says the same).
    if (this.mode === SKIP) return { ok: false, reason: `nested deeper than ${limit} levels`, excerpt };
    if (this.mode === FAILED) return { ok: false, reason: `${after}invalid JSON (${this.error}, in a line of ${this.at} bytes)`, excerpt };
    if (this.mode !== DONE) {
      const what = `Unexpected end of JSON input, in a line of ${this.at} bytes`;
      return { ok: false, reason: after + (unterminated ? `half-written last line (${what})` : `truncated record (${what})`), excerpt };
    }
    const v = this.root;
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      const what = Array.isArray(v) ? "an array" : v === null ? "null" : `a ${typeof v}`;
      return { ok: false, reason: `${after}expected a JSON object, got ${what}`, excerpt };
    }
    const damage: LineDamage[] = [];
    if (this.leadNuls > 0) damage.push(nulDamage(this.leadNuls, this.firstAt));
    if (this.tailNuls > 0) damage.push(nulTailDamage(this.tailNuls, this.tailFirst));
    const bad = this.body.badBytes + this.cutBad;
    if (bad > 0) {
      const first =
        this.body.firstBad < 0
          ? this.cutFirstBad
          : this.cutFirstBad < 0
            ? this.body.firstBad
            : Math.min(this.body.firstBad, this.cutFirstBad);
      damage.push(utf8Damage(bad, first));
    }
    for (const c of this.cuts) damage.push(deepDamage(c));
    return damage.length ? { ok: true, value: v as JsonObject, damage } : { ok: true, value: v as JsonObject };
  }

  /** A byte outside strings, literals and numbers; false when it ends the scan. */
  private structural(b: number, pos: number): boolean {
    const m = this.mode;
    if (m === COLON) {
      if (b !== 0x3a) return this.fail(`expected ':' at byte ${pos + 1}`);
      this.mode = VALUE;
      return true;
    }
    if (m === AFTER) {
      const top = this.stack[this.stack.length - 1]!;
      if (b === 0x2c) this.mode = top.arr ? VALUE : KEY;
      else if (b === (top.arr ? 0x5d : 0x7d)) this.close();
      else return this.fail(`expected ',' or '${top.arr ? "]" : "}"}' at byte ${pos + 1}`);
      return true;
    }
    if (m === FIRST_KEY || m === KEY) {
      if (b === 0x7d && m === FIRST_KEY) this.close();
      else if (b === 0x22) this.startString(true, pos);
      else return this.fail(`expected a key at byte ${pos + 1}`);
      return true;
    }
    // VALUE or FIRST_VALUE
    if (b === 0x5d && m === FIRST_VALUE) this.close();
    else if (b === 0x22) this.startString(false, pos);
    else if (b === 0x7b || b === 0x5b) this.open(b === 0x5b, pos);
    else if (LITERALS[b]) {
      [this.lit, this.litValue] = LITERALS[b]!;
      this.litAt = 1;
      this.mode = LITERAL;
    } else if (b === 0x2d || (b >= 0x30 && b <= 0x39)) {
      this.num = String.fromCharCode(b);
      this.mode = NUM;
    } else return this.fail(`unexpected byte 0x${b.toString(16).padStart(2, "0")} at byte ${pos + 1}`);
    return true;
  }

  /**
   * One level deeper. Past maxDepth no frame is pushed (a frame per level of a `[[[[…` line of 150 MB ran
   * the heap out): in a line that is an array the line is malformed and the scan stops there (the bytes left
   * are only looked at for NUL); in an object record the value is skipped to its end and reads as null, as
   * parseWhole's `keepShallow` cuts it.
   */
  private open(arr: boolean, pos: number): void {
    if (this.stack.length + 1 > this.o.maxDepth) {
      if (this.stack[0]?.arr ?? arr) {
        this.tooDeep = true;
        this.rootArray = true;
        this.fail("nested too deep");
        return;
      }
      this.mode = SKIP;
      this.cutAt = pos;
      // The opening bracket is consumed already: the cut starts one level in.
      this.cutDepth = 1;
      this.cutInString = false;
      this.cutEscape = false;
      this.cutCopy = [Buffer.from(arr ? "[" : "{")];
      this.cutCopied = 1;
      return;
    }
    this.stack.push({ arr, obj: arr ? [] : {}, key: "" });
    this.mode = arr ? FIRST_VALUE : FIRST_KEY;
  }

  /** Bytes of a cut from `i` on: brackets counted outside strings to the cut's end. Where the scan goes on, or -1 at the chunk's end. */
  private skip(c: Buffer, i: number): number {
    const n = c.length;
    let depth = this.cutDepth;
    let inString = this.cutInString;
    let escape = this.cutEscape;
    let end = -1;
    for (let k = i; k < n; k++) {
      const b = c[k]!;
      if (escape) escape = false;
      else if (inString) {
        if (b === 0x5c) escape = true;
        else if (b === 0x22) inString = false;
      } else if (b === 0x22) inString = true;
      else if (b === 0x5b || b === 0x7b) depth++;
      else if ((b === 0x5d || b === 0x7d) && --depth === 0) {
        end = k + 1;
        break;
      }
    }
    this.cutDepth = depth;
    this.cutInString = inString;
    this.cutEscape = escape;
    const to = end < 0 ? n : end;
    if (this.cutCopy !== null) {
      if (this.cutCopied + (to - i) > CUT_CHECK_MAX) this.cutCopy = null;
      else {
        this.cutCopy.push(Buffer.from(c.subarray(i, to)));
        this.cutCopied += to - i;
      }
    }
    if (end < 0) return -1;
    this.endCut(this.at + end);
    return end;
  }

  /** A cut ends just before line byte `end`: checked as parseWhole checks it, then null in its place. */
  private endCut(end: number): void {
    const cut = { at: this.cutAt, bytes: end - this.cutAt };
    if (this.cutCopy !== null) {
      const bytes = Buffer.concat(this.cutCopy);
      this.cutCopy = null;
      try {
        JSON.parse(bytes.toString("utf8"));
      } catch (err) {
        this.tooDeep = true;
        this.cutError = (err as Error).message;
        this.fail("not JSON in a value nested too deep");
        return;
      }
      const bad = notUtf8Count(bytes);
      if (bad.bad > 0) {
        this.cutBad += bad.bad;
        if (this.cutFirstBad < 0) this.cutFirstBad = cut.at + bad.first;
      }
    }
    this.cuts.push(cut);
    this.put(null);
  }

  private close(): void {
    const f = this.stack.pop()!;
    this.put(f.obj);
  }

  private put(v: unknown, lazy?: LazyString): void {
    const top = this.stack[this.stack.length - 1];
    this.mode = AFTER;
    if (!top) {
      this.root = v;
      this.mode = DONE;
      return;
    }
    const o = top.obj;
    if (Array.isArray(o)) {
      o.push(v);
      if (lazy) defineLazy(o, o.length - 1, lazy);
    } else if (lazy) defineLazy(o, top.key, lazy);
    else if (top.key === "__proto__" && !Object.hasOwn(o, top.key))
      // JSON.parse makes "__proto__" an own property; once it is one, assigning goes to it (a counted string's setter included).
      Object.defineProperty(o, top.key, { value: v, writable: true, enumerable: true, configurable: true });
    else o[top.key] = v;
  }

  private endNumber(): boolean {
    if (!NUMBER.test(this.num)) return this.fail(`bad number ${this.num.slice(0, 40)} before byte ${this.at + 1}`);
    this.put(Number(this.num));
    return true;
  }

  private startString(isKey: boolean, pos: number): void {
    this.mode = STRING;
    this.isKey = isKey;
    this.strFrom = pos;
    this.body.reset();
    this.token.start(isKey, this.o.offset + pos);
  }

  private keepPiece(c: Buffer, from: number, to: number, outlives = false): void {
    if (!this.token.piece(c, from, to, outlives)) this.fail(`a key of more than ${MAX_KEY} bytes from byte ${this.strFrom + 1}`);
  }

  /** `to`: the file offset just past the closing quote. */
  private endString(to: number): void {
    const t = this.token.finish(to, this.body.units);
    if (!("text" in t)) this.put("", t.lazy);
    else if (!this.isKey) this.put(t.text);
    else {
      this.stack[this.stack.length - 1]!.key = t.text;
      this.mode = COLON;
    }
  }

  private failed(): boolean {
    return this.mode === FAILED;
  }

  private fail(why: string): false {
    this.error = why;
    this.mode = FAILED;
    return false;
  }
}
