import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { BIN, ROOT, runCli, runCliSpawned, sample, spawnCollect } from "../helpers.js";
import { CACHE_SUFFIX, loadBundle, sourceDigest } from "../../src/bundle-load.js";

// dist/cli.js runs every command line but --version and help from dist/main.cjs (scripts/bundle.mjs), while
// every other test runs the modules in process. These hold the two equal where a bundle can go wrong: the
// packages left outside it (yargs, hyparquet-writer, vega), string-width and chalk inside it, the files each
// module finds beside itself (catalog.json, help.json, hash-worker.js, ../cli.js), stdin and exit codes.
const BASIC = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");
const HOME = sample("claude-home");
const DEMO = "c0ffee00-1111-4222-8333-444444444444";

/** A config dir whose session has a cwd of wide and combining characters: the table measures them with string-width. */
function wideHome(): string {
  const dir = mkdtempSync(join(tmpdir(), "ccf-bundle-home-"));
  const project = join(dir, "projects", "-home-wide");
  mkdirSync(project, { recursive: true });
  const id = "0b0b0b0b-0000-4000-8000-000000000001";
  const rec = {
    type: "assistant",
    sessionId: id,
    cwd: "/home/日本語/e\u0301t\u00e9/🧪",
    timestamp: "2026-01-01T00:00:00.000Z",
    message: { id: "msg_1", role: "assistant", content: [], usage: { input_tokens: 1, output_tokens: 2 } },
  };
  writeFileSync(join(project, `${id}.jsonl`), `${JSON.stringify(rec)}\n`);
  return dir;
}

const home = wideHome();
const LINES: Array<{ args: string[]; stdin?: string }> = [
  { args: ["requests", BASIC, "--format", "json"] },
  { args: ["requests", BASIC, "--format", "csv"] },
  { args: ["requests", BASIC, "--format", "markdown"] },
  { args: ["requests", BASIC] },
  { args: ["requests", "-", "--format", "json"], stdin: readFileSync(BASIC, "utf8") },
  { args: ["requests", "-", "--strict"], stdin: "not json\n" },
  { args: ["sessions", "--claude-dir", home] },
  { args: ["sessions", "--claude-dir", HOME, "--format", "json"] },
  { args: ["report", DEMO, "--claude-dir", HOME] },
  // yargs, outside the bundle: its usage errors and the help it renders for lines the cache does not hold.
  { args: ["requests", BASIC, "--bogus"] },
  { args: ["sessions", "--since"] },
  { args: ["requests", BASIC, "--format", "json", "--help"] },
  { args: [] },
];

const shown = (args: string[]) => args.map((a) => (a === home ? "<wide-home>" : a.startsWith(ROOT) ? relative(ROOT, a) : a)).join(" ");

for (const { args, stdin } of LINES) {
  test(`bundle: ccforensics ${shown(args)} prints what main() prints in process`, async () => {
    const [spawned, inProcess] = await Promise.all([runCliSpawned(args, { stdin }), runCli(args, { stdin })]);
    // The in-process run's tool modules sit in build-test/src; the spawned one's in dist.
    const norm = (s: string) => s.replaceAll(join(ROOT, "build-test", "src"), join(ROOT, "dist"));
    assert.deepEqual(
      { code: spawned.code, stdout: norm(spawned.stdout), stderr: norm(spawned.stderr) },
      { code: inProcess.code, stdout: norm(inProcess.stdout), stderr: norm(inProcess.stderr) },
    );
  });
}

