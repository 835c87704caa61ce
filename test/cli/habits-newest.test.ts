import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, sample } from "../helpers.js";
import { glance } from "../../src/sources/glance.js";
import { newestSession } from "../../src/sources/newest.js";

const TTY = { stdin: true };

function rec(type: "user" | "assistant", ts: string | undefined, cwd: string, id: string): string {
  const base = { type, sessionId: "x", cwd, ...(ts ? { timestamp: ts } : {}) };
  if (type === "user") return JSON.stringify({ ...base, message: { role: "user", content: "hi" } });
  return JSON.stringify({
    ...base,
    message: { id, model: "m", role: "assistant", content: [], usage: { input_tokens: 5, output_tokens: 1 } },
  });
}

/** A config dir: per session its project, record times (none: no timestamps) and file mtime. */
function configDir(sessions: Array<{ id: string; project: string; times: string[]; mtime: string; pad?: number }>): string {
  const dir = mkdtempSync(join(tmpdir(), "ccf-newest-"));
  for (const s of sessions) {
    const pdir = join(dir, "projects", `-home-dev-${s.project}`);
    mkdirSync(pdir, { recursive: true });
    const cwd = `/home/dev/${s.project}`;
    const lines = s.times.length
      ? s.times.flatMap((t, i) => [rec("user", t, cwd, ""), rec("assistant", t, cwd, `msg_${s.id}_${i}`)])
      : [rec("user", undefined, cwd, ""), rec("assistant", undefined, cwd, `msg_${s.id}`)];
    // Padding between the first and last records makes the file bigger than the two ends glance reads.
    if (s.pad) lines.splice(1, 0, ...Array.from({ length: s.pad }, () => JSON.stringify({ type: "progress", data: "x".repeat(1000) })));
    const f = join(pdir, `${s.id}.jsonl`);
    writeFileSync(f, `${lines.join("\n")}\n`);
    const m = new Date(s.mtime);
    utimesSync(f, m, m);
  }
  return dir;
}

const A = "aaaaaaaa-0000-4000-8000-000000000001";
const B = "bbbbbbbb-0000-4000-8000-000000000002";
const C = "cccccccc-0000-4000-8000-000000000003";

// B was touched last (copied, say) but A has the latest record: the newest is A.
const DIR = configDir([
  { id: A, project: "widget", times: ["2026-11-01T08:00:00.000Z", "2026-11-02T09:30:00.000Z"], mtime: "2026-11-03T00:00:00Z", pad: 300 },
  { id: B, project: "gadget", times: ["2026-10-01T10:00:00.000Z", "2026-11-01T12:00:00.000Z"], mtime: "2026-11-05T00:00:00Z" },
  { id: C, project: "widget", times: ["2026-09-01T10:00:00.000Z"], mtime: "2026-09-01T10:00:01Z" },
]);

test("no target on a terminal: the newest session by last record time, named on stderr", async () => {
  const r = await runCli(["requests", "--claude-dir", DIR, "--json"], { tty: TTY });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, `newest session: ${A} · /home/dev/widget · 2026-11-02T09:30:00.000Z\n`);
  const j = JSON.parse(r.stdout);
  assert.equal(j.inputs[0].path, join(DIR, "projects", "-home-dev-widget", `${A}.jsonl`));
  assert.equal(j.requests.length, 2);
});

test("--redact shortens the id and the home dir in the note as in the document", async () => {
  const r = await runCli(["requests", "--claude-dir", DIR, "--redact", "--json"], { tty: TTY });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "newest session: aaaaaaaa… · ~/widget · 2026-11-02T09:30:00.000Z\n");
  assert.ok(!r.stdout.includes(A));
});

test("the newest session's time is shown in --tz, and TZ from the environment", async () => {
  const r = await runCli(["inventory", "--claude-dir", DIR, "--tz", "Asia/Tokyo", "--json"], { tty: TTY });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /· 2026-11-02T18:30:00\.000\+09:00\n$/);
  const e = await runCli(["inventory", "--claude-dir", DIR, "--json"], { tty: TTY, env: { TZ: "America/New_York" } });
  assert.match(e.stderr, /· 2026-11-02T04:30:00\.000-05:00\n$/);
});

