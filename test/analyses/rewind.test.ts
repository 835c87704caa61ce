import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { requestsAnalysis } from "../../src/analyses/requests.js";
import { Fanout } from "../../src/analyses/analysis.js";
import { readRecords } from "../../src/pipeline/runner.js";
import { emptyHealth } from "../../src/records/health.js";
import { transcriptSource } from "../../src/records/transcript-source.js";
import type { InputFile } from "../../src/sources/input.js";
import { MAX_SLOTS, PathTable, RequestRing, UNKNOWN } from "../../src/analyses/uuid-paths.js";
import { assistant, jsonl, toolResult, userText } from "../builders.js";

async function run(chains: Record<string, string>) {
  const fan = new Fanout({ requests: requestsAnalysis });
  const inputs: InputFile[] = Object.keys(chains).map((c) => ({ path: "-", kind: "transcript", bytes: 0, sha256: "", chain: c }));
  for (const input of inputs) {
    for await (const r of readRecords(input, transcriptSource, emptyHealth(), {
      stdin: Readable.from([Buffer.from(chains[input.chain!]!)]),
    }))
      fan.step(r);
  }
  const r = fan.finish().requests;
  return { ...r, requests: r.requests.toArray() };
}

/** Usage whose total input is `total` (all cache read but 3). */
const sized = (total: number) => ({
  input_tokens: 3,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: total - 3,
  output_tokens: 20,
});
const link = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid });
const ask = (uuid: string, parentUuid: string | null, text: string) => userText(text, link(uuid, parentUuid));
const answer = (uuid: string, parentUuid: string, total: number, blocks?: unknown[]) =>
  assistant({ usage: sized(total), blocks, stop: blocks ? "tool_use" : "end_turn", extra: link(uuid, parentUuid) });
const call = (id: string) => [{ type: "tool_use", id, name: "Bash", input: { command: "npm test" } }];

/** P1 → R1 (Bash T1) → result → R2 → P2 → R3 (Bash T2) → a 5,000-char result; then the user rewinds to R2's answer. */
const BEFORE_REWIND = [
  ask("u1", null, "why does it fail?"),
  answer("a1", "u1", 1000, call("T1")),
  toolResult("T1", "x".repeat(300), link("u2", "a1")),
  answer("a2", "u2", 1200),
  ask("u3", "a2", "now rewrite it"),
  answer("a3", "u3", 1500, call("T2")),
  toolResult("T2", "y".repeat(5000), link("u4", "a3")),
];

test("rewind: the request after it takes its delta and added from the nearest request on its own path, not the one before it in the file", async () => {
  const r = await run({ main: jsonl(...BEFORE_REWIND, ask("u5", "a2", "other"), answer("a4", "u5", 1250)) });
  const q = r.requests[3]!;
  // In file order this was 1250 − 1500 = −250 with the 5,000-char result as added.
  assert.equal(q.deltaTokens, 50);
  assert.equal(q.afterCompaction, false);
  assert.equal(q.compaction?.kind, "rewind");
  assert.equal(q.compaction?.baseIndex, 2);
  assert.equal(q.compaction?.line, 8, "the rewind shows at the first record of the new branch");
  assert.equal(q.added.toolResults, 0);
  assert.equal(q.added.toolResultChars, 0);
  assert.equal(q.added.userTextChars, "other".length);
  assert.equal(r.abandoned.has("T2"), true, "the result on the abandoned branch is carried by no request");
  assert.equal(r.abandoned.has("T1"), false);
  // The rows before it are as written; the segment does not move (a rewind is no compaction).
  assert.deepEqual(
    r.requests.map((x) => [x.deltaTokens, x.compaction?.kind ?? null, x.segment]),
    [
      [null, null, 1],
      [200, null, 1],
      [300, null, 1],
      [50, "rewind", 1],
    ],
  );
  // A request that continues the new branch is a plain one again.
  const more = await run({
    main: jsonl(...BEFORE_REWIND, ask("u5", "a2", "other"), answer("a4", "u5", 1250), ask("u6", "a4", "and?"), answer("a5", "u6", 1300)),
  });
  assert.deepEqual([more.requests[4]!.deltaTokens, more.requests[4]!.compaction], [50, null]);
});

test("rewind: parallel tool results written as siblings (each under its own call's fragment) are no rewind", async () => {
  const r = await run({
    main: jsonl(
      ask("u1", null, "look"),
      assistant({ id: "msg_P", usage: sized(1000), stop: null, blocks: call("T1"), extra: link("a1", "u1") }),
      assistant({ id: "msg_P", usage: sized(1000), stop: "tool_use", blocks: call("T2"), extra: link("a1b", "a1") }),
      toolResult("T1", "one", link("u2", "a1")),
      toolResult("T2", "two", link("u3", "a1b")),
      answer("a2", "u3", 1100),
    ),
  });
  assert.equal(r.requests[1]!.compaction, null);
  assert.equal(r.requests[1]!.deltaTokens, 100);
  assert.equal(r.requests[1]!.added.toolResults, 2);
  assert.equal(r.abandoned.size, 0);
});

