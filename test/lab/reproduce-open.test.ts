import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers.js";
import { readmeReproductions, reproduce } from "./reproduce-commands.js";

const only: Record<string, string[]> = {
  "content.json": ["json-24000"],
  "order-two.json": ["zeta-alpha"],
  "order-three.json": ["c-a-b"],
  "per-server-caps.json": ["two-5000"],
  "negotiation.json": ["legacy-probe-crash"],
};

test("the open-question matrices as README gives them, with the stand-in claude: each command prints its table", async () => {
  for (const r of readmeReproductions()) {
    const name = r.matrix.replace("samples/matrices/", "");
    // One configuration of each open-question matrix (a full matrix is dozens of runs); the late server's
    // matrix has a file of its own (reproduce-late), since its runs wait 8 s each and run beside the rest.
    if (!(name in only)) continue;
    const { run, then, runs } = await reproduce(r, only[name]!);
    assert.equal(run.code, 0, `${name}: ${run.stderr}`);
    const [out] = then;
    assert.equal(out!.code, 0, `${name}: ${out!.stderr}`);
    const text = out!.stdout;
    switch (name) {
      case "content.json":
        // Two repeats: the table is turned, one line per field.
        assert.match(text, /^\| label \| json-24000 \| json-24000 \|$/m);
        assert.match(text, /^\| size \(chars\) \| 24,000 \| 24,000 \|$/m);
        break;
      case "order-two.json":
        assert.match(
          text,
          /^\| zeta-alpha \| zeta-alpha-a \| zeta, alpha \| 2,000 \| zeta: BEGIN=\S+ END=\S+ LAST=763 \\\| alpha: BEGIN=/m,
        );
        break;
      case "order-three.json":
        assert.match(text, /^\| c-a-b \| c-a-b-a \| charlie, alpha, bravo \| legacy \|/m);
        break;
      case "per-server-caps.json":
        // each server cut at its own 2,048
        for (const re of [
          /^\| servers \| alpha, bravo \| alpha, bravo \|$/m,
          /^\| instr\. chars \| 4,122 \| 4,122 \|$/m,
          /^\| kept \| 4,096 \| 4,096 \|$/m,
          /^\| source bytes \| 10,000 \| 10,000 \|$/m,
          /^\| truncated \| yes \| yes \|$/m,
        ])
          assert.match(text, re);
        await sourcesFromEveryLog(runs);
        break;
      case "negotiation.json":
        // the crashed server is never connected
        for (const re of [
          /^\| first method \| server\/discover \| server\/discover \|$/m,
          /^\| era \| unknown \| unknown \|$/m,
          /^\| answer \| BEGIN=NONE END=NONE LAST=NONE \| BEGIN=NONE END=NONE LAST=NONE \|$/m,
        ])
          assert.match(text, re);
        break;
    }
  }
});

/**
 * Without the debug log's truncation lines, each server's source length comes from its own message
 * log: both of a two-server run's logs count (5,000 + 5,000), not the first one's alone.
 */
async function sourcesFromEveryLog(runs: string): Promise<void> {
  for (const d of readdirSync(runs, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const file = join(runs, d.name, "run.json");
    const run = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(Object.keys(run.rpcLogs).length, 2, "a log per server");
    delete run.debugFile;
    writeFileSync(file, JSON.stringify(run));
  }
  const r = await runCli(["compare", runs, "--json"], { env: { HOME: join(runs, "no-home") } });
  assert.equal(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout).runs as Array<{ sourceChars: number | null; keptChars: number | null }>;
  assert.equal(rows.length, 2);
  for (const row of rows) assert.deepEqual([row.keptChars, row.sourceChars], [4096, 10000]);
}
