import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runCli } from "../helpers.js";
import { onAccess, takeSkipped, type AccessOp } from "../../src/sources/guard.js";
import { newestSession } from "../../src/sources/newest.js";

// An orphan session (FORMATS.md 11): `<id>/subagents/` with no `<id>.jsonl`, its agents at the top level and
// under `workflows/<runId>/` (FORMATS.md 3). The newest-session default must judge it by all of them, as `sessions` does.

const TTY = { stdin: true };
const ORPHAN = "7e570000-0000-4000-8000-000000000001";
const MAIN = "7e570000-9999-4000-8000-000000000009";
const TOP = "agent-aexplore-0123456789abcdef.jsonl";
const WF = "agent-a0123456789abcdef0.jsonl";

/** A subagent transcript as Claude Code 2.1.x writes it: a user prompt, then an assistant reply per time. */
function agent(agentId: string, cwd: string, times: string[]): string {
  const env = { parentUuid: null, isSidechain: true, cwd, sessionId: ORPHAN, version: "2.1.39", agentId };
  return times
    .map((timestamp, i) =>
      JSON.stringify(
        i === 0
          ? { ...env, type: "user", message: { role: "user", content: "Explore it" }, uuid: `u-${agentId}`, timestamp }
          : {
              ...env,
              type: "assistant",
              requestId: `r-${agentId}-${i}`,
              message: {
                id: `m-${agentId}-${i}`,
                model: "m",
                role: "assistant",
                content: [{ type: "text", text: "done" }],
                stop_reason: "end_turn",
                usage: { input_tokens: 5, output_tokens: 1 },
              },
              uuid: `a-${agentId}-${i}`,
              timestamp,
            },
      ),
    )
    .map((l) => `${l}\n`)
    .join("");
}

function put(path: string, text: string, mtime: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  const m = new Date(mtime);
  utimesSync(path, m, m);
}

const T = (s: string) => `2026-05-01T10:00:${s}Z`;

/**
 * Project p: the orphan, its top-level agent last written 10:00:04.5 (before the other session's last record)
 * and a workflow agent with the newest record of all (10:00:06). Project q: a main session, last record 10:00:05.
 */
function tree(opts: { top?: boolean } = {}): { dir: string; subagents: string } {
  const dir = mkdtempSync(join(tmpdir(), "ccf-newest-orphan-"));
  const subagents = join(dir, "projects", "p", ORPHAN, "subagents");
  if (opts.top !== false) {
    put(join(subagents, TOP), agent("aexplore-0123456789abcdef", "/w", [T("01.000"), T("04.000")]), T("04.500"));
    put(join(subagents, TOP.replace(".jsonl", ".meta.json")), '{"agentType":"Explore"}\n', T("01.000"));
  }
  put(join(subagents, "workflows", "wf_1", WF), agent("a0123456789abcdef0", "/w", [T("05.500"), T("06.000")]), T("06.500"));
  const main = {
    type: "user",
    uuid: "u1",
    sessionId: MAIN,
    cwd: "/other",
    message: { role: "user", content: "hi" },
    timestamp: T("05.000"),
  };
  put(join(dir, "projects", "q", `${MAIN}.jsonl`), `${JSON.stringify(main)}\n`, T("07.000"));
  return { dir, subagents };
}

test("orphan: the newest record under subagents/workflows/ ranks it, though its top-level file is older; sessions agrees", async () => {
  const { dir, subagents } = tree();
  const r = await runCli(["requests", "--claude-dir", dir, "--json"], { tty: TTY });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, `newest session: ${ORPHAN} · /w · ${T("06.000")}\n`);
  assert.deepEqual(
    JSON.parse(r.stdout).inputs.map((i: { path: string }) => i.path),
    [join(subagents, TOP), join(subagents, "workflows", "wf_1", WF)],
  );
  const s = JSON.parse((await runCli(["sessions", "--claude-dir", dir, "--json"])).stdout).sessions[0];
  assert.deepEqual([s.sessionId, s.project, s.lastTimestamp], [ORPHAN, "/w", T("06.000")]);
});