test("--project, --since and --until pick among the sessions; nothing left is a usage error naming the filters", async () => {
  const gadget = await runCli(["requests", "--claude-dir", DIR, "--project", "GADGET", "--json"], { tty: TTY });
  assert.match(gadget.stderr, new RegExp(`^newest session: ${B} `));
  const day = await runCli(["requests", "--claude-dir", DIR, "--until", "2026-11-01", "--json"], { tty: TTY });
  assert.match(day.stderr, new RegExp(`^newest session: ${A} `), "--until a date includes that day; A began on it");
  const before = await runCli(["requests", "--claude-dir", DIR, "--until", "2026-10-31", "--json"], { tty: TTY });
  assert.match(before.stderr, new RegExp(`^newest session: ${B} `), "A began after; B was active then");
  const old = await runCli(["requests", "--claude-dir", DIR, "--until", "2026-10-31", "--project", "widget", "--json"], { tty: TTY });
  assert.match(old.stderr, new RegExp(`^newest session: ${C} `));
  const none = await runCli(["requests", "--claude-dir", DIR, "--since", "2026-11-04"], { tty: TTY });
  assert.equal(none.code, 2);
  assert.equal(none.stdout, "");
  assert.match(none.stderr, /^ccforensics: no target, and no session matching --since 2026-11-04T00:00:00\.000Z under /);
});

test("without times the file's mtime decides, and the note says so", async () => {
  const dir = configDir([
    { id: A, project: "p", times: [], mtime: "2026-01-01T00:00:00Z" },
    { id: B, project: "q", times: [], mtime: "2026-02-01T00:00:00Z" },
  ]);
  const r = await runCli(["requests", "--claude-dir", dir, "--json"], { tty: TTY });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, `newest session: ${B} · /home/dev/q · 2026-02-01T00:00:00.000Z (file time; no record has one)\n`);
});

test("an empty config dir, no target, on a terminal: exit 2 saying where it looked", async () => {
  const empty = mkdtempSync(join(tmpdir(), "ccf-empty-"));
  const r = await runCli(["report", "--claude-dir", empty], { tty: TTY });
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`no target, and no session under ${empty}: give a session id`));
});

test("stdin not a terminal and no target still reads stdin; the filters refuse a path or stdin", async () => {
  const line = rec("assistant", "2026-11-01T00:00:00Z", "/x", "m1");
  const r = await runCli(["requests", "--claude-dir", DIR, "--json"], { stdin: `${line}\n` });
  assert.equal(JSON.parse(r.stdout).inputs[0].path, "-");
  for (const args of [
    ["requests", "--since", "7d"],
    ["requests", sample("basic", "11111111-2222-4333-8444-555555555555.jsonl"), "--project", "x"],
  ]) {
    const bad = await runCli([...args, "--claude-dir", DIR], { stdin: `${line}\n` });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /picks among the sessions under the config dirs; it does not apply to (stdin|a transcript path)/);
  }
});

test("an id prefix shared by two projects is ambiguous; --project narrows it to one", async () => {
  const dir = configDir([
    { id: "dddddddd-0000-4000-8000-000000000001", project: "alpha", times: ["2026-11-01T00:00:00Z"], mtime: "2026-11-01T00:00:01Z" },
    { id: "dddddddd-0000-4000-8000-000000000002", project: "beta", times: ["2026-11-02T00:00:00Z"], mtime: "2026-11-02T00:00:01Z" },
  ]);
  const amb = await runCli(["requests", "dddddddd", "--claude-dir", dir]);
  assert.equal(amb.code, 2);
  assert.match(amb.stderr, /ambiguous/);
  const one = await runCli(["requests", "dddddddd", "--claude-dir", dir, "--project", "beta", "--json"]);
  assert.equal(one.code, 0, one.stderr);
  assert.match(JSON.parse(one.stdout).inputs[0].path, /-home-dev-beta/);
  const gone = await runCli(["requests", "dddddddd", "--claude-dir", dir, "--since", "2026-12-01"]);
  assert.equal(gone.code, 2);
  assert.match(gone.stderr, /matches 2 session\(s\), none of them matching --since/);
});

test("glance reads the first and last times and the cwd from the two ends only", () => {
  const f = join(DIR, "projects", "-home-dev-widget", `${A}.jsonl`);
  const g = glance(f);
  assert.equal(g.cwd, "/home/dev/widget");
  assert.equal(g.first, "2026-11-01T08:00:00.000Z");
  assert.equal(g.last, "2026-11-02T09:30:00.000Z");
  assert.ok(g.bytes > 300_000, "the padding puts the two ends far apart");
});

test("newestSession stops at the first file whose mtime is older than the best time found", () => {
  // C's mtime is before A's last record: it is never opened. A broken C proves it: it would otherwise win.
  const dir = configDir([
    { id: A, project: "w", times: ["2026-11-02T00:00:00Z"], mtime: "2026-11-02T00:00:01Z" },
    { id: C, project: "w", times: ["2030-01-01T00:00:00Z"], mtime: "2026-11-01T00:00:00Z" },
  ]);
  assert.equal(newestSession([dir], {})?.file.id, A);
});
