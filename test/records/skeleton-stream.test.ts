import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseLine, parseWhole } from "../../src/records/json.js";
import { lazyOf } from "../../src/records/lazy-strings.js";
import { toRecord, type AnyRecord } from "../../src/records/transcript.js";
import { requestsAnalysisWith } from "../../src/analyses/requests.js";
import { LineSplitter, type RawLine } from "../../src/sources/lines.js";
import { ROOT } from "../helpers.js";

// The fast path against the full parse on lines as the reader hands them over: generated files of
// several seeds, with CRLF endings and a BOM, cut into read chunks at arbitrary places (so lines are
// glued from pieces), and the request rows both paths give.

function generated(seed: number, size: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), "ccf-skel-stream-"));
  try {
    const out = join(dir, "t.jsonl");
    execFileSync(process.execPath, [join(ROOT, "bench", "shared", "gen.mjs"), "--out", out, "--size", size, "--seed", String(seed)]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A small deterministic generator: the chunk sizes must not depend on the run. */
function chunkSizes(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const r = (x >>> 0) % 100;
    // Mostly small cuts (inside tokens and escapes), sometimes a read-sized one.
    return r < 60 ? 1 + (r % 7) : r < 95 ? 1 + ((x >>> 8) % 5000) : 1 + ((x >>> 4) % 200_000);
  };
}

function linesOf(text: Buffer, seed: number): RawLine[] {
  const split = new LineSplitter();
  const out: RawLine[] = [];
  const next = chunkSizes(seed);
  for (let at = 0; at < text.length;) {
    const n = Math.min(next(), text.length - at);
    split.push(Buffer.from(text.subarray(at, at + n)), out);
    at += n;
  }
  split.end(out);
  return out;
}

function lengthsHold(v: unknown, where: string): void {
  if (v === null || typeof v !== "object") return;
  for (const k of Object.keys(v)) {
    const lazy = lazyOf(v, Array.isArray(v) ? Number(k) : k);
    const x: unknown = (v as Record<string, unknown>)[k];
    if (lazy) assert.equal(lazy.units, (x as string).length, `${where}: counted length of .${k}`);
    lengthsHold(x, where);
  }
}

function rows(lines: RawLine[], parse: typeof parseLine) {
  const a = requestsAnalysisWith();
  const s = a.init();
  for (const raw of lines) {
    const p = parse(raw);
    const pos = { file: "f.jsonl", line: raw.line };
    if (p.ok === true) a.step(s, toRecord(p.value, pos, "main") as AnyRecord);
    else if (p.ok === false) a.step(s, { kind: "malformed", pos, chain: "main", reason: p.reason, excerpt: p.excerpt });
  }
  const r = a.finish(s);
  return { rows: r.requests.toArray(), totals: r.totals, subagents: r.subagents };
}

test("generated files of several seeds, CRLF and a BOM, cut into arbitrary read chunks: the same lines and rows on both paths", () => {
  for (const [seed, size] of [
    [3, "2MB"],
    [11, "2MB"],
    [29, "1MB"],
  ] as const) {
    const lf = generated(seed, size);
    const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lf.toString("latin1").replace(/\n/g, "\r\n"), "latin1")]);
    for (const [name, text] of [
      ["lf", lf],
      ["crlf+bom", crlf],
    ] as const) {
      const lines = linesOf(text, seed * 7 + name.length);
      let fast = 0;
      for (const raw of lines) {
        const where = `seed ${seed} ${name}:${raw.line}`;
        const a = parseLine(raw);
        const b = parseWhole(raw);
        if (a.ok === true) {
          lengthsHold(a.value, where);
          if (raw.bytes >= 2048) fast++;
        }
        assert.deepStrictEqual(a, b, where);
      }
      assert.ok(fast > 20, `seed ${seed} ${name}: only ${fast} long lines`);
      assert.deepStrictEqual(rows(lines, parseLine), rows(lines, parseWhole), `seed ${seed} ${name}: request rows`);
    }
  }
});