test("orphan: --since and --until see the times of all its subagent files", async () => {
  const { dir } = tree();
  // Only the workflow agent's last record (10:00:06) is after 10:00:05.2; only the top-level agent began by 10:00:02.
  const since = await runCli(["requests", "--claude-dir", dir, "--since", T("05.200"), "--json"], { tty: TTY });
  assert.equal(since.code, 0, since.stderr);
  assert.match(since.stderr, new RegExp(`^newest session: ${ORPHAN} `));
  const until = await runCli(["requests", "--claude-dir", dir, "--until", T("02.000"), "--json"], { tty: TTY });
  assert.equal(until.code, 0, until.stderr);
  assert.equal(until.stderr, `newest session: ${ORPHAN} · /w · ${T("06.000")}\n`);
});

test("orphan whose only subagent file is under subagents/workflows/: the newest default and --project find it", async () => {
  const { dir, subagents } = tree({ top: false });
  const r = await runCli(["requests", "--claude-dir", dir, "--json"], { tty: TTY });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, `newest session: ${ORPHAN} · /w · ${T("06.000")}\n`);
  const p = await runCli(["requests", "7e570000", "--project", "/w", "--claude-dir", dir, "--json"]);
  assert.equal(p.code, 0, p.stderr);
  assert.deepEqual(
    JSON.parse(p.stdout).inputs.map((i: { path: string }) => i.path),
    [join(subagents, "workflows", "wf_1", WF)],
  );
  const newest = await runCli(["requests", "--project", "/w", "--claude-dir", dir, "--json"], { tty: TTY });
  assert.match(newest.stderr, new RegExp(`^newest session: ${ORPHAN} `));
  const none = await runCli(["requests", "7e570000", "--project", "/nowhere", "--claude-dir", dir]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /matches 2 session\(s\), none of them matching --project \/nowhere/);
});

test("orphan: a link out of the tree is not followed (and is named), a loop is walked once, each folder listed once", () => {
  const { dir, subagents } = tree();
  // Outside the config dir, a newer agent than any inside: followed, it would rank the orphan at 2030.
  const outside = mkdtempSync(join(tmpdir(), "ccf-newest-outside-"));
  put(join(outside, WF), agent("aoutside", "/elsewhere", ["2030-01-01T00:00:00.000Z"]), "2030-01-01T00:00:01Z");
  symlinkSync(outside, join(subagents, "workflows", "wf_out"));
  symlinkSync("..", join(subagents, "workflows", "loop"));
  takeSkipped();
  const listed: string[] = [];
  onAccess((op: AccessOp, path: string) => op === "readdir" && listed.push(path));
  let picked;
  try {
    picked = newestSession([dir], {});
  } finally {
    onAccess(null);
  }
  const skipped = takeSkipped();
  assert.equal(picked?.file.id, ORPHAN);
  assert.equal(picked?.time, T("06.000"));
  assert.equal(picked?.glance.cwd, "/w");
  assert.equal(picked?.glance.first, T("01.000"));
  assert.deepEqual(
    skipped.map((s) => [s.path, s.reason]),
    [[join(subagents, "workflows", "wf_out"), `real path leaves ${dir}`]],
  );
  assert.deepEqual(
    listed.filter((p) => p.startsWith(subagents)).sort(),
    [subagents, join(subagents, "workflows"), join(subagents, "workflows", "wf_1")],
    "each folder of the orphan's tree listed once",
  );
  assert.equal(listed.filter((p) => p === join(dir, "projects", "p")).length, 1, "each project folder listed once");
});

test("orphan with no transcript under subagents/: not a candidate, and --project on its id is a usage error, not a crash", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-newest-orphan-empty-"));
  mkdirSync(join(dir, "projects", "p", ORPHAN, "subagents", "workflows", "wf_1"), { recursive: true });
  const r = await runCli(["requests", ORPHAN.slice(0, 8), "--project", "p", "--claude-dir", dir]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /matches 1 session\(s\), none of them matching --project p/);
  const none = await runCli(["requests", "--claude-dir", dir], { tty: TTY });
  assert.equal(none.code, 2, none.stderr);
  assert.match(none.stderr, /no target, and no session under /);
});
