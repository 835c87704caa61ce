import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, sample, type CliResult } from "../helpers.js";

// Every writer (-o, --chart, export --to) goes through one guard (src/output/write-guard.ts); these are the
// holes a review found in the three copies it replaced, each tried on every writer it applies to.

const ID = "abcdef12-0000-4000-8000-000000000001";
const HOME_SAMPLE = sample("claude-home");

/** A scratch folder with a home holding both default config dirs (empty: nothing in them is evidence). */
function scratch(): { dir: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), "ccf-wguard-"));
  const home = join(dir, "home");
  mkdirSync(join(home, ".claude"), { recursive: true });
  mkdirSync(join(home, ".config", "claude"), { recursive: true });
  return { dir, home };
}

function refused(r: CliResult, flag: string, why: RegExp): void {
  assert.equal(r.code, 2, `exit 2 expected\n${r.stderr}`);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, new RegExp(`${flag} .*${why.source}`));
}

const inside = /refusing to write inside the Claude config dir/;

/** The three writers, each aimed at `path` (a file for -o and --chart, a folder for export). */
const writers = (path: string): [string, string[]][] => [
  ["--output", ["requests", ID, "--claude-dir", HOME_SAMPLE, "-o", `${path}.txt`]],
  ["--chart", ["requests", ID, "--claude-dir", HOME_SAMPLE, "--chart", `${path}.svg`]],
  ["--to", ["export", ID, "--claude-dir", HOME_SAMPLE, "--to", path]],
];

test("$HOME/.claude and $HOME/.config/claude are refused to every writer when --claude-dir names another dir", async () => {
  const { home } = scratch();
  for (const base of [join(home, ".claude", "w"), join(home, ".config", "claude", "w")])
    for (const [flag, args] of writers(base)) {
      refused(await runCli(args, { env: { HOME: home } }), flag, inside);
    }
  assert.deepEqual(readdirSync(join(home, ".claude")), []);
  assert.deepEqual(readdirSync(join(home, ".config", "claude")), []);
});

test("every CLAUDE_CONFIG_DIR entry is refused to every writer when --claude-dir is given too", async () => {
  const { dir, home } = scratch();
  const a = join(dir, "env-a");
  const b = join(dir, "env-b");
  mkdirSync(a);
  mkdirSync(b);
  for (const base of [join(a, "w"), join(b, "w")])
    for (const [flag, args] of writers(base))
      refused(await runCli(args, { env: { HOME: home, CLAUDE_CONFIG_DIR: `${a}, ${b}` } }), flag, inside);
  assert.deepEqual(readdirSync(a), []);
  assert.deepEqual(readdirSync(b), []);
});

test("a dangling symlink (or a chain of them) is followed to where the write would land, and that is checked", async () => {
  const { dir, home } = scratch();
  const env = { HOME: home };
  symlinkSync(join(home, ".claude", "via-link.txt"), join(dir, "dangle.txt"));
  symlinkSync(join(home, ".claude", "via-link.svg"), join(dir, "dangle.svg"));
  // dangle2 → dangle1 → ~/.claude/missing-folder: a chain, ending in nothing yet.
  symlinkSync(join(home, ".claude", "missing-folder"), join(dir, "dangle1"));
  symlinkSync(join(dir, "dangle1"), join(dir, "dangle2"));
  // A relative link whose `..` only means ~/.claude once the link before it is followed.
  mkdirSync(join(home, "sub"));
  symlinkSync(join(home, "sub"), join(dir, "tohome"));
  const cases: [string, string[]][] = [
    ["--output", ["requests", ID, "--claude-dir", HOME_SAMPLE, "-o", "dangle.txt"]],
    ["--chart", ["requests", ID, "--claude-dir", HOME_SAMPLE, "--chart", "dangle.svg"]],
    ["--output", ["requests", ID, "--claude-dir", HOME_SAMPLE, "-o", "dangle2/x.txt"]],
    ["--to", ["export", ID, "--claude-dir", HOME_SAMPLE, "--to", "dangle2"]],
    ["--to", ["export", ID, "--claude-dir", HOME_SAMPLE, "--to", "dangle2/deeper"]],
    ["--output", ["requests", ID, "--claude-dir", HOME_SAMPLE, "-o", "tohome/../.claude/up.txt"]],
  ];
  for (const [flag, args] of cases) {
    const r = await runCli(args, { env, cwd: dir });
    refused(r, flag, inside);
    assert.match(r.stderr, /a symlink to .*\.claude/);
  }
  assert.deepEqual(readdirSync(join(home, ".claude")), []);
  // A link into an ordinary folder still writes through to its target.
  mkdirSync(join(dir, "plain"));
  symlinkSync(join(dir, "plain", "doc.txt"), join(dir, "ok.txt"));
  symlinkSync(join(dir, "plain", "g.svg"), join(dir, "ok.svg"));
  const ok = await runCli(["requests", ID, "--claude-dir", HOME_SAMPLE, "-o", "ok.txt", "--chart", "ok.svg"], { env, cwd: dir });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(readFileSync(join(dir, "plain", "doc.txt"), "utf8"), /Requests/);
  assert.match(readFileSync(join(dir, "plain", "g.svg"), "utf8"), /^<svg /);
});

