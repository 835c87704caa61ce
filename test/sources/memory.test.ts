import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const hasherUrl = new URL("../../src/sources/hasher.js", import.meta.url).href;
const memoryUrl = new URL("../../src/sources/memory.js", import.meta.url).href;

/**
 * A big file counted into a worker hasher by 1 MiB while garbage with many survivors is made, harder than
 * a read of a transcript; prints the young generation's size at the end and the digest. (Before the
 * worker runs, the factor is still held; the few ms between its isolate's start and its first line are not.)
 */
const CHILD = `
import { getHeapSpaceStatistics } from "node:v8";
import { openSync } from "node:fs";
const { fileHasher } = await import(${JSON.stringify(hasherUrl)});
const { boundHeapGrowth } = await import(${JSON.stringify(memoryUrl)});
const [path, mib] = process.argv.slice(-2);
boundHeapGrowth();
const h = fileHasher(openSync(path, "r"), () => {});
const chunk = Buffer.alloc(1 << 20);
// Once the worker runs (its isolate's start sets the factor back to 2), the churn begins.
await new Promise((r) => setTimeout(r, 300));
let recent = [];
for (let i = 0; i < Number(mib); i++) {
  h.update(chunk);
  for (let k = 0; k < 40_000; k++) {
    recent.push({ k, s: "row " + k });
    if (recent.length > 30_000) recent = [];
  }
}
const digest = await h.digest();
const young = getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
process.stdout.write(JSON.stringify({ young, digest }));
`;

test("holdYoungGeneration: the young generation stays small through a hashed read, though the worker's start resets the factor", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-mem-"));
  try {
    const path = join(dir, "big.jsonl");
    const mib = 160;
    writeFileSync(path, "");
    truncateSync(path, mib << 20);
    const script = join(dir, "child.mjs");
    writeFileSync(script, CHILD);
    const r = spawnSync(process.execPath, [fileURLToPath(new URL(`file://${script}`)), path, String(mib)], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const { young, digest } = JSON.parse(r.stdout) as { young: number; digest: string };
    assert.match(digest, /^[0-9a-f]{64}$/);
    // V8's default lets it double up to 32 MiB here; held, it keeps the size it had when the read began.
    assert.ok(young <= 8 << 20, `young generation grew to ${young} bytes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
