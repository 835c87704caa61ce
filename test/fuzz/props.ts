import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import type { Sample } from "./corpus.js";
import { applyOps, HOSTILE, numericFieldOp, opArb, opsArb, type Op } from "./mutators.js";
import { runOnce, withTempFile, type Prop } from "./run.js";
import {
  assertBadLinesReported,
  assertExit,
  assertHumanOutput,
  assertLinesAccounted,
  assertSaneNumbers,
  jsonlOracle,
  normalisePaths,
  parseJson,
} from "./checks.js";

export type Command = "requests" | "outputs" | "instructions" | "inventory" | "report" | "debug" | "rpc" | "sessions";
export const HUMAN_FORMATS = ["table", "markdown", "csv", "html"] as const;

/** A sample by its path (so counterexamples print short) and the mutations applied to it. */
export interface Case {
  sample: string;
  ops: Op[];
}

const BY_REL = new Map<string, Sample>();
const caseArb = (pool: Sample[], ops: fc.Arbitrary<Op[]> = opsArb): fc.Arbitrary<Case> => {
  for (const s of pool) BY_REL.set(s.rel, s);
  return fc.record({ sample: fc.constantFrom(...pool.map((s) => s.rel)), ops });
};
const sampleOf = (c: Case): Sample => BY_REL.get(c.sample)!;
export const bytesOf = (c: Case): Buffer => applyOps(sampleOf(c).bytes, c.ops);
const describe = (t: Target, c: Case, extra = "") => `${t.command}${extra} ${c.sample} ops=${JSON.stringify(c.ops).slice(0, 400)}`;

/** Mostly hostile text put where strings were, so escaping is what the case tests. */
const hostileOps = fc.array(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant("value" as const),
        line: fc.nat({ max: 1 << 20 }),
        path: fc.nat({ max: 1 << 20 }),
        raw: fc.constantFrom(...HOSTILE.map((s) => JSON.stringify(s))),
      }),
    },
    { weight: 1, arbitrary: opArb },
  ),
  { minLength: 1, maxLength: 6 },
);

const usageOps = fc.array(fc.oneof({ weight: 3, arbitrary: numericFieldOp }, { weight: 1, arbitrary: opArb }), {
  minLength: 1,
  maxLength: 4,
});

/** How a command takes its mutated file: as the target, or beside a clean session via a flag. */
export interface Target {
  command: Command;
  /** Arguments that name the mutated file at `path` (inside the scratch folder `dir`). */
  args: (path: string, dir: string) => string[];
  /** Folders inside the scratch folder where the file goes (a config dir layout for `sessions`). */
  sub?: string;
  /** Whether the mutated file is JSONL whose every line must be an object (transcripts, stream-json). */
  jsonl: boolean;
  /** Whether the mutated file is the only input, so health's line accounting must close on it. */
  sole: boolean;
  /** Whether `-` reads the same evidence from stdin. */
  stdin: boolean;
}

export const asTarget = (command: Command, jsonl = true): Target => ({
  command,
  args: (p) => [command, p],
  jsonl,
  sole: true,
  stdin: true,
});

function inTemp<T>(t: Target, c: Case, body: (path: string, dir: string, bytes: Buffer) => Promise<T>): Promise<T> {
  const bytes = bytesOf(c);
  return withTempFile(join(t.sub ?? "", sampleOf(c).name), bytes, (path, dir) => body(path, dir, bytes));
}

/** No crash, valid JSON, every bad line by number, and the line accounting closes. */
export function jsonHealth(name: string, t: Target, pool: Sample[]): Prop<Case> {
  return {
    name,
    arb: caseArb(pool),
    bytes: bytesOf,
    run: (c) =>
      inTemp(t, c, async (path, dir, bytes) => {
        const r = await runOnce([...t.args(path, dir), "--json"]);
        const what = describe(t, c);
        assertExit(r, 0, what);
        const j = parseJson(r, t.command, what);
        if (t.jsonl) {
          const oracle = jsonlOracle(bytes);
          assertBadLinesReported(j, path, oracle, what);
          if (t.sole) assertLinesAccounted(j, oracle, what);
        }
      }),
  };
}