test("bundle: parquet (hyparquet-writer, outside the bundle) and a chart (vega, imported when drawn) come out the same", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "ccf-bundle-files-"));
  try {
    const files = (who: string) => {
      const d = join(tmp, who);
      return { dir: d, chart: join(tmp, `${who}.svg`) };
    };
    const a = files("spawned");
    const b = files("in-process");
    const run = (f: typeof a, via: typeof runCli) =>
      Promise.all([
        via(["export", "--claude-dir", HOME, "--to", f.dir, "--format", "json"]),
        via(["requests", DEMO, "--claude-dir", HOME, "--chart", f.chart, "--format", "json"]),
      ]);
    for (const r of [...(await run(a, runCliSpawned)), ...(await run(b, runCli))]) assert.equal(r.code, 0, r.stderr);
    const names = readdirSync(a.dir).sort();
    assert.ok(names.includes("requests.parquet"), names.join(", "));
    assert.deepEqual(names, readdirSync(b.dir).sort());
    for (const n of names) assert.ok(readFileSync(join(a.dir, n)).equals(readFileSync(join(b.dir, n))), `${n} differs`);
    assert.equal(readFileSync(a.chart, "utf8"), readFileSync(b.chart, "utf8"));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test("bundle: a file past the worker-hash size is hashed by dist/sources/hash-worker.js, found from inside the bundle", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "ccf-bundle-big-"));
  try {
    const big = join(tmp, "big.jsonl");
    const line = readFileSync(BASIC, "utf8").split("\n")[0]!;
    writeFileSync(big, `${line}\n`.repeat(Math.ceil((33 << 20) / (line.length + 1))));
    const r = await runCliSpawned(["inventory", big, "--format", "json"]);
    assert.equal(r.code, 0, r.stderr);
    const want = await spawnCollect("sha256sum", [big], { cwd: tmp, env: { PATH: process.env.PATH } });
    assert.equal(JSON.parse(r.stdout).inputs[0].sha256, want.stdout.split(" ")[0]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test("bundle: run hands its lab servers dist/cli.js, the file beside the bundle", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "ccf-bundle-run-"));
  try {
    const matrix = join(tmp, "matrix.json");
    writeFileSync(matrix, JSON.stringify({ prompt: "p", configs: [{ label: "a" }] }));
    const r = await runCliSpawned(["run", matrix, "--out", join(tmp, "runs"), "--dry-run", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).runs[0].mcpConfig.mcpServers.lab.args[0], BIN);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

/** Runs dist/cli.js with a hook that logs every ES module Node loads, the workers' too; returns them under dist/. */
async function esmLoads(args: string[]): Promise<{ code: number; stdout: string; stderr: string; loaded: string[] }> {
  // Written to fd 2 at once: the hooks run on their own thread, whose process.stderr reaches the main thread
  // asynchronously, and a process that exits soon after its last import lost that line under load.
  const hook = `import { writeSync } from "node:fs"; export async function load(u, c, n) { writeSync(2, "esm " + u + "\\n"); return n(u, c); }`;
  const register = `import { register } from "node:module"; register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));`;
  const r = await spawnCollect(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(register)}`, BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, TZ: "UTC", NO_COLOR: "1" },
  });
  const lines = r.stderr.split("\n");
  const loaded = lines.filter((l) => l.startsWith("esm file:")).map((l) => l.slice(l.indexOf("/dist/") + 1));
  return { ...r, stderr: lines.filter((l) => !l.startsWith("esm ")).join("\n"), loaded };
}

test("bundle: a command line loads dist/main.cjs (through bundle-load.js) and none of the modules one by one", async () => {
  assert.ok(existsSync(join(ROOT, "dist", "main.cjs")), "npm run build writes dist/main.cjs");
  const r = await esmLoads(["requests", BASIC, "--format", "json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.loaded, ["dist/cli.js", "dist/package-root.js", "dist/bundle-load.js"]);
});

test("bundle: sessions over 4,100 old-layout agent files peeks them on dist/sources/peek-worker.js, with main()'s document", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-bundle-peek-"));
  try {
    const project = join(dir, "projects", "-home-many");
    mkdirSync(project, { recursive: true });
    const id = "0c0c0c0c-0000-4000-8000-000000000001";
    const line = (n: number) =>
      `${JSON.stringify({ type: "assistant", sessionId: id, timestamp: "2026-01-01T00:00:00.000Z", message: { id: `m${n}` } })}\n`;
    writeFileSync(join(project, `${id}.jsonl`), line(0));
    for (let i = 0; i < 4100; i++) writeFileSync(join(project, `agent-${i}.jsonl`), line(i + 1));
    const args = ["sessions", "--claude-dir", dir, "--format", "json"];
    const [spawned, inProcess] = await Promise.all([esmLoads(args), runCli(args)]);
    assert.ok(spawned.loaded.includes("dist/sources/peek-worker.js"), spawned.loaded.join(", "));
    assert.deepEqual({ code: spawned.code, stdout: spawned.stdout }, { code: inProcess.code, stdout: inProcess.stdout });
    assert.equal(JSON.parse(spawned.stdout).sessions[0].subagents, 4100);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bundle: the code cache built beside dist/main.cjs is taken; one made for another bundle of the same length, or garbage, is not", async () => {
  const dist = join(ROOT, "dist", "main.cjs");
  assert.equal(loadBundle(dist).cacheUsed, true, "npm run build writes dist/main.cjs.cache for this bundle");
  const tmp = mkdtempSync(join(tmpdir(), "ccf-bundle-cache-"));
  try {
    const other = join(tmp, "main.cjs");
    const source = readFileSync(dist, "utf8");
    const changed = source.replace("internal error", "internal errar");
    assert.equal(changed.length, source.length);
    writeFileSync(other, changed);
    writeFileSync(other + CACHE_SUFFIX, readFileSync(dist + CACHE_SUFFIX));
    const stale = loadBundle(other);
    assert.equal(stale.cacheUsed, false);
    assert.equal(typeof stale.exports.main, "function");
    // Another change again: V8 would not even read a cache for a source this process compiled already.
    const again = source.replace("internal error", "internal errir");
    writeFileSync(other, again);
    writeFileSync(other + CACHE_SUFFIX, Buffer.concat([sourceDigest(again), Buffer.from("not a code cache")]));
    const garbage = loadBundle(other);
    assert.equal(garbage.cacheUsed, false);
    assert.equal(typeof garbage.exports.main, "function");
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
