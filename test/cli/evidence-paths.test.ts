import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { onAccess } from "../../src/sources/guard.js";
import { join } from "node:path";
import { runCli, sample } from "../helpers.js";
import { DEMO_ID, scratch, traced } from "./access-trace.js";

/**
 * Values read from evidence (a `claude -p` output's session id, a run.json's paths and session) are never
 * permission to open anything outside the evidence's own tree (REFERENCE.md "Safety"). Each case plants a
 * secret outside the tree, names it from the evidence, and asserts through the guard's access recorder
 * that nothing at or below it was touched (stat, realpath, readdir or open).
 */

function streamWithId(dir: string, id: string): string {
  const text = readFileSync(sample("demo", "claude-p.stream.jsonl"), "utf8").split(DEMO_ID).join(id);
  const f = join(dir, "evil.stream.jsonl");
  writeFileSync(f, text);
  return f;
}

for (const command of ["report", "requests"]) {
  test(`${command} --stream-json: a session_id shaped like a path (absolute or ../..) is never stat'ed or opened, only warned of`, async () => {
    const { dir, secret, home } = scratch("stream-id");
    const work = join(dir, "a", "b");
    mkdirSync(work, { recursive: true });
    for (const id of [join(secret, "passwd"), "../../secret/passwd"]) {
      const stream = streamWithId(dir, id);
      const { r, touched } = await traced([command, "--stream-json", stream, "--format", "json"], { cwd: work, env: { HOME: home } });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(touched(secret), [], `${id}: nothing under the secret folder was touched`);
      const j = JSON.parse(r.stdout);
      assert.deepEqual(
        j.inputs.map((i: { path: string }) => i.path),
        [stream],
        "the stream is the only input",
      );
      assert.deepEqual(j.health.malformed, []);
      assert.doesNotMatch(r.stdout + r.stderr, /root:x:0:0/);
      assert.match(r.stderr, /session id: not a session id: .*never used as a path/);
    }
  });
}

test("report --stream-json: a session id that names a file in the cwd is looked up as an id only, not opened there", async () => {
  const { dir, home } = scratch("stream-cwd");
  const stream = streamWithId(dir, DEMO_ID);
  // The transcript itself, planted in the cwd under the id's name: a path lookup would read it.
  const planted = join(dir, DEMO_ID);
  cpSync(sample("claude-home", "projects", "-tmp-lab-demo", `${DEMO_ID}.jsonl`), planted);
  const { r, touched } = await traced(["report", "--stream-json", stream, "--format", "json"], { cwd: dir, env: { HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(touched(planted), []);
  const j = JSON.parse(r.stdout);
  assert.equal(j.summary.transcriptMissing, true);
  assert.deepEqual(
    j.inputs.map((i: { kind: string }) => i.kind),
    ["stream-json"],
  );
  // And with the config dir that holds it, the id still finds its transcript.
  const found = await runCli(["report", "--stream-json", stream, "--claude-dir", sample("claude-home"), "--format", "json"], {
    cwd: dir,
    env: { HOME: home },
  });
  assert.equal(found.code, 0, found.stderr);
  assert.ok(JSON.parse(found.stdout).inputs.some((i: { path: string }) => i.path.endsWith(`${DEMO_ID}.jsonl`)));
});

test("run's copy of a session: claude's session_id is looked up as an id in the config dir, never copied from a path", async () => {
  const { copySessionTree } = await import("../../src/lab/run-copy.js");
  const { dir, secret, home } = scratch("run-copy");
  const transcript = join(secret, `${DEMO_ID}.jsonl`);
  cpSync(sample("claude-home", "projects", "-tmp-lab-demo", `${DEMO_ID}.jsonl`), transcript);
  const runDir = join(dir, "run");
  mkdirSync(runDir);
  const seen: string[] = [];
  onAccess((op, p) => op === "open" && seen.push(p));
  try {
    for (const id of [transcript, `../secret/${DEMO_ID}.jsonl`, join(secret, "passwd")])
      assert.equal(await copySessionTree(id, runDir, { env: { HOME: home }, cwd: runDir }), null, id);
  } finally {
    onAccess(null);
  }
  assert.deepEqual(seen, []);
  assert.equal(existsSync(join(runDir, "claude")), false, "nothing was copied");
});

test("servers over every session: an orphan session's folder name is looked up as an id, not as a file in the cwd", async () => {
  const { dir, home } = scratch("fleet-orphan");
  const id = "0f0f0f0f-0000-4000-8000-000000000001";
  const subs = join(dir, "cfg", "projects", "-p", id, "subagents");
  mkdirSync(subs, { recursive: true });
  const rec = (sid: string) =>
    JSON.stringify({
      type: "assistant",
      uuid: "a",
      parentUuid: null,
      isSidechain: true,
      agentId: "x",
      sessionId: sid,
      timestamp: "2026-09-14T21:44:04.000Z",
      message: {
        model: "m",
        id: "mm",
        role: "assistant",
        content: [{ type: "text", text: "x" }],
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    });
  writeFileSync(join(subs, "agent-x.jsonl"), `${rec(id)}\n`);
  // A file in the cwd named like the orphan: taken as a path, it would be read as the session.
  const work = join(dir, "work");
  mkdirSync(work);
  writeFileSync(join(work, id), `${rec(id)}\n`);
  const { r, touched } = await traced(["servers", "--claude-dir", join(dir, "cfg"), "--format", "json"], {
    cwd: work,
    env: { HOME: home },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(touched(join(work, id)), []);
});
