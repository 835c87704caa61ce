import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { runCli, sample } from "../helpers.js";
import { RUN_ID, scratch, traced } from "./access-trace.js";

/**
 * A runs dir is evidence someone shared: each run.json may name only files in its own run folder, its
 * session only as an id in its own config dir (REFERENCE.md "Safety"). A manifest named on the command
 * line is the user's own and keeps its paths as given.
 */

/** A runs dir of one good run and one run per hostile edit of its run.json. */
function hostileRuns(secret: string, home: string): { runs: string; edits: Record<string, Record<string, unknown>> } {
  const runs = join(resolve(secret, ".."), "runs");
  // The reader's own config dir holds the run's session too: a claudeDir or session lookup leaving the run would find it there.
  const own = join(home, ".claude");
  cpSync(join(sample("runs"), "dual-era-a", "claude"), own, { recursive: true });
  const edits: Record<string, Record<string, unknown>> = {
    "abs-debug": { debugFile: join(secret, "passwd") },
    "up-rpc": { rpcLog: "../../secret/passwd", rpcLogs: { lab: "../../secret/passwd" } },
    "up-rpcs": { rpcLogs: { lab: "rpc-log.jsonl", other: "../../secret/passwd" } },
    "abs-stream": { streamJson: join(secret, "passwd") },
    "path-session": { session: join(secret, "passwd") },
    "up-session": { session: "../../secret/passwd" },
    "home-claude": { claudeDir: own },
    "up-claude": { claudeDir: "../../home/.claude" },
    "link-debug": { debugFile: "out/passwd" },
    "no-claude": { claudeDir: undefined },
  };
  mkdirSync(runs);
  cpSync(join(sample("runs"), "dual-era-a"), join(runs, "good"), { recursive: true });
  for (const [name, edit] of Object.entries(edits)) {
    const folder = join(runs, name);
    cpSync(join(sample("runs"), "dual-era-a"), folder, { recursive: true });
    const spec = { ...JSON.parse(readFileSync(join(folder, "run.json"), "utf8")), ...edit };
    writeFileSync(join(folder, "run.json"), JSON.stringify(spec));
  }
  symlinkSync(secret, join(runs, "link-debug", "out"));
  // The run's own copy is gone: its session may only be looked up in the run folder, never in the reader's ~/.claude.
  rmSync(join(runs, "no-claude", "claude"), { recursive: true });
  return { runs, edits };
}

test("compare <runs-dir>: run.json paths, session and claudeDir that leave the run folder are that run's error; nothing outside is read", async () => {
  const { secret, home } = scratch("runs-out");
  const { runs, edits } = hostileRuns(secret, home);
  const { r, touched } = await traced(["compare", runs, "--format", "json"], { env: { HOME: home } });
  assert.equal(r.code, 1, "a refused run fails the command, as a failed run does");
  assert.deepEqual(touched(secret), [], "nothing under the secret folder was touched");
  assert.deepEqual(touched(join(home, ".claude")), [], "the reader's own config dir was not read");
  const j = JSON.parse(r.stdout);
  assert.doesNotMatch(r.stdout, /root:x:0:0/);
  assert.deepEqual(j.health.malformed, []);
  const byRun = Object.fromEntries(j.runs.map((x: { run: string; error: string | null }) => [x.run, x.error]));
  assert.equal(byRun.good, null);
  assert.equal(Object.keys(byRun).length, Object.keys(edits).length + 1, "no run is dropped");
  for (const name of Object.keys(edits).filter((n) => n !== "no-claude")) {
    assert.match(byRun[name] ?? "", /^refused: run\.json "(debugFile|rpcLog|rpcLogs|streamJson|session|claudeDir)"/, name);
    assert.match(r.stderr, new RegExp(`${name} \\(.*\\): refused`));
  }
  assert.match(byRun["no-claude"] ?? "", /^no session matches/, "looked up in the run folder only");
  // Inside as written, out through a link: the message names the link, not a path that looks inside.
  assert.match(byRun["link-debug"] ?? "", /^refused: run\.json "debugFile" names a path that links outside the run folder/);
  for (const i of j.inputs as Array<{ path: string }>) assert.ok(i.path.startsWith(join(runs, "good") + sep), i.path);
});

