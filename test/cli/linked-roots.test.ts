import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli } from "../helpers.js";

// A config dir the user linked together (~/.claude into a dotfiles repo, projects/ on another disk, one project
// folder elsewhere again). The config dir itself is followed wherever it links; its projects/ and project folders
// leading out of it only with --follow-links (a copied evidence tree could plant them), else they are skipped and
// said with the flag named. With the flag every command follows them alike; links planted below a project folder
// that lead out of the tree are skipped and said, and no write may land in any of the linked folders either way.

const A = "a1a1a1a1-0000-4000-8000-000000000001";
const B = "b2b2b2b2-0000-4000-8000-000000000002";
const C = "c3c3c3c3-0000-4000-8000-000000000003";
const SECRET = "SECRET-LINKED-7c1e";

function session(id: string, cwd: string, at: string, agentId?: string): string {
  const env = (i: number) => ({
    sessionId: id,
    cwd,
    version: "2.1.30",
    isSidechain: agentId !== undefined,
    ...(agentId !== undefined ? { agentId } : {}),
    uuid: `${id}-${agentId ?? "m"}-${i}`,
    timestamp: new Date(Date.parse(at) + i * 1000).toISOString(),
  });
  const recs = [
    { ...env(1), type: "user", message: { role: "user", content: "hello" } },
    {
      ...env(2),
      type: "assistant",
      requestId: `req_${id.slice(0, 4)}${agentId ?? ""}`,
      message: {
        id: `msg_${id.slice(0, 4)}${agentId ?? ""}`,
        role: "assistant",
        model: "claude-opus-4-6",
        content: [{ type: "text", text: "ok" }],
        usage: { input_tokens: 3, output_tokens: 5 },
      },
    },
  ];
  return recs.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

let T: string;
let home: string;
let beta: string;
let disk: string;

before(() => {
  T = realpathSync(mkdtempSync(join(tmpdir(), "ccf-linked-")));
  home = join(T, "home");
  const dotfiles = join(T, "dotfiles", "claude");
  disk = join(T, "disk", "projects");
  beta = join(T, "other", "beta");
  const outside = join(T, "outside");
  mkdirSync(home, { recursive: true });
  mkdirSync(dotfiles, { recursive: true });
  mkdirSync(join(disk, "-home-dev-alpha", A, "subagents"), { recursive: true });
  mkdirSync(join(beta, B, "subagents"), { recursive: true });
  mkdirSync(outside, { recursive: true });
  // ~/.claude -> dotfiles/claude; its projects/ -> disk/projects; one project folder -> other/beta.
  symlinkSync(dotfiles, join(home, ".claude"));
  symlinkSync(disk, join(dotfiles, "projects"));
  symlinkSync(beta, join(disk, "-home-dev-beta"));
  writeFileSync(join(disk, "-home-dev-alpha", `${A}.jsonl`), session(A, "/home/dev/alpha", "2026-11-01T10:00:00Z"));
  writeFileSync(
    join(disk, "-home-dev-alpha", A, "subagents", "agent-x1.jsonl"),
    session(A, "/home/dev/alpha", "2026-11-01T10:00:10Z", "x1"),
  );
  writeFileSync(join(beta, `${B}.jsonl`), session(B, "/home/dev/beta", "2026-11-02T10:00:00Z"));
  writeFileSync(join(beta, B, "subagents", "agent-y1.jsonl"), session(B, "/home/dev/beta", "2026-11-02T10:00:10Z", "y1"));
  // Planted below the linked project folder: links out of every root the user chose.
  writeFileSync(join(outside, "agent-evil.jsonl"), `${JSON.stringify({ type: "user", sessionId: B, message: { content: SECRET } })}\n`);
  writeFileSync(join(outside, "c.jsonl"), `${JSON.stringify({ type: "user", sessionId: C, message: { content: SECRET } })}\n`);
  symlinkSync(join(outside, "agent-evil.jsonl"), join(beta, B, "subagents", "agent-evil.jsonl"));
  symlinkSync(join(outside, "c.jsonl"), join(beta, `${C}.jsonl`));
  // Loops and a dangling project folder: skipped, each named.
  symlinkSync(join(disk, "-loop"), join(disk, "-loop"));
  symlinkSync("..", join(disk, "-up"));
  symlinkSync(join(T, "unmounted", "gamma"), join(disk, "-home-dev-gamma"));
});
after(() => rmSync(T, { recursive: true, force: true }));

const SKIPPED = ["-loop", "-up", "-home-dev-gamma", `${C}.jsonl`, "agent-evil.jsonl"];

function assertSkipped(j: Record<string, any>, stderr: string, what: string, names = SKIPPED): void {
  const paths = (j.health.skipped ?? []).map((s: { path: string }) => s.path.slice(s.path.lastIndexOf("/") + 1));
  for (const n of names) assert.ok(paths.includes(n), `${what}: ${n} not listed in health.skipped: ${paths.join(", ")}`);
  const lines = stderr.split("\n").filter((l) => l.includes("skipped"));
  assert.equal(lines.length, 1, `${what}: one stderr line names the skipped links: ${stderr}`);
  assert.ok(!stderr.includes(SECRET), `${what}: the secret leaked`);
}

/** The three ways a config dir is named, each with its args and env (made once the fixture is built). */
const ways = (): Array<[string, string[], NodeJS.ProcessEnv]> => [
  ["HOME", [], { HOME: home }],
  ["--claude-dir", ["--claude-dir", join(home, ".claude")], {}],
  ["CLAUDE_CONFIG_DIR", [], { CLAUDE_CONFIG_DIR: join(home, ".claude") }],
];

test("without --follow-links: the linked config dir is followed, its projects/ leading out of it is skipped and said with the flag", async () => {
  for (const [what, args, env] of ways()) {
    const r = await runCli(["sessions", ...args, "--json"], { env });
    const j = parseEnvelope(r, "sessions");
    assert.deepEqual(j.sessions, [], what);
    assert.deepEqual(
      j.health.skipped,
      [
        {
          path: join(home, ".claude", "projects"),
          reason: `cannot list folder: a symlink to ${disk}, outside the config dir; not followed (--follow-links reads it)`,
        },
      ],
      what,
    );
    const lines = r.stderr.split("\n").filter((l) => l.includes("skipped"));
    assert.equal(lines.length, 1, `${what}: ${r.stderr}`);
    assert.match(lines[0]!, /projects \(cannot list folder: a symlink to .*--follow-links reads it\)/, what);
    assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), `${what}: the secret leaked`);
  }
  // A lookup by id finds nothing and names the folder it did not search; the newest-session lookup too.
  const env = { HOME: home };
  const byId = await runCli(["requests", B, "--json"], { env });
  assert.equal(byId.code, 2, byId.stderr);
  assert.match(byId.stderr, /not searched .*\/\.claude\/projects: cannot list folder: a symlink to .*--follow-links reads it/);
  const newest = await runCli(["requests", "--json"], { env, tty: { stdin: true } });
  assert.equal(newest.code, 2, newest.stderr);
  assert.match(newest.stderr, /not searched .*\/\.claude\/projects: .*--follow-links reads it/);
});

