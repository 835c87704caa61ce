import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve, sep } from "node:path";
import { runCliSpawned as runCli, type CliResult } from "../helpers.js";
import { ACE, buildHostileTree, DOOD, FEED, removeTree, SECRET, snapshot, type HostileTree } from "./hostile-tree.js";

let t: HostileTree;
let before0: string[];

before(() => {
  t = buildHostileTree(realpathSync(mkdtempSync(join(tmpdir(), "ccf-hostile-"))));
  before0 = snapshot(t.cfg);
});
after(() => removeTree(t.root));

const FORMATS = ["table", "markdown", "json", "csv"];

/** Runs with the guard's access trace on; returns the result with the trace lines taken out of stderr. */
async function run(args: string[]): Promise<CliResult & { touched: Array<[string, string]> }> {
  const r = await runCli(args, { cwd: t.root, env: { CCFORENSICS_FS_TRACE: "1" }, timeoutMs: 20000 });
  const touched: Array<[string, string]> = [];
  const rest: string[] = [];
  for (const l of r.stderr.split("\n")) {
    const m = /^ccforensics-fs: (\w+) (".*")$/.exec(l);
    if (m) touched.push([m[1]!, JSON.parse(m[2]!) as string]);
    else rest.push(l);
  }
  return { ...r, stderr: rest.join("\n"), touched };
}

const inside = (p: string, root: string) => p === root || p.startsWith(root + sep);

/**
 * Nothing stat'ed, listed or opened outside the config dir, links followed; realpath may only be asked of paths in it.
 * `roots`: the config dir alone, unless a test gives --follow-links and names the folder it lets in.
 */
function assertConfined(r: { touched: Array<[string, string]> }, named: string[], what: string, roots = [t.cfg]): void {
  assert.ok(r.touched.length > 0, `${what}: the trace recorded nothing`);
  const inRoots = (p: string) => roots.some((root) => inside(p, root));
  for (const [op, p] of r.touched) {
    if (named.includes(p)) continue;
    const abs = isAbsolute(p) ? p : resolve(t.root, p);
    assert.ok(inRoots(abs), `${what}: ${op} ${p} is outside the config dir`);
    if (op === "realpath") continue;
    let real = abs;
    try {
      real = realpathSync(abs);
    } catch {
      // missing: a failed stat touches nothing outside
    }
    assert.ok(inRoots(real), `${what}: ${op} ${p} followed a link to ${real}`);
  }
}

test(
  "hostile tree: every command and format exits 0, reads nothing outside the config dir, never prints the secret",
  { timeout: 240000 },
  async () => {
    const cfg = ["--claude-dir", "cfg"];
    // Every format where a leak would show (report holds every section); one format elsewhere, since access does not depend on it.
    const runs: Array<[string[], string[], string[]]> = [[["sessions", ...cfg], [], FORMATS]];
    for (const id of [FEED, DOOD]) {
      runs.push([["report", id, ...cfg], [id], FORMATS]);
      for (const cmd of ["requests", "outputs", "instructions", "inventory"])
        runs.push([[cmd, id, ...cfg], [id], [cmd === "outputs" ? "csv" : "table"]]);
    }
    for (const [args, named, formats] of runs) {
      for (const format of formats) {
        const r = await run([...args, "--format", format]);
        const what = `${args.join(" ")} --format ${format}`;
        assert.equal(r.code, 0, `${what}: ${r.stderr}`);
        assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), `${what}: the secret leaked`);
        assert.ok(!r.stdout.includes("root:x:0:0"), `${what}: passwd-like content leaked`);
        assertConfined(r, named, what);
      }
    }
    assert.deepEqual(snapshot(t.cfg), before0, "the config dir changed");
  },
);