test("compare <runs-dir>: a run folder or run.json linked out of the runs dir is refused, not read", async () => {
  const { dir, secret, home } = scratch("runs-link");
  const runs = join(dir, "runs");
  mkdirSync(runs);
  cpSync(join(sample("runs"), "dual-era-a"), join(runs, "good"), { recursive: true });
  // A run folder elsewhere (the secret folder holds a run.json naming its own files).
  cpSync(join(sample("runs"), "dual-era-a"), join(secret, "run"), { recursive: true });
  symlinkSync(join(secret, "run"), join(runs, "linked"));
  mkdirSync(join(runs, "linked-json"));
  symlinkSync(join(secret, "run", "run.json"), join(runs, "linked-json", "run.json"));
  // A run whose run.json names no claudeDir, and whose default claude/ folder is a link out of it.
  cpSync(join(sample("runs"), "dual-era-a"), join(runs, "linked-claude"), { recursive: true });
  const spec = JSON.parse(readFileSync(join(runs, "linked-claude", "run.json"), "utf8"));
  delete spec.claudeDir;
  writeFileSync(join(runs, "linked-claude", "run.json"), JSON.stringify(spec));
  rmSync(join(runs, "linked-claude", "claude"), { recursive: true });
  symlinkSync(join(secret, "run", "claude"), join(runs, "linked-claude", "claude"));
  const { r, touched } = await traced(["compare", runs, "--format", "json"], { env: { HOME: home } });
  assert.equal(r.code, 1);
  const j = JSON.parse(r.stdout);
  const byRun = Object.fromEntries(j.runs.map((x: { run: string; error: string | null }) => [x.run, x.error]));
  assert.equal(byRun.good, null);
  assert.match(byRun.linked, /refused: the run folder links outside the runs dir/);
  assert.match(byRun["linked-json"], /refused: run\.json links outside its run folder/);
  assert.match(byRun["linked-claude"], /refused: the run's "claude" folder leads outside the run folder/);
  assert.deepEqual(
    touched(secret).filter(([op]) => op === "open" || op === "readdir"),
    [],
    "nothing there opened or listed",
  );
});

test("compare <manifest>: a manifest the user names keeps its paths as given, outside its folder too", async () => {
  const { dir, home } = scratch("manifest");
  const m = join(dir, "m.json");
  const run = join(sample("runs"), "dual-era-a");
  writeFileSync(
    m,
    JSON.stringify([
      {
        label: "x",
        session: RUN_ID,
        claudeDir: join(run, "claude"),
        debugFile: join(run, "debug.txt"),
        rpcLog: join(run, "rpc-log.jsonl"),
        streamJson: join(run, "stream.jsonl"),
      },
    ]),
  );
  const r = await runCli(["compare", m, "--format", "json"], { env: { HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.runs[0].error, null);
  assert.ok(j.inputs.some((i: { path: string }) => i.path === join(run, "debug.txt")));
});

test("outputs --staircase <runs-dir>: a run.json naming a path outside its folder is a failed run, not read", async () => {
  const { dir, secret, home } = scratch("stairs");
  const runs = join(dir, "runs");
  mkdirSync(runs);
  cpSync(join(sample("runs"), "dual-era-a"), join(runs, "r1"), { recursive: true });
  const f = join(runs, "r1", "run.json");
  writeFileSync(f, JSON.stringify({ ...JSON.parse(readFileSync(f, "utf8")), debugFile: join(secret, "passwd") }));
  const { r, touched } = await traced(["outputs", "--staircase", runs, "--format", "json"], { env: { HOME: home } });
  assert.deepEqual(touched(secret), []);
  const j = JSON.parse(r.stdout);
  assert.match(j.failedRuns[0]?.error ?? "", /^refused: run\.json "debugFile"/);
});
