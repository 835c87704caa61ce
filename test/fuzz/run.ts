import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { runCli, type CliResult } from "../helpers.js";

/**
 * The one way the fuzz suite runs the CLI. It goes through runCli so that when runCli turns in-process
 * the whole suite speeds up with no edit here.
 */
export function runOnce(args: string[], stdin?: Buffer, opts: { env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return runCli(args, { stdin, env: opts.env });
}

/** Case count per property. Kept small by default because each case spawns the CLI a few times. */
export const FUZZ_RUNS = positiveInt(process.env.FUZZ_RUNS, 8);
/** Fixed unless FUZZ_SEED is given, so a red run is red again on the next try. */
export const FUZZ_SEED =
  Number.isSafeInteger(Number(process.env.FUZZ_SEED)) && process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261201;

function positiveInt(raw: string | undefined, dflt: number): number {
  const n = Number(raw);
  return raw && Number.isSafeInteger(n) && n > 0 ? n : dflt;
}

/** A scratch folder per case; the file keeps the sample's name (under `name`'s folders) so paths in output stay readable. */
export function withTempFile<T>(name: string, bytes: Buffer, body: (path: string, dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "ccf-fuzz-"));
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
  return body(path, dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** A property as data, so the test runner and the explorer (explore.ts) run the same cases. */
export interface Prop<T> {
  name: string;
  arb: fc.Arbitrary<T>;
  run: (v: T) => Promise<void>;
  /** The mutated input of a case, written to a file when the case fails. */
  bytes: (v: T) => Buffer;
}

/**
 * fc.assert with the suite's seed and run count. On failure the shrunk input is also written to a
 * file, because a Buffer printed inside fast-check's message is hard to replay by hand.
 */
export async function check<T>(p: Prop<T>): Promise<void> {
  let last: { v: T; err: unknown } | undefined;
  const prop = fc.asyncProperty(p.arb, async (v) => {
    try {
      await p.run(v);
    } catch (err) {
      last = { v, err };
      throw err;
    }
  });
  try {
    await fc.assert(prop, { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: process.env.FUZZ_SHRINK === "0" });
  } catch (e) {
    if (!last) throw e;
    const file = join(tmpdir(), `ccf-fuzz-${p.name.replace(/\W+/g, "-")}-${FUZZ_SEED}.bin`);
    writeFileSync(file, p.bytes(last.v));
    const why = last.err instanceof Error ? last.err.message : String(last.err);
    throw new Error(
      `fuzz property "${p.name}" failed (FUZZ_SEED=${FUZZ_SEED} FUZZ_RUNS=${FUZZ_RUNS}); shrunk input written to ${file}\n${why}\n\n${(e as Error).message.slice(0, 3000)}`,
    );
  }
}