test("rewind: an edited first prompt (a user root in a linked chain) starts over: no delta, no base", async () => {
  const r = await run({ main: jsonl(...BEFORE_REWIND, ask("u9", null, "why does it fail, really?"), answer("a9", "u9", 1010)) });
  const q = r.requests[3]!;
  assert.equal(q.deltaTokens, null);
  assert.equal(q.compaction?.kind, "rewind");
  assert.equal(q.compaction?.baseIndex, null);
  assert.equal(q.added.toolResults, 0);
  assert.equal(q.added.userTextChars, "why does it fail, really?".length);
});

test("rewind: records that link nothing (every parentUuid null) keep the file order", async () => {
  const r = await run({
    main: jsonl(
      userText("a"),
      assistant({ usage: sized(1000), blocks: call("T1"), stop: "tool_use" }),
      toolResult("T1", "z".repeat(40)),
      userText("b"),
      assistant({ usage: sized(900) }),
    ),
  });
  assert.deepEqual(
    r.requests.map((x) => [x.deltaTokens, x.compaction, x.added.toolResults]),
    [
      [null, null, 0],
      [-100, null, 1],
    ],
  );
});

test("rewind: a parent never seen, or a base in another chain, keeps the file order", async () => {
  const unseen = await run({ main: jsonl(...BEFORE_REWIND, ask("u5", "gone", "other"), answer("a4", "u5", 1250)) });
  assert.deepEqual([unseen.requests[3]!.deltaTokens, unseen.requests[3]!.compaction], [-250, null]);
  // The other chain's request o1 is on the path: a delta against another chain means nothing here.
  const other = jsonl(ask("o0", null, "elsewhere"), answer("o1", "o0", 5000));
  const r = await run({ other, main: jsonl(...BEFORE_REWIND, ask("u5", "o1", "other"), answer("a4", "u5", 1250)) });
  const q = r.requests.find((x) => x.chain === "main" && x.index === 4)!;
  assert.deepEqual([q.deltaTokens, q.compaction], [-250, null]);
});

test("rewind: a record written beside the last reply (the next prompt under it) is no rewind: the branch must start with a prompt", async () => {
  // anthropics/claude-code#88597: the reply and a stop_hook_summary share a parent; the next prompt parents to the summary.
  const summary = { ...link("s1", "u2"), type: "system", subtype: "stop_hook_summary", sessionId: "s-1" };
  const r = await run({ main: jsonl(...BEFORE_REWIND.slice(0, 4), summary, ask("u3", "s1", "next"), answer("a3", "u3", 1260)) });
  assert.deepEqual([r.requests[2]!.deltaTokens, r.requests[2]!.compaction], [60, null]);
  assert.equal(r.requests[2]!.added.userTextChars, "next".length);
});

test("rewind: a compaction boundary in between stays a reset", async () => {
  const boundary = {
    ...link("b1", null),
    type: "system",
    subtype: "compact_boundary",
    logicalParentUuid: "u4",
    compactMetadata: { trigger: "manual", preTokens: 1600 },
    sessionId: "s-1",
  };
  const r = await run({ main: jsonl(...BEFORE_REWIND, boundary, ask("u5", "a2", "other"), answer("a4", "u5", 1250)) });
  const q = r.requests[3]!;
  assert.equal(q.afterCompaction, true);
  assert.equal(q.compaction?.kind, "compact");
  assert.equal(q.deltaTokens, null);
});

test("PathTable: memory is fixed; past it the older uuids are forgotten (UNKNOWN), the recent ones kept", () => {
  const t = new PathTable(64);
  for (let i = 0; i < 10_000; i++) t.set(`uuid-${i}`, i);
  let found = 0;
  for (let i = 0; i < 10_000; i++) {
    const v = t.get(`uuid-${i}`);
    if (v === UNKNOWN) continue;
    assert.equal(v, i, "a uuid found reads its own value");
    found += 1;
  }
  assert.ok(found <= 64, `${found} uuids held in 64 slots`);
  assert.equal(t.get("uuid-9999"), 9999);
  assert.equal(t.get("uuid-9998"), 9998);
  assert.equal(t.get("never"), UNKNOWN);
  // At its full size the newest uuids, the ones a rewind reaches back to, are all there.
  const big = new PathTable();
  const id = (i: number) => `${i.toString(16).padStart(8, "0")}-0000-4000-8000-${i}`;
  for (let i = 0; i < 300_000; i++) big.set(id(i), i);
  for (let i = 300_000 - 2000; i < 300_000; i++) assert.equal(big.get(id(i)), i);
  let held = 0;
  for (let i = 0; i < 300_000; i++) if (big.get(id(i)) !== UNKNOWN) held += 1;
  assert.ok(held <= MAX_SLOTS && held > MAX_SLOTS / 2, `${held} held`);
});

test("RequestRing: a base more than its size of requests back is no longer known", () => {
  const ring = new RequestRing(128);
  for (let seq = 0; seq < 1000; seq++) ring.add(seq, 0, seq + 1);
  ring.close(999, 4242);
  assert.equal(ring.indexOf(10, 0), null);
  assert.equal(ring.indexOf(999, 0), 1000);
  assert.equal(ring.indexOf(999, 1), null, "another chain's request");
  assert.equal(ring.totalOf(999), 4242);
  assert.equal(ring.totalOf(998), null, "not final yet");
  assert.equal(ring.totalOf(5), undefined);
});
