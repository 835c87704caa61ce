import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, parseEnvelope, runCli } from "../helpers.js";

/** The bench generators (bench/gen-many.mjs), so the test and the measured runs use the same shapes. */
async function generators(): Promise<{ genSubagents(dir: string, n: number): string; genSessions(dir: string, n: number): void }> {
  return import(pathToFileURL(join(ROOT, "bench", "gen-many.mjs")).href);
}

// Not timed: a quadratic join or a listing per session would show as minutes here, not as a failure.
test("2,000 subagent files: every chain read once, the right requests per chain, JSON as JSON.stringify prints it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-scale-"));
  try {
    const main = (await generators()).genSubagents(dir, 2000);
    const r = await runCli(["requests", main, "--json"]);
    const j = parseEnvelope(r, "requests");
    assert.equal(r.stdout, `${JSON.stringify(j, null, 2)}\n`);
    // 1 main chain, 2,000 subagents of two requests, and the 10 of 20 old-layout files that carry this session's id.
    assert.equal(j.inputs.length, 1 + 2000 + 10);
    const perChain = new Map<string, number[]>();
    for (const q of j.requests) perChain.set(q.chain, [...(perChain.get(q.chain) ?? []), q.index]);
    assert.equal(perChain.size, 2011);
    assert.deepEqual(perChain.get("main"), [1]);
    assert.deepEqual(perChain.get("a00000000"), [1, 2]);
    assert.deepEqual(perChain.get("a000007cf"), [1, 2]);
    assert.deepEqual(perChain.get("old1"), [1]);
    assert.equal(perChain.get("old0"), undefined, "an old-layout file of another session was read");
    assert.equal([...perChain.values()].filter((v) => v.length === 2).length, 2000);
    const totals = new Map(j.totals.map((t: any) => [t.chain, t.requests]));
    assert.equal(totals.get("a000003e8"), 2);
    assert.equal(
      j.totals.reduce((n: number, t: any) => n + t.requests, 0),
      1 + 4000 + 10,
    );

    const csv = await runCli(["requests", main, "--format", "csv"]);
    assert.equal(csv.code, 0, csv.stderr);
    const rows = csv.stdout.split("\r\n").filter((l) => l.startsWith("requests:"));
    // One row per request plus one totals row per chain.
    assert.equal(rows.length, 4011 + 2011);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("sessions over 300 sessions with old-layout agent files beside them: each attributed to its own session", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-scale-"));
  try {
    (await generators()).genSessions(dir, 300);
    const j = parseEnvelope(await runCli(["sessions", "--claude-dir", dir, "--json"]), "sessions");
    assert.equal(j.sessions.length, 300);
    for (const s of j.sessions) assert.equal(s.subagents, 2, s.sessionId);
    assert.equal(
      j.sessions.reduce((n: number, s: any) => n + s.requests, 0),
      300,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
