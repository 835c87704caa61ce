import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onAccess, type AccessOp } from "../../src/sources/guard.js";
import { parseEnvelope, runCli, sample } from "../helpers.js";

const uuid = (n: number) => `5e550000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
const line = (sid: string, n: number, agentId?: string) =>
  JSON.stringify({
    type: "assistant",
    sessionId: sid,
    timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    cwd: "/home/u/p",
    ...(agentId ? { agentId, isSidechain: true } : {}),
    message: { id: `msg_${n}`, usage: { input_tokens: 1, output_tokens: n } },
  });

/** Two projects of three sessions, each with old-layout agent files of different sizes beside it; one with a subagents/ folder too. */
function tree(): string {
  const dir = mkdtempSync(join(tmpdir(), "ccf-sessions-access-"));
  for (let i = 0; i < 6; i++) {
    const project = join(dir, "projects", `-home-u-p${i % 2}`);
    mkdirSync(project, { recursive: true });
    const sid = uuid(i);
    writeFileSync(join(project, `${sid}.jsonl`), `${line(sid, i)}\n`);
    for (let k = 0; k <= i % 3; k++)
      writeFileSync(join(project, `agent-${i}x${k}.jsonl`), `${line(sid, 100 + k, `${i}x${k}`)}\n`.repeat(k + 1));
    if (i === 4) {
      mkdirSync(join(project, sid, "subagents"), { recursive: true });
      writeFileSync(join(project, sid, "subagents", "agent-new.jsonl"), `${line(sid, 200, "new")}\n`);
    }
  }
  return dir;
}

test("sessions lists each project folder once, stats no session file for a progress line nobody sees, and sizes match the files", async () => {
  const dir = tree();
  const seen: Array<[AccessOp, string]> = [];
  onAccess((op, path) => seen.push([op, path]));
  try {
    const j = parseEnvelope(await runCli(["sessions", "--claude-dir", dir, "--json"]), "sessions");
    onAccess(null);
    assert.equal(j.sessions.length, 6);
    for (const p of ["-home-u-p0", "-home-u-p1"]) {
      const listed = seen.filter(([op, path]) => op === "readdir" && path === join(dir, "projects", p));
      assert.equal(listed.length, 1, `${p} listed ${listed.length} times`);
    }
    // Old-layout agent files are opened once (to read their session id) and never stat'ed after; main files are only opened.
    const stats = seen.filter(([op, path]) => op === "stat" && path.endsWith(".jsonl") && !path.includes("subagents"));
    assert.deepEqual(stats, []);
    for (const s of j.sessions) {
      const subs = s.sessionId === uuid(4) ? [join(s.projectDir, s.sessionId, "subagents", "agent-new.jsonl")] : [];
      const i = Number.parseInt(s.sessionId.slice(-12), 16);
      for (let k = 0; k <= i % 3; k++) subs.push(join(s.projectDir, `agent-${i}x${k}.jsonl`));
      assert.equal(s.subagents, subs.length, s.sessionId);
      assert.equal(s.bytes, statSync(s.path).size + subs.reduce((n, p) => n + statSync(p).size, 0), s.sessionId);
    }
  } finally {
    onAccess(null);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a lookup by full id lists no project folder but its own, and finds what a listing would", async () => {
  const dir = tree();
  const seen: Array<[AccessOp, string]> = [];
  onAccess((op, path) => seen.push([op, path]));
  try {
    const j = parseEnvelope(await runCli(["requests", uuid(3), "--claude-dir", dir, "--json"]), "requests");
    onAccess(null);
    assert.equal(j.requests.length, 1 + 1);
    const listed = seen.filter(([op]) => op === "readdir").map(([, p]) => p);
    assert.deepEqual(listed.sort(), [join(dir, "projects"), join(dir, "projects", "-home-u-p1")]);
  } finally {
    onAccess(null);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a full id whose .jsonl is a folder in one project and an orphan in another: the orphan, and the folder listed as skipped", async () => {
  const dir = tree();
  try {
    const sid = uuid(77);
    mkdirSync(join(dir, "projects", "-home-u-p0", `${sid}.jsonl`));
    mkdirSync(join(dir, "projects", "-home-u-p1", sid, "subagents"), { recursive: true });
    writeFileSync(join(dir, "projects", "-home-u-p1", sid, "subagents", "agent-a.jsonl"), `${line(sid, 5, "a")}\n`);
    const r = await runCli(["requests", sid, "--claude-dir", dir, "--json"]);
    const j = parseEnvelope(r, "requests");
    assert.deepEqual(
      j.requests.map((q: { chain: string }) => q.chain),
      ["a"],
    );
    assert.deepEqual(
      j.health.skipped.map((s: { path: string }) => s.path),
      [join(dir, "projects", "-home-u-p0", `${sid}.jsonl`)],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a named config dir that is no directory is said on stderr, for listings only; the defaults are not named", async () => {
  const home = sample("claude-home");
  const missing = join(tmpdir(), "ccf-no-such-config-dir");
  const sessions = await runCli(["sessions", "--claude-dir", missing, "--claude-dir", home, "--json"]);
  assert.equal(sessions.code, 0, sessions.stderr);
  assert.match(sessions.stderr, /--claude-dir .*ccf-no-such-config-dir: no such directory; nothing was listed there/);
  assert.ok(parseEnvelope(sessions, "sessions").sessions.length > 0);
  const file = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");
  const notDir = await runCli(["servers", "--json"], { env: { CLAUDE_CONFIG_DIR: file } });
  assert.equal(notDir.code, 0, notDir.stderr);
  assert.match(notDir.stderr, /CLAUDE_CONFIG_DIR .*: not a directory; nothing was listed there/);
  // A target named: nothing is listed, nothing to say; and the default dirs missing is no news.
  const named = await runCli(["servers", file, "--json"], { env: { CLAUDE_CONFIG_DIR: missing } });
  assert.doesNotMatch(named.stderr, /nothing was listed/);
  assert.doesNotMatch((await runCli(["sessions", "--json"])).stderr, /nothing was listed/);
  // A CLAUDE_CONFIG_DIR of only commas names nothing: the defaults are searched, and not called CLAUDE_CONFIG_DIR.
  const commas = await runCli(["sessions", "--json"], { env: { CLAUDE_CONFIG_DIR: " , ,", HOME: missing } });
  assert.equal(commas.code, 0, commas.stderr);
  assert.doesNotMatch(commas.stderr, /nothing was listed/);
  assert.deepEqual(parseEnvelope(commas, "sessions").searched, [join(missing, ".config", "claude"), join(missing, ".claude")]);
});
