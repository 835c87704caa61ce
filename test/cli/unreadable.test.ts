import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BIN, runCli, runCliSpawned, sample, spawnCollect, type CliResult } from "../helpers.js";

/**
 * Files and folders that are there but may not be read. chmod 000 means nothing to root, so as root the
 * CLI runs as `nobody` (runuser); as anyone else it runs as itself.
 */
const root = process.getuid?.() === 0;
const runuser = root && spawnSync("runuser", ["-u", "nobody", "--", process.execPath, BIN, "--version"]).status === 0;
const why = root && !runuser ? "running as root without a runuser that lets nobody run dist/cli.js: chmod 000 cannot be tested" : false;

/** `noStdin`: stdin is /dev/null, a character device, so no target means the newest session. */
function asOther(args: string[], noStdin = false): Promise<CliResult> {
  const env = { PATH: process.env.PATH, TZ: "UTC", NO_COLOR: "1", HOME: join(tmpdir(), "ccf-no-home") };
  const stdin = noStdin ? undefined : "";
  if (!root) return noStdin ? spawnCollect(process.execPath, [BIN, ...args], { cwd: tmpdir(), env, stdin }) : runCliSpawned(args, { env });
  return spawnCollect("runuser", ["-u", "nobody", "--", process.execPath, BIN, ...args], { cwd: tmpdir(), env, stdin });
}

/** A copy of samples/claude-home that everyone may read (mkdtemp makes 0700 folders). */
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), "ccf-unreadable-"));
  cpSync(sample("claude-home"), join(dir, "home"), { recursive: true });
  cpSync(join(sample("basic"), "11111111-2222-4333-8444-555555555555.jsonl"), join(dir, "t.jsonl"));
  cpSync(join(sample("claude-home"), "debug", "c0ffee00-1111-4222-8333-444444444444.txt"), join(dir, "d.txt"));
  const open = (p: string) => {
    const st = statSync(p);
    chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
    if (st.isDirectory()) for (const f of readdirSync(p)) open(join(p, f));
  };
  open(dir);
  return dir;
}

const project = (dir: string) => join(dir, "home", "projects", "-home-dev-my-app");
const first = (dir: string) => join(project(dir), "abcdef12-0000-4000-8000-000000000001.jsonl");

/** A one-line message naming the path and the reason, no stack trace. */
function oneLine(r: CliResult, path: string): void {
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.ok(lines[0]!.includes(`cannot read ${path}`), r.stderr);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
}

