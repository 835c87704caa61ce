import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peekFile } from "../../src/sources/peek.js";
import { PeekPool, peekTuning } from "../../src/sources/peek-pool.js";
import { runCli } from "../helpers.js";

const uuid = (n: number) => `9ee90000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
const rec = (sid: string | undefined, n: number, key = "sessionId") =>
  JSON.stringify({
    type: "assistant",
    ...(sid ? { [key]: sid } : {}),
    timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    cwd: "/home/u/p",
    message: { id: `msg_${n}`, usage: { input_tokens: 1, output_tokens: n } },
  });

/**
 * Old-layout agent files of every shape the peek meets: plain, after a BOM, in snake case, after a
 * malformed or id-less line, past the 64 KiB peek (read on by the stream), CRLF, invalid UTF-8, empty,
 * of a session with no main file, a link inside the tree, a link out of it, a FIFO, a folder.
 */
function tree(): { dir: string; agentFiles: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "ccf-peek-pool-"));
  const outside = mkdtempSync(join(tmpdir(), "ccf-peek-pool-outside-"));
  writeFileSync(join(outside, "agent-x.jsonl"), `${rec(uuid(0), 1)}\n`);
  const agentFiles: string[] = [];
  for (let i = 0; i < 4; i++) {
    const project = join(dir, "projects", `-home-u-p${i % 2}`);
    mkdirSync(project, { recursive: true });
    const sid = uuid(i);
    writeFileSync(join(project, `${sid}.jsonl`), `${rec(sid, i)}\n`);
    const agent = (name: string, text: string | Buffer) => {
      const p = join(project, `agent-${i}${name}.jsonl`);
      writeFileSync(p, text);
      agentFiles.push(p);
    };
    agent("plain", `${rec(sid, 10)}\n${rec(sid, 11)}\n`);
    agent("bom", `\ufeff${rec(sid, 12)}\n`);
    agent("snake", `${rec(sid, 13, "session_id")}\n`);
    agent("after-bad", `not json\n${rec(undefined, 14)}\n${rec(sid, 15)}\n`);
    agent("far", `${JSON.stringify({ type: "user", pad: "x".repeat(70_000) })}\n${rec(sid, 16)}\n`);
    agent("crlf", `${rec(sid, 17)}\r\n`);
    agent("bad-utf8", Buffer.concat([Buffer.from(`${rec(sid, 18)}\n`), Buffer.from([0xff, 0xfe, 0x0a])]));
    agent("empty", "");
    agent("no-newline", rec(sid, 19));
    agent("orphan", `${rec(uuid(99), 20)}\n`);
    if (i === 0) {
      symlinkSync(join(project, `agent-${i}plain.jsonl`), join(project, "agent-link-in.jsonl"));
      symlinkSync(join(outside, "agent-x.jsonl"), join(project, "agent-link-out.jsonl"));
      execFileSync("mkfifo", [join(project, "agent-fifo.jsonl")]);
      mkdirSync(join(project, "agent-dir.jsonl"));
    }
  }
  return { dir, agentFiles };
}

async function sessionsWith(workerMin: number, dir: string) {
  const saved = peekTuning.workerMin;
  peekTuning.workerMin = workerMin;
  try {
    return await runCli(["sessions", "--claude-dir", dir, "--json"]);
  } finally {
    peekTuning.workerMin = saved;
  }
}

test("sessions: old-layout agent files peeked on the worker give the same document as peeked inline", async () => {
  const { dir } = tree();
  try {
    const inline = await sessionsWith(Number.POSITIVE_INFINITY, dir);
    const worker = await sessionsWith(1, dir);
    assert.equal(inline.code, 0, inline.stderr);
    assert.deepEqual(worker, inline);
    const j = JSON.parse(inline.stdout);
    // Eight files in each session name it in a way the peek or the stream finds; the link inside adds one to session 0.
    // The "orphan" files name a session with no main file: in each project folder it is a session of its two (main file missing).
    assert.deepEqual(
      j.sessions.map((s: { subagents: number; mainFileMissing: boolean }) => [s.subagents, s.mainFileMissing]),
      j.sessions.map((s: { sessionId: string }) => (s.sessionId === uuid(99) ? [2, true] : [s.sessionId === uuid(0) ? 9 : 8, false])),
    );
    assert.equal(j.sessions.filter((s: { sessionId: string }) => s.sessionId === uuid(99)).length, 2);
    assert.ok(j.health.skipped.some((s: { path: string }) => s.path.endsWith("agent-link-out.jsonl")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("PeekPool: batches come back in order, equal to peekFile; after close, and for batches still out, peeks run inline", async () => {
  const { dir, agentFiles } = tree();
  try {
    const want = agentFiles.map(peekFile);
    const pool = new PeekPool();
    const halves = [agentFiles.slice(0, 7), agentFiles.slice(7), []];
    const got = await Promise.all(halves.map((h) => pool.peek(h)));
    assert.deepEqual(got.flat(), want);
    const out = pool.peek(agentFiles);
    pool.close();
    assert.deepEqual(await out, want);
    assert.deepEqual(await pool.peek(agentFiles.slice(0, 3)), want.slice(0, 3));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("peekFile: the size without an fstat is the file's size on either side of the 64 KiB peek, and what is no file reads as nothing", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-peek-size-"));
  try {
    const sid = uuid(5);
    const first = `${rec(sid, 1)}\n`;
    const cases: Array<[string, number]> = [];
    for (const size of [0, 1, first.length, 65_535, 65_536, 65_537, 200_000]) {
      const p = join(dir, `agent-${size}.jsonl`);
      const body = size < first.length ? first.slice(0, size) : first + "x".repeat(size - first.length);
      writeFileSync(p, body);
      cases.push([p, size]);
    }
    for (const [p, size] of cases) {
      const peek = peekFile(p);
      assert.equal(peek.bytes, size, p);
      assert.equal(statSync(p).size, size);
      // A complete first line names the session; a cut one does not.
      assert.equal(peek.id, size >= first.length ? sid : undefined, p);
    }
    execFileSync("mkfifo", [join(dir, "agent-fifo.jsonl")]);
    mkdirSync(join(dir, "agent-dir.jsonl"));
    assert.deepEqual(peekFile(join(dir, "agent-fifo.jsonl")), { id: undefined, bytes: 0 });
    assert.deepEqual(peekFile(join(dir, "agent-dir.jsonl")), { id: undefined, bytes: 0 });
    assert.deepEqual(peekFile(join(dir, "agent-missing.jsonl")), { id: undefined, bytes: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
