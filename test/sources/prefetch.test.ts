import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Prefetch, prefetchTuning } from "../../src/sources/prefetch.js";
import { runCli, sample } from "../helpers.js";

const uuid = (n: number) => `bef0e000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
const rec = (sid: string, n: number) =>
  JSON.stringify({
    type: "assistant",
    sessionId: sid,
    timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    cwd: "/home/u/p",
    message: { id: `msg_${n}`, usage: { input_tokens: 1, output_tokens: n } },
  });

const sha256Of = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

async function withTuning<T>(t: Partial<typeof prefetchTuning>, fn: () => Promise<T>): Promise<T> {
  const saved = { ...prefetchTuning };
  Object.assign(prefetchTuning, t);
  try {
    return await fn();
  } finally {
    Object.assign(prefetchTuning, saved);
  }
}

/** Files of every kind a listed path can turn out to be by the time it is read. */
function files(): { dir: string; paths: string[]; readable: Set<string> } {
  const dir = mkdtempSync(join(tmpdir(), "ccf-prefetch-"));
  const paths: string[] = [];
  const readable = new Set<string>();
  const file = (name: string, body: string | Buffer, read = true) => {
    const p = join(dir, name);
    writeFileSync(p, body);
    paths.push(p);
    if (read) readable.add(p);
  };
  for (let i = 0; i < 40; i++) file(`s${i}.jsonl`, `${rec(uuid(i), i)}\n`.repeat(i % 5));
  file("no-newline.jsonl", rec(uuid(50), 1));
  file("bad-utf8.jsonl", Buffer.from([0xff, 0xfe, 0x0a, 0xc3]));
  file("at-cap.jsonl", "x".repeat(1000));
  file("past-cap.jsonl", "x".repeat(1001), false);
  const fifo = join(dir, "fifo.jsonl");
  execFileSync("mkfifo", [fifo]);
  paths.push(fifo);
  mkdirSync(join(dir, "dir.jsonl"));
  paths.push(join(dir, "dir.jsonl"));
  paths.push(join(dir, "missing.jsonl"));
  symlinkSync(join(dir, "s3.jsonl"), join(dir, "link.jsonl"));
  paths.push(join(dir, "link.jsonl"));
  readable.add(join(dir, "link.jsonl"));
  return { dir, paths, readable };
}

test("Prefetch: the bytes of each small regular file as a read gives them; nothing for the rest, for a path asked twice or not listed", async () => {
  const { dir, paths, readable } = files();
  try {
    await withTuning({ workerMin: 1, batch: 7, ahead: 2, maxFile: 1000 }, async () => {
      const ahead = new Prefetch(paths);
      try {
        for (const p of paths) {
          const got = await ahead.take(p);
          if (readable.has(p)) assert.deepEqual(got, { bytes: readFileSync(p), sha256: sha256Of(p) }, p);
          else assert.equal(got, undefined, p);
        }
        assert.equal(await ahead.take(paths[0]!), undefined);
        assert.equal(await ahead.take(join(dir, "elsewhere.jsonl")), undefined);
      } finally {
        ahead.close();
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("Prefetch: a batch over its byte budget, batches passed over, too few files and a closed prefetch all leave the reading to the caller", async () => {
  const { dir, paths, readable } = files();
  try {
    await withTuning({ workerMin: 1, batch: 10, ahead: 1, maxFile: 1000, maxBatch: 300 }, async () => {
      const ahead = new Prefetch(paths);
      try {
        let got = 0;
        let left = 0;
        for (const p of paths.slice(0, 10)) {
          const b = await ahead.take(p);
          if (b) {
            assert.deepEqual(b, { bytes: readFileSync(p), sha256: sha256Of(p) });
            got++;
          } else if (readable.has(p)) left++;
        }
        // Budget 300: the files up to the one that passes it, the rest read by the caller.
        assert.ok(got > 0 && left > 0, `${got} read ahead, ${left} left`);
        // Batch 3 next: what batches 1 and 2 held is no longer kept.
        assert.deepEqual((await ahead.take(paths[30]!))?.bytes, readFileSync(paths[30]!));
        assert.equal(await ahead.take(paths[15]!), undefined);
      } finally {
        ahead.close();
      }
      const closed = new Prefetch(paths);
      closed.close();
      for (const p of paths.slice(0, 12)) assert.equal(await closed.take(p), undefined);
    });
    await withTuning({ workerMin: paths.length + 1 }, async () => {
      const few = new Prefetch(paths);
      assert.equal(await few.take(paths[1]!), undefined);
      few.close();
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("sessions: main files read ahead on the worker give the same document as read on the main thread", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-prefetch-sessions-"));
  try {
    for (let i = 0; i < 30; i++) {
      const project = join(dir, "projects", `-home-u-p${i % 3}`);
      mkdirSync(project, { recursive: true });
      const sid = uuid(i);
      const body = i === 7 ? "x".repeat(3000) : `${rec(sid, i)}\n${i % 4 === 0 ? "not json\n" : ""}${rec(sid, i + 100)}\n`;
      writeFileSync(join(project, `${sid}.jsonl`), body);
    }
    for (const claudeDir of [dir, sample("claude-home"), sample("subagents", "claude")]) {
      const args = ["sessions", "--claude-dir", claudeDir, "--json"];
      const main = await withTuning({ workerMin: Number.POSITIVE_INFINITY }, () => runCli(args));
      const worker = await withTuning({ workerMin: 1, batch: 4, ahead: 1, maxFile: 2000 }, () => runCli(args));
      assert.equal(main.code, 0, main.stderr);
      assert.deepEqual(worker, main, claudeDir);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