test("with --follow-links: linked config dir, projects/ and project folder are followed from --claude-dir, CLAUDE_CONFIG_DIR and ~/.claude", async () => {
  for (const [what, args, env] of ways()) {
    const r = await runCli(["sessions", ...args, "--follow-links", "--json"], { env });
    const j = parseEnvelope(r, "sessions");
    assert.deepEqual(
      j.sessions.map((s: any) => [s.sessionId, s.subagents]),
      [
        [B, 1],
        [A, 1],
      ],
      what,
    );
    assert.ok(!r.stdout.includes(SECRET), `${what}: the secret leaked`);
    assertSkipped(j, r.stderr, what);
  }
});

test("linked roots with --follow-links: lookup by id and prefix, the newest session, servers and export find the same sessions", async () => {
  const env = { HOME: home };
  const F = "--follow-links";
  const byId = parseEnvelope(await runCli(["requests", B, F, "--json"], { env }), "requests");
  assert.deepEqual(
    byId.inputs.map((i: { path: string }) => i.path),
    [
      join(home, ".claude", "projects", "-home-dev-beta", `${B}.jsonl`),
      join(home, ".claude", "projects", "-home-dev-beta", B, "subagents", "agent-y1.jsonl"),
    ],
  );
  const byPrefix = parseEnvelope(await runCli(["requests", A.slice(0, 8), F, "--json"], { env }), "requests");
  assert.equal(byPrefix.inputs[0].path, join(home, ".claude", "projects", "-home-dev-alpha", `${A}.jsonl`));
  const newest = await runCli(["requests", F, "--json"], { env, tty: { stdin: true } });
  assert.equal(newest.code, 0, newest.stderr);
  assert.match(newest.stderr, new RegExp(`newest session: ${B}`));
  // The linked-out session is named when asked for, as a file passed over.
  const gone = await runCli(["requests", C, F, "--json"], { env });
  assert.equal(gone.code, 2);
  assert.match(gone.stderr, new RegExp(`skipped .*${C}\\.jsonl: real path leaves`));
  assert.ok(!gone.stderr.includes(SECRET));

  const servers = await runCli(["servers", F, "--json"], { env });
  const sj = parseEnvelope(servers, "servers");
  assert.deepEqual(sj.sessions.map((s: any) => s.sessionId).sort(), [A, B]);
  assertSkipped(sj, servers.stderr, "servers");

  const out = join(T, "export");
  const ex = await runCli(["export", "--to", out, "--as", "ndjson", F, "--json"], { env });
  const ej = parseEnvelope(ex, "export");
  assertSkipped(ej, ex.stderr, "export");
  const rows = readFileSync(join(out, "sessions.ndjson"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((r) => r.session_id ?? r.sessionId).sort(), [A, B]);
  assert.ok(!readFileSync(join(out, "requests.ndjson"), "utf8").includes(SECRET));
});

test("linked roots: no output may land in a folder the config dir links to, by any name, with --follow-links or without", async () => {
  const env = { HOME: home };
  for (const flag of [[], ["--follow-links"]])
    for (const target of [
      join(beta, "out.json"),
      join(disk, "out.json"),
      join(disk, "-home-dev-alpha", "out.json"),
      join(home, ".claude", "projects", "out.json"),
    ]) {
      const r = await runCli(["sessions", ...flag, "--json", "-o", target], { env });
      assert.equal(r.code, 2, `${flag.join("")} ${target}: ${r.stderr}`);
      assert.match(r.stderr, /refusing to write inside the Claude config dir/, target);
      assert.equal(existsSync(target), false, target);
    }
  // Through a link of the user's own that resolves into the linked project folder: refused too.
  symlinkSync(beta, join(T, "shortcut"));
  const r = await runCli(["sessions", "--json", "-o", join(T, "shortcut", "x.json")], { env });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /-home-dev-beta is a symlink to/);
  const ok = await runCli(["sessions", "--json", "-o", join(T, "ok.json")], { env });
  assert.equal(ok.code, 0, ok.stderr);
  assert.ok(existsSync(join(T, "ok.json")));
});

test("--follow-links lasts one command run: the next run in the same process skips the links again", async () => {
  const env = { HOME: home };
  const on = parseEnvelope(await runCli(["sessions", "--follow-links", "--json"], { env }), "sessions");
  assert.equal(on.sessions.length, 2);
  const off = parseEnvelope(await runCli(["sessions", "--json"], { env }), "sessions");
  assert.deepEqual(off.sessions, []);
  assert.match(off.health.skipped[0].reason, /--follow-links reads it/);
});
