import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { detached, detachStrings } from "../../src/sources/memory.js";

test("detached: the same string, whatever it is", () => {
  const long = "a\u00e9\ud83d\ude00\ud800 lone, \u0000 nul ".repeat(500);
  for (const s of [
    "",
    "x",
    "twelve units",
    "thirteen unit",
    long,
    long.slice(3, 4099),
    long.slice(-40),
    `${long.slice(0, 20)}…${long.slice(-24)}`,
  ])
    assert.equal(detached(s), s);
  assert.equal(detached(null), null);
});

test("detachStrings: string properties copied in place, others untouched", () => {
  const text = `${"p".repeat(5000)}/tmp/x/tool-results/toolu_1.txt`;
  const nested = { a: 1 };
  const o = { check: "size", savedPath: text.slice(5000), limit: 3, preview: null, cut: false, nested };
  const same = detachStrings(o);
  assert.equal(same, o);
  assert.deepEqual(o, { check: "size", savedPath: "/tmp/x/tool-results/toolu_1.txt", limit: 3, preview: null, cut: false, nested });
  assert.equal(o.nested, nested);
});

test("detached: a piece kept does not keep the long string it was cut from", () => {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  // JSON.parse makes each long string a string of its own, as a parsed tool input is.
  const cut = (keep: (s: string) => string) => {
    const kept: string[] = [];
    for (let i = 0; i < 200; i++) kept.push(keep((JSON.parse(JSON.stringify(`${i}`.padEnd(200_000, "y"))) as string).slice(0, 4096)));
    gc();
    return { kept, heap: process.memoryUsage().heapUsed };
  };
  gc();
  const before = process.memoryUsage().heapUsed;
  const plain = cut((s) => s);
  const plainGrowth = plain.heap - before;
  plain.kept.length = 0;
  gc();
  const base = process.memoryUsage().heapUsed;
  const own = cut(detached);
  // 200 × 200 KB parents held by plain slices (40 MB) against 200 × 4 KiB.
  assert.ok(plainGrowth > 30e6, `plain slices held ${plainGrowth} bytes: the check would prove nothing`);
  assert.ok(own.heap - base < 5e6, `detached pieces held ${own.heap - base} bytes`);
  assert.equal(own.kept[7], `7`.padEnd(4096, "y"));
});

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
// Once the worker runs (its isolate's start sets the factor back to 2; a second long on a loaded
// machine), the first 8 MiB hold it again, then the churn begins.
await new Promise((r) => setTimeout(r, 1000));
h.update(Buffer.alloc(8 << 20));
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
    // The 8 MiB counted before the churn are part of the file too.
    const size = (mib + 8) << 20;
    writeFileSync(path, "");
    truncateSync(path, size);
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