test("hostile tree: skipped files are listed in health and in one stderr line", async () => {
  const s = await run(["sessions", "--claude-dir", "cfg", "--json"]);
  const sj = JSON.parse(s.stdout);
  const skipped = (sj.health.skipped as Array<{ path: string; reason: string }>).map((x) => x.path);
  assert.ok(
    skipped.some((p) => p.endsWith("beef0000-1111-4222-8333-444444444444.jsonl")),
    skipped.join(", "),
  );
  assert.ok(
    skipped.some((p) => p.endsWith("-evil-proj")),
    skipped.join(", "),
  );
  // The project folder linked out of the config dir: its target named, and the flag that would read it.
  const evil = (sj.health.skipped as Array<{ path: string; reason: string }>).find((x) => x.path.endsWith("-evil-proj"))!;
  assert.equal(
    evil.reason,
    `cannot list folder: a symlink to ${t.evilProj}, outside the config dir; not followed (--follow-links reads it)`,
  );
  assert.ok(!sj.sessions.some((x: { sessionId: string }) => x.sessionId === ACE), "a session outside the config dir is not listed");
  assert.equal(s.stderr.split("\n").filter((l) => l.includes("skipped")).length, 1, s.stderr);
  assert.match(s.stderr, /-evil-proj \(cannot list folder: a symlink to .*--follow-links reads it\)/);
  // A lookup of the session behind it finds nothing and names the folder it did not search.
  const gone = await run(["requests", ACE, "--claude-dir", "cfg"]);
  assert.equal(gone.code, 2, gone.stderr);
  assert.match(gone.stderr, /not searched .*-evil-proj: cannot list folder: a symlink to .*--follow-links reads it/);
  assertConfined(gone, [ACE], "requests ACE");

  const r = JSON.parse((await run(["report", FEED, "--claude-dir", "cfg", "--json"])).stdout);
  const why = new Map(
    (r.health.skipped as Array<{ path: string; reason: string }>).map((x) => [x.path.slice(x.path.lastIndexOf("/") + 1), x.reason]),
  );
  assert.match(why.get(`${FEED}.txt`) ?? "", /real path leaves/);
  assert.match(why.get("agent-evil.jsonl") ?? "", /real path leaves/);
  assert.match(why.get("agent-self.jsonl") ?? "", /loop/);
  assert.equal(r.debug, null);
  assert.ok(!r.inputs.some((i: { path: string; kind: string }) => i.path.includes("outside") || i.kind === "debug-log"));

  const d = JSON.parse((await run(["report", DOOD, "--claude-dir", "cfg", "--json"])).stdout);
  assert.match(d.health.skipped.map((x: { reason: string }) => x.reason).join(), /FIFO/);
});