test("a symlink loop as the target is a usage error, not a hang or a write", async () => {
  const { dir, home } = scratch();
  symlinkSync(join(dir, "loop-b.txt"), join(dir, "loop-a.txt"));
  symlinkSync(join(dir, "loop-a.txt"), join(dir, "loop-b.txt"));
  refused(
    await runCli(["requests", ID, "--claude-dir", HOME_SAMPLE, "-o", "loop-a.txt"], { env: { HOME: home }, cwd: dir }),
    "--output",
    /cannot resolve the path/,
  );
});

test("a copied evidence tree, named or not, is refused to every writer (--chart too)", async () => {
  const { dir, home } = scratch();
  const copy = join(dir, "copytree");
  cpSync(HOME_SAMPLE, copy, { recursive: true });
  const project = join(copy, "projects", "-home-dev-my-app");
  const before = readdirSync(project).sort();
  for (const base of [join(project, "w"), join(copy, "w")])
    for (const [flag, args] of writers(base))
      refused(await runCli(args, { env: { HOME: home } }), flag, /which holds Claude Code transcripts/);
  assert.deepEqual(readdirSync(project).sort(), before);
  assert.equal(existsSync(join(copy, "w.svg")), false);
});

test("export writes no table or schema through a symlink planted in its folder: the link is replaced, its target untouched", async () => {
  const { dir, home } = scratch();
  const out = join(dir, "out");
  mkdirSync(out);
  symlinkSync(join(home, ".claude", "schema.json"), join(out, "schema.json"));
  symlinkSync(join(home, ".claude", "sessions.partial"), join(out, "sessions.ndjson.partial"));
  symlinkSync(join(home, ".claude", "requests.ndjson"), join(out, "requests.ndjson"));
  const r = await runCli(["export", ID, "--claude-dir", HOME_SAMPLE, "--to", out, "--as", "ndjson"], { env: { HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readdirSync(join(home, ".claude")), []);
  for (const f of ["schema.json", "sessions.ndjson", "requests.ndjson"]) assert.ok(lstatSync(join(out, f)).isFile(), f);
  assert.equal(existsSync(join(out, "sessions.ndjson.partial")), false);
});

test("~/.CLAUDE is refused to every writer when it cannot be told apart from ~/.claude, and written when it is a folder of its own", async () => {
  // No ~/.claude: on macOS or Windows ~/.CLAUDE is the folder Claude Code would use as ~/.claude.
  const dir = mkdtempSync(join(tmpdir(), "ccf-wguard-case-"));
  const home = join(dir, "home");
  mkdirSync(join(home, ".CLAUDE"), { recursive: true });
  for (const [flag, args] of writers(join(home, ".CLAUDE", "w"))) refused(await runCli(args, { env: { HOME: home } }), flag, inside);
  assert.deepEqual(readdirSync(join(home, ".CLAUDE")), []);
  // Both there, two different folders (this file system tells case apart): ~/.CLAUDE is an ordinary folder.
  mkdirSync(join(home, ".claude"));
  const ok = await runCli(["requests", ID, "--claude-dir", HOME_SAMPLE, "-o", join(home, ".CLAUDE", "w.txt")], { env: { HOME: home } });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(readFileSync(join(home, ".CLAUDE", "w.txt"), "utf8"), /Requests/);
});

test("-o refuses an input by another name: a hard link to the transcript read", async () => {
  const { dir, home } = scratch();
  const file = join(dir, `${ID}.jsonl`);
  cpSync(join(HOME_SAMPLE, "projects", "-home-dev-my-app", `${ID}.jsonl`), file);
  linkSync(file, join(dir, "same.jsonl"));
  const before = readFileSync(file, "utf8");
  refused(
    await runCli(["requests", file, "-o", join(dir, "same.jsonl")], { env: { HOME: home } }),
    "--output",
    /refusing to write over an input/,
  );
  assert.equal(readFileSync(file, "utf8"), before);
});