test(
  "a named file that cannot be read is a runtime failure (exit 1, one line); a missing one stays a usage error",
  { skip: why },
  async () => {
    const dir = home();
    try {
      chmodSync(join(dir, "t.jsonl"), 0);
      chmodSync(join(dir, "d.txt"), 0);
      const t = join(dir, "t.jsonl");
      const d = join(dir, "d.txt");
      for (const [args, path] of [
        [["requests", t], t],
        [["debug", d], d],
        [["report", "--debug-file", d, sample("basic", "11111111-2222-4333-8444-555555555555.jsonl")], d],
        [["servers", t], t],
      ] as const) {
        const r = await asOther([...args]);
        assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
        assert.equal(r.stdout, "");
        oneLine(r, path);
        assert.match(r.stderr, /EACCES|permission denied/);
      }
      const missing = await asOther(["requests", join(dir, "nope.jsonl")]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /no such file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("a session found by id whose file cannot be read is exit 1 with the file named", { skip: why }, async () => {
  const dir = home();
  try {
    chmodSync(first(dir), 0);
    const r = await asOther(["requests", "abcdef12-0000-4000-8000-000000000001", "--claude-dir", join(dir, "home")]);
    assert.equal(r.code, 1, r.stderr);
    oneLine(r, first(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("sessions and servers skip a transcript that cannot be read, say so, and list the rest", { skip: why }, async () => {
  const dir = home();
  try {
    chmodSync(first(dir), 0);
    for (const command of ["sessions", "servers"]) {
      const r = await asOther([command, "--claude-dir", join(dir, "home"), "--json"]);
      assert.equal(r.code, 0, `${command}: ${r.stderr}`);
      const j = JSON.parse(r.stdout);
      assert.equal(j.command, command);
      assert.equal(j.sessions.length, 2, command);
      assert.deepEqual(
        j.health.skipped.map((s: { path: string }) => s.path),
        [first(dir)],
      );
      assert.match(j.health.skipped[0].reason, /^cannot read: EACCES/);
      assert.match(r.stderr, /skipped 1 discovered file, not read: .*abcdef12-0000-4000-8000-000000000001\.jsonl \(cannot read: EACCES/);
      assert.doesNotMatch(r.stderr, /internal error/);
    }
    // --strict is about malformed lines; a skipped file is said, as every skip is, and the run still succeeds.
    const strict = await asOther(["sessions", "--claude-dir", join(dir, "home"), "--strict", "--json"]);
    assert.equal(strict.code, 0, strict.stderr);
    assert.equal(JSON.parse(strict.stdout).health.skipped.length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  "a project folder that cannot be listed is named on stderr, in health.skipped and in 'no session matches'",
  { skip: why },
  async () => {
    const dir = home();
    try {
      chmodSync(project(dir), 0);
      const r = await asOther(["sessions", "--claude-dir", join(dir, "home"), "--json"]);
      assert.equal(r.code, 0, r.stderr);
      const j = JSON.parse(r.stdout);
      assert.equal(j.sessions.length, 1);
      assert.deepEqual(j.health.skipped, [{ path: project(dir), reason: "cannot list folder: EACCES: permission denied" }]);
      assert.match(r.stderr, /skipped 1 folder that could not be listed, not read: .*-home-dev-my-app \(cannot list folder: EACCES/);

      const table = await asOther(["sessions", "--claude-dir", join(dir, "home")]);
      assert.match(table.stdout, /Skipped files/);

      const lookup = await asOther(["requests", "abcdef12-0000", "--claude-dir", join(dir, "home")]);
      assert.equal(lookup.code, 2, lookup.stderr);
      assert.match(lookup.stderr, /no session matches "abcdef12-0000"; searched:/);
      assert.ok(lookup.stderr.includes(`not searched ${project(dir)}: cannot list folder: EACCES`), lookup.stderr);
      // Only the folder that blocked the search is named, not the paths below it that could not be tried.
      assert.doesNotMatch(lookup.stderr, /subagents/);

      // The projects folder itself, and the config dir, likewise.
      chmodSync(project(dir), 0o755);
      chmodSync(join(dir, "home", "projects"), 0);
      const projects = JSON.parse((await asOther(["sessions", "--claude-dir", join(dir, "home"), "--json"])).stdout);
      assert.deepEqual(
        projects.health.skipped.map((s: { path: string }) => s.path),
        [join(dir, "home", "projects")],
      );
      chmodSync(join(dir, "home", "projects"), 0o755);
      chmodSync(join(dir, "home"), 0);
      const config = JSON.parse((await asOther(["servers", "--claude-dir", join(dir, "home"), "--json"])).stdout);
      assert.deepEqual(
        config.health.skipped.map((s: { path: string }) => s.path),
        [join(dir, "home")],
      );
    } finally {
      chmodSync(join(dir, "home"), 0o755);
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  "an I/O error while reading (/proc/self/mem: EIO) is one line naming the file, exit 1, no stack trace",
  { skip: !existsSync("/proc/self/mem") && "no /proc/self/mem here" },
  async () => {
    for (const args of [
      ["requests", "/proc/self/mem"],
      ["debug", "/proc/self/mem"],
      ["report", "/proc/self/mem"],
    ]) {
      const r = await runCli(args);
      assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stderr, "ccforensics: cannot read /proc/self/mem: EIO: i/o error, read\n");
    }
  },
);

test(
  "an orphan session with a subagent file that cannot be read is not the newest session: it is passed over and the file named, as sessions passes it over",
  { skip: why },
  async () => {
    const dir = home();
    try {
      // Newer than every sample session, one agent at the top of subagents/ and one under workflows/.
      const id = "0e0e0e0e-0000-4000-8000-000000000001";
      const subagents = join(project(dir), id, "subagents");
      const line = (agentId: string, t: string) =>
        `${JSON.stringify({ parentUuid: null, isSidechain: true, cwd: "/home/dev/my-app", sessionId: id, agentId, type: "user", message: { role: "user", content: "go" }, uuid: `u-${agentId}`, timestamp: t })}\n`;
      const locked = join(subagents, "workflows", "wf_1", "agent-a2.jsonl");
      mkdirSync(dirname(locked), { recursive: true });
      writeFileSync(join(subagents, "agent-a1.jsonl"), line("a1", "2030-01-01T00:00:00.000Z"));
      writeFileSync(locked, line("a2", "2030-01-02T00:00:00.000Z"));
      for (const d of [join(project(dir), id), subagents, join(subagents, "workflows"), dirname(locked)]) chmodSync(d, 0o755);
      chmodSync(join(subagents, "agent-a1.jsonl"), 0o644);
      const readable = await asOther(["requests", "--claude-dir", join(dir, "home"), "--json"], true);
      assert.match(readable.stderr, new RegExp(`^newest session: ${id} · /home/dev/my-app · 2030-01-02T00:00:00.000Z`), readable.stderr);
      chmodSync(locked, 0);
      const r = await asOther(["requests", "--claude-dir", join(dir, "home"), "--json"], true);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /^newest session: c0ffee00-1111-4222-8333-444444444444 /);
      assert.ok(r.stderr.includes(`skipped 1 discovered file, not read: ${locked} (not read to find the newest session: `), r.stderr);
      const s = JSON.parse((await asOther(["sessions", "--claude-dir", join(dir, "home"), "--json"])).stdout);
      assert.equal(
        s.sessions.some((x: { sessionId: string }) => x.sessionId === id),
        false,
      );
      assert.deepEqual(
        s.health.skipped.map((x: { path: string }) => x.path),
        [locked],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
