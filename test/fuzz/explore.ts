import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { PROPS, prop } from "./suite.js";

/**
 * Not a test: runs fuzz properties with many cases, several at a time, without stopping at the first
 * failure, and keeps one input per distinct failure (messages with their numbers and paths blanked).
 *   node build-test/test/fuzz/explore.js <property|all> <cases> [seed] [parallel]
 * `node --test build-test/test/` also loads this file (it is under test/), so without arguments it does nothing.
 */

async function explore([name = "all", count = "200", seedArg = "1", par = "3"]: string[]): Promise<void> {
  const names = name === "all" ? Object.keys(PROPS) : name.split(",");
  const out = join(process.env.TMPDIR ?? "/tmp", "ccf-explore");
  mkdirSync(out, { recursive: true });

  const classOf = (msg: string) =>
    msg
      .split("\n")[0]!
      .replace(/ops=.*?(: |$)/, "")
      .replace(/samples\/\S+/g, "<sample>")
      .replace(/\/tmp\/\S+/g, "<tmp>")
      .replace(/"[^"]*"/g, '"…"')
      .replace(/\d+/g, "N")
      .slice(0, 200);

  for (const [k, n] of names.entries()) {
    const p = prop(n);
    const cases = fc.sample(p.arb, { numRuns: Number(count), seed: Number(seedArg) + k });
    const seen = new Map<string, number>();
    let next = 0,
      failed = 0;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: Number(par) }, async () => {
        while (next < cases.length) {
          const i = next++;
          try {
            await p.run(cases[i]);
          } catch (e) {
            failed++;
            const msg = e instanceof Error ? e.message : String(e);
            const k = classOf(msg);
            const hits = (seen.get(k) ?? 0) + 1;
            seen.set(k, hits);
            if (hits === 1) {
              const file = join(out, `${n}-${seen.size}.bin`);
              writeFileSync(file, p.bytes(cases[i]));
              writeFileSync(
                file.replace(/\.bin$/, ".txt"),
                `${msg}\n\ncase ${i}: ${JSON.stringify(cases[i], (_k, v) => (typeof v === "function" ? undefined : v))}\n`,
              );
            }
          }
        }
      }),
    );
    console.log(`${n}: ${cases.length} cases, ${failed} failed, ${seen.size} distinct, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    for (const [k, v] of seen) console.log(`  ×${v}  ${k}`);
  }
}

const argv = process.argv.slice(2);
if (argv.length > 0) await explore(argv);