/** Totals stay finite non-negative integers whatever the usage fields hold. */
export function saneTotals(name: string, t: Target, pool: Sample[]): Prop<Case> {
  return {
    name,
    arb: caseArb(pool, usageOps),
    bytes: bytesOf,
    run: (c) =>
      inTemp(t, c, async (path, dir) => {
        const r = await runOnce([...t.args(path, dir), "--json"]);
        const what = describe(t, c);
        assertExit(r, 0, what);
        assertSaneNumbers(parseJson(r, t.command, what), what);
      }),
  };
}

/**
 * A file and the same bytes on stdin give the same document, input paths aside. The file gets a
 * neutral name: an `agent-*.jsonl` name makes a subagent chain by design, and stdin is always main.
 */
export function fileEqualsStdin(name: string, targets: Target[], pool: Sample[]): Prop<{ c: Case; t: Target }> {
  return {
    name,
    arb: fc.record({ c: caseArb(pool), t: fc.constantFrom(...targets.filter((t) => t.stdin)) }),
    bytes: ({ c }) => bytesOf(c),
    run: ({ c, t }) =>
      withTempFile("fuzz-input.jsonl", bytesOf(c), async (path, dir) => {
        const bytes = bytesOf(c);
        const [f, s] = await Promise.all([runOnce([t.command, path, "--json"]), runOnce([t.command, "-", "--json"], bytes)]);
        const what = describe(t, c, " file vs -");
        assertExit(f, 0, what + " (file)");
        assertExit(s, 0, what + " (stdin)");
        const a = withoutInputFields(normalisePaths(parseJson(f, t.command, what), [path, dir]));
        const b = withoutInputFields(normalisePaths(parseJson(s, t.command, what), ["-"]));
        assert.deepEqual(b, a, `${what}: stdin and file documents differ`);
      }),
  };
}

/**
 * report's summary names the transcript and its tool-results folder; stdin has neither (null). A file's session
 * id is its name (Claude Code's layout); stdin's is the first record's that has one, so that field differs too.
 */
function withoutInputFields(j: unknown): unknown {
  const summary = (j as { summary?: Record<string, unknown> }).summary;
  if (summary) for (const k of ["transcript", "toolResultsDir", "sessionId"]) delete summary[k];
  // A saved output is looked up in the file's own session folder; stdin has none, so where it was looked for differs.
  for (const r of (j as { toolResults?: Array<Record<string, unknown>> }).toolResults ?? []) {
    for (const k of ["savedExists", "savedResolvedPath"]) delete r[k];
  }
  return j;
}

/**
 * Table, markdown and CSV carry no raw control character; with `escaping`, also no invisible
 * character, no markup from evidence and no formula.
 */
export function humanFormats(
  name: string,
  t: Target,
  pool: Sample[],
  hostile: boolean,
  escaping = false,
): Prop<{ c: Case; format: string }> {
  return {
    name,
    arb: fc.record({ c: caseArb(pool, hostile ? hostileOps : opsArb), format: fc.constantFrom(...HUMAN_FORMATS) }),
    bytes: ({ c }) => bytesOf(c),
    run: ({ c, format }) =>
      inTemp(t, c, async (path, dir) => {
        const r = await runOnce([...t.args(path, dir), "--format", format]);
        const what = describe(t, c, ` --format ${format}`);
        assertExit(r, 0, what);
        assertHumanOutput(format, r.stdout, what, escaping);
      }),
  };
}

/** --strict exits 1 exactly when the same run without it lists a malformed or damaged line. */
export function strictExit(name: string, targets: Target[], pool: Sample[]): Prop<{ c: Case; t: Target }> {
  return {
    name,
    arb: fc.record({ c: caseArb(pool), t: fc.constantFrom(...targets) }),
    bytes: ({ c }) => bytesOf(c),
    run: ({ c, t }) =>
      inTemp(t, c, async (path, dir) => {
        const [plain, strict] = await Promise.all([
          runOnce([...t.args(path, dir), "--json"]),
          runOnce([...t.args(path, dir), "--json", "--strict"]),
        ]);
        const what = describe(t, c, " --strict");
        assertExit(plain, 0, what);
        const h = parseJson(plain, t.command, what).health;
        const bad = h.malformedCount > 0 || h.damagedCount > 0;
        assertExit(strict, bad ? 1 : 0, what);
        if (bad) assert.match(strict.stderr, /malformed|damaged/, `${what}: --strict failure does not say why`);
      }),
  };
}
