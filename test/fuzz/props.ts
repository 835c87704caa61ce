import assert from "node:assert/strict";
import fc from "fast-check";
import type { Sample } from "./corpus.js";
import { applyOps, HOSTILE, opArb, opsArb, type Op } from "./mutators.js";
import { check, runOnce, withTempFile } from "./run.js";
import {
  assertBadLinesReported, assertExit, assertHumanOutput, assertLinesAccounted, assertSaneNumbers,
  jsonlOracle, normalisePaths, parseJson,
} from "./checks.js";

export type Command = "requests" | "outputs" | "instructions" | "inventory" | "report" | "debug" | "rpc";
export const HUMAN_FORMATS = ["table", "markdown", "csv"] as const;

interface Case {
  sample: Sample;
  ops: Op[];
}

const caseArb = (pool: Sample[], ops: fc.Arbitrary<Op[]> = opsArb): fc.Arbitrary<Case> => fc.record({ sample: fc.constantFrom(...pool), ops });
const bytesOf = (c: Case) => applyOps(c.sample.bytes, c.ops);

/** Mostly hostile text put where strings were, so escaping is what the case tests. */
const hostileOps = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant("value" as const), line: fc.nat({ max: 1 << 20 }), path: fc.nat({ max: 1 << 20 }), raw: fc.constantFrom(...HOSTILE.map((s) => JSON.stringify(s))) }) },
    { weight: 1, arbitrary: opArb },
  ),
  { minLength: 1, maxLength: 6 },
);

/** How a command takes its mutated file: as the target, or beside a clean session via a flag. */
export interface Target {
  command: Command;
  /** Arguments that name the mutated file at `path`. */
  args: (path: string) => string[];
  /** Whether the mutated file is JSONL whose every line must be an object (transcripts, stream-json). */
  jsonl: boolean;
  /** Whether the mutated file is the only input, so health's line accounting must close on it. */
  sole: boolean;
  /** Whether `-` reads the same evidence from stdin. */
  stdin: boolean;
}

export const asTarget = (command: Command, jsonl = true): Target => ({ command, args: (p) => [command, p], jsonl, sole: true, stdin: true });

/** No crash, valid JSON, every bad line by number, and the line accounting closes. */
export function jsonHealth(name: string, t: Target, pool: Sample[]): Promise<void> {
  return check(name, caseArb(pool), async (c) => {
    const bytes = bytesOf(c);
    await withTempFile(c.sample.name, bytes, async (path) => {
      const r = await runOnce([...t.args(path), "--json"]);
      const what = `${t.command} ${c.sample.rel} ${JSON.stringify(c.ops).slice(0, 300)}`;
      assertExit(r, 0, what);
      const j = parseJson(r, t.command, what);
      if (t.jsonl) {
        const oracle = jsonlOracle(bytes);
        assertBadLinesReported(j, path, oracle, what);
        if (t.sole) assertLinesAccounted(j, oracle, what);
      }
    });
  }, bytesOf);
}

/** Totals stay finite non-negative integers whatever the usage fields hold. */
export function saneTotals(name: string, t: Target, pool: Sample[]): Promise<void> {
  const usageOps = fc.array(
    fc.oneof({ weight: 3, arbitrary: opArb.filter((o) => o.op === "usage") }, { weight: 1, arbitrary: opArb }),
    { minLength: 1, maxLength: 4 },
  );
  return check(name, caseArb(pool, usageOps), async (c) => {
    await withTempFile(c.sample.name, bytesOf(c), async (path) => {
      const r = await runOnce([...t.args(path), "--json"]);
      const what = `${t.command} ${c.sample.rel} ${JSON.stringify(c.ops).slice(0, 300)}`;
      assertExit(r, 0, what);
      assertSaneNumbers(parseJson(r, t.command, what), what);
    });
  }, bytesOf);
}

/** A file and the same bytes on stdin give the same document, input paths aside. */
export function fileEqualsStdin(name: string, targets: Target[], pool: Sample[]): Promise<void> {
  const arb = fc.record({ c: caseArb(pool), t: fc.constantFrom(...targets.filter((t) => t.stdin)) });
  return check(name, arb, async ({ c, t }) => {
    const bytes = bytesOf(c);
    await withTempFile(c.sample.name, bytes, async (path, dir) => {
      const [f, s] = await Promise.all([runOnce([t.command, path, "--json"]), runOnce([t.command, "-", "--json"], bytes)]);
      const what = `${t.command} ${c.sample.rel} ${JSON.stringify(c.ops).slice(0, 300)}`;
      assertExit(f, 0, what + " (file)");
      assertExit(s, 0, what + " (stdin)");
      const a = normalisePaths(parseJson(f, t.command, what), [path, dir]);
      const b = normalisePaths(parseJson(s, t.command, what), ["-"]);
      assert.deepEqual(b, a, `${what}: stdin and file documents differ`);
    });
  }, ({ c }) => bytesOf(c));
}

/** Table, markdown and CSV carry no raw control or invisible character, no markup, no formula. */
export function humanFormats(name: string, t: Target, pool: Sample[], hostile: boolean): Promise<void> {
  const arb = fc.record({ c: caseArb(pool, hostile ? hostileOps : opsArb), format: fc.constantFrom(...HUMAN_FORMATS) });
  return check(name, arb, async ({ c, format }) => {
    await withTempFile(c.sample.name, bytesOf(c), async (path) => {
      const r = await runOnce([...t.args(path), "--format", format]);
      const what = `${t.command} --format ${format} ${c.sample.rel} ${JSON.stringify(c.ops).slice(0, 300)}`;
      assertExit(r, 0, what);
      assertHumanOutput(format, r.stdout, what);
    });
  }, ({ c }) => bytesOf(c));
}

/** --strict exits 1 exactly when the same run without it lists a malformed line. */
export function strictExit(name: string, targets: Target[], pool: Sample[]): Promise<void> {
  const arb = fc.record({ c: caseArb(pool), t: fc.constantFrom(...targets) });
  return check(name, arb, async ({ c, t }) => {
    await withTempFile(c.sample.name, bytesOf(c), async (path) => {
      const [plain, strict] = await Promise.all([runOnce([...t.args(path), "--json"]), runOnce([...t.args(path), "--json", "--strict"])]);
      const what = `${t.command} --strict ${c.sample.rel} ${JSON.stringify(c.ops).slice(0, 300)}`;
      assertExit(plain, 0, what);
      const bad = parseJson(plain, t.command, what).health.malformedCount > 0;
      assertExit(strict, bad ? 1 : 0, what);
      if (bad) assert.match(strict.stderr, /malformed/, `${what}: --strict failure does not say why`);
    });
  }, ({ c }) => bytesOf(c));
}