test("hostile tree: saved paths from evidence are suspicious, never stat'ed or opened", async () => {
  const r = await run(["outputs", FEED, "--claude-dir", "cfg", "--json"]);
  const j = JSON.parse(r.stdout);
  const rows = j.toolResults as Array<Record<string, any>>;
  assert.equal(rows.length, 8);
  for (const row of rows) {
    assert.equal(typeof row.savedSuspicious, "string", `${row.savedPath}: ${row.savedSuspicious}`);
    assert.equal(row.savedExists, null, row.savedPath);
  }
  assert.equal(j.inputs.filter((i: { kind: string }) => i.kind === "tool-result").length, 0);
  assert.ok(!r.touched.some(([, p]) => p.includes("etc") || p.includes("outside")), JSON.stringify(r.touched));
  const table = await run(["outputs", FEED, "--claude-dir", "cfg"]);
  assert.match(table.stdout, /suspicious: the name climbs out of tool-results\/ \(\.\.\)/);
  assert.match(table.stdout, /suspicious: the saved file links outside tool-results\//);
  assert.match(table.stdout, /suspicious: the saved file is a FIFO/);
  const d = JSON.parse((await run(["outputs", DOOD, "--claude-dir", "cfg", "--json"])).stdout);
  assert.match(d.toolResults[0].savedSuspicious, /folder links outside/);
});

test(
  "hostile tree with --follow-links: the linked project folder's plain session is read, its link to the secret still skipped",
  { timeout: 120000 },
  async () => {
    const cfg = ["--claude-dir", "cfg", "--follow-links"];
    const s = await run(["sessions", ...cfg, "--json"]);
    assert.equal(s.code, 0, s.stderr);
    const sj = JSON.parse(s.stdout);
    assert.ok(
      sj.sessions.some((x: { sessionId: string }) => x.sessionId === ACE),
      "the session in the linked project folder is listed",
    );
    const why = new Map((sj.health.skipped as Array<{ path: string; reason: string }>).map((x) => [x.path, x.reason]));
    assert.equal(why.has(join(t.cfg, "projects", "-evil-proj")), false, [...why.keys()].join(", "));
    assert.match(why.get(join(t.cfg, "projects", "-evil-proj", "cafe0000-1111-4222-8333-444444444444.jsonl")) ?? "", /real path leaves/);
    // Read, every format, with the folder it links to the one root added; the secret never printed.
    for (const args of [
      ["sessions", ...cfg],
      ["report", ACE, ...cfg],
      ["requests", ACE, ...cfg],
      ["report", FEED, ...cfg],
    ]) {
      for (const format of ["table", "json"]) {
        const r = await run([...args, "--format", format]);
        const what = `${args.join(" ")} --format ${format}`;
        assert.equal(r.code, 0, `${what}: ${r.stderr}`);
        assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), `${what}: the secret leaked`);
        assert.ok(!r.stdout.includes("root:x:0:0"), `${what}: passwd-like content leaked`);
        assertConfined(r, args.includes(ACE) ? [ACE] : args.includes(FEED) ? [FEED] : [], what, [t.cfg, t.evilProj]);
      }
    }
    const req = JSON.parse((await run(["requests", ACE, ...cfg, "--json"])).stdout);
    assert.deepEqual(
      req.inputs.map((i: { path: string }) => i.path),
      [join(t.cfg, "projects", "-evil-proj", `${ACE}.jsonl`)],
    );
    assert.equal(req.requests.length, 1);
    // The link to the secret is not a session even when asked for by id.
    const cafe = await run(["requests", "cafe0000", ...cfg]);
    assert.equal(cafe.code, 2, cafe.stderr);
    assert.match(cafe.stderr, /skipped .*cafe0000-1111-4222-8333-444444444444\.jsonl: real path leaves/);
    assert.ok(!cafe.stderr.includes(SECRET));
    assert.deepEqual(snapshot(t.cfg), before0, "the config dir changed");
  },
);

test("non-regular targets and named files are a usage error (exit 2, one line), never a block", { timeout: 120000 }, async () => {
  const f = t.fifo;
  const cases: string[][] = [
    ["requests", f],
    ["requests", "/dev/zero"],
    ["requests", t.root],
    ["inventory", f],
    ["debug", f],
    ["rpc", f],
    ["compare", f],
    ["report", FEED, "--claude-dir", "cfg", "--stream-json", f],
    ["report", FEED, "--claude-dir", "cfg", "--debug-file", f],
    ["report", FEED, "--claude-dir", "cfg", "--rpc-log", f],
    ["outputs", FEED, "--claude-dir", "cfg", "--debug-file", f],
    ["debug", join(t.cfg, "debug", "c0ffee00-1111-4222-8333-444444444444.txt"), "--stream-json", f],
    ["instructions", FEED, "--claude-dir", "cfg", "--baseline", f],
  ];
  for (const args of cases) {
    const r = await runCli(args, { cwd: t.root, timeoutMs: 15000 });
    assert.equal(r.code, 2, `${args.join(" ")}: exit ${r.code}\n${r.stderr}`);
    const lines = r.stderr.trim().split("\n");
    assert.equal(lines.length, 1, `${args.join(" ")}: ${r.stderr}`);
    assert.match(lines[0]!, /FIFO|device|directory/, args.join(" "));
    assert.equal(r.stdout, "", args.join(" "));
  }
});

test("hostile tree: after every run in this file the config dir is byte for byte as it was", () => {
  assert.deepEqual(snapshot(t.cfg), before0);
});
