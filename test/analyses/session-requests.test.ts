import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Fanout } from "../../src/analyses/analysis.js";
import { REQUEST_WINDOW, requestsAnalysis } from "../../src/analyses/requests.js";
import { OPEN_CHAINS } from "../../src/analyses/open-chains.js";
import { EXACT_IDS } from "../../src/analyses/id-set.js";
import { sessionRequestsAnalysis } from "../../src/analyses/session-requests.js";
import { mulberry32 } from "../../src/lab/instructions-text.js";
import type { InputFile } from "../../src/sources/input.js";
import { scanTranscripts } from "../read.js";
import { filesUnder, sample } from "../helpers.js";
import { assistant, jsonl, userText } from "../builders.js";

/** `sessions`' request count, and the one it showed before: the main chain's total in the full requests analysis. */
async function both(inputs: InputFile[], stdin?: Buffer) {
  const fan = new Fanout({ requests: requestsAnalysis, count: sessionRequestsAnalysis });
  await scanTranscripts(inputs, (r) => fan.step(r), stdin ? { stdin: Readable.from([stdin]) } : {});
  const r = fan.finish();
  return { full: r.requests.totals.find((t) => t.chain === "main")?.requests ?? 0, count: r.count };
}

const main = (path: string): InputFile => ({ path, kind: "transcript", bytes: 0, sha256: "", chain: "main" });
const fromText = async (text: string | Buffer) => both([main("-")], Buffer.isBuffer(text) ? text : Buffer.from(text));

test("the count gives every sample transcript the main chain's requests the full analysis gives", async () => {
  const files = filesUnder(sample());
  assert.ok(files.length > 50, `${files.length} sample transcripts`);
  let some = 0;
  for (const path of files) {
    const { full, count } = await both([main(path)]);
    assert.equal(count, full, path);
    if (count > 0) some += 1;
  }
  assert.ok(some > 30, `${some} samples have requests`);
});

test("a session's subagents (other chains) never count; an orphan's subagents alone count 0", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-sreq-"));
  try {
    const m = join(dir, "main.jsonl");
    const a = join(dir, "agent-aaaa.jsonl");
    writeFileSync(m, jsonl(userText("q"), assistant({ id: "msg_1" }), assistant({ id: "msg_2" })));
    writeFileSync(a, jsonl(assistant({ id: "msg_2" }), assistant({ id: "msg_3" })));
    const sub: InputFile = { path: a, kind: "subagent-transcript", bytes: 0, sha256: "", chain: "aaaa" };
    const r = await both([main(m), sub]);
    assert.deepEqual(r, { full: 2, count: 2 });
    assert.deepEqual(await both([sub]), { full: 0, count: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Random sessions made of what decides the count: fragments of one message in a row and apart (past the
 * window), copies of an id, api errors, `<synthetic>`, no usage, no message id (request id, uuid, position
 * as key), sidechain records interleaved (one agent, or more agents than OPEN_CHAINS so the least recently active
 * chain is closed), malformed lines.
 */
function randomSession(seed: number, n: number): string {
  const r = mulberry32(seed);
  const lines: string[] = [];
  const ids: string[] = [];
  const reqs: string[] = [];
  for (let i = 0; i < n; i++) {
    const x = r();
    const agent = seed % 3 === 1 ? "side" : `side${Math.floor(r() * (OPEN_CHAINS + 4))}`;
    const side = seed % 3 !== 0 && r() < 0.15 ? { isSidechain: true, agentId: agent } : {};
    if (x < 0.08) lines.push(JSON.stringify(userText(`q${i}`, side)));
    else if (x < 0.1) lines.push(`{"type":"assistant","message":{"id":"msg_broken"`);
    else if (x < 0.12) lines.push(JSON.stringify(assistant({ extra: { isApiErrorMessage: true, ...side } })));
    else if (x < 0.14) lines.push(JSON.stringify(assistant({ model: "<synthetic>", extra: side })));
    else if (x < 0.16) {
      const a = assistant({ extra: side }) as Record<string, any>;
      delete a.message.usage;
      lines.push(JSON.stringify(a));
    } else if (x < 0.3) {
      const a = assistant({ extra: side }) as Record<string, any>;
      delete a.message.id;
      // Keyed by request id: one seen within the window is a fragment, one from past it a new request.
      if (r() < 0.6 && reqs.length > 0) a.requestId = reqs[Math.max(0, reqs.length - 1 - Math.floor(r() * REQUEST_WINDOW * 2))];
      else if (r() < 0.5) delete a.requestId;
      if (typeof a.requestId === "string") reqs.push(a.requestId);
      if (r() < 0.3) delete a.uuid;
      lines.push(JSON.stringify(a));
    } else {
      // A new id, the last one again (a fragment), or one from further back (within the window or past it).
      const y = r();
      const back = Math.floor(r() * (REQUEST_WINDOW * 2));
      const id = y < 0.5 || ids.length === 0 ? `msg_${seed}_${i}` : y < 0.75 ? ids.at(-1)! : ids[Math.max(0, ids.length - 1 - back)]!;
      ids.push(id);
      lines.push(JSON.stringify(assistant({ id, stop: r() < 0.5 ? null : "end_turn", extra: side })));
    }
  }
  return lines.map((l, i) => l + (i % 7 === 3 ? "\r\n" : "\n")).join("");
}

test("the count agrees with the full analysis on 300 random sessions", async () => {
  let sum = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const { full, count } = await fromText(randomSession(seed, 20 + (seed % 5) * 60));
    assert.equal(count, full, `seed ${seed}`);
    sum += count;
  }
  assert.ok(sum > 10_000, `${sum} requests counted`);
});

test("a request id seen again just inside and just past the window", async () => {
  const noId = (requestId: string) => {
    const a = assistant({ requestId }) as Record<string, any>;
    delete a.message.id;
    return a;
  };
  for (const d of [REQUEST_WINDOW - 2, REQUEST_WINDOW - 1, REQUEST_WINDOW, REQUEST_WINDOW + 1]) {
    const lines = [noId("req_first"), ...Array.from({ length: d }, (_, i) => noId(`req_${i}`)), noId("req_first")];
    const { full, count } = await fromText(jsonl(...lines));
    assert.equal(count, full, `${d} between`);
    // Still open: a fragment of the first; closed: a request of its own.
    assert.equal(count, d + 1 + (d >= REQUEST_WINDOW ? 1 : 0), `${d} between`);
  }
});

test(`the count agrees past ${EXACT_IDS} message ids (the IdSet's hashed slots)`, async () => {
  const lines: unknown[] = [];
  for (let i = 0; i < EXACT_IDS + 500; i++) lines.push(assistant({ id: `msg_big_${i}` }));
  // Copies of ids from the exact part and from the hashed part, each after the window has closed them.
  for (let i = 0; i < 300; i++) lines.push(assistant({ id: `msg_big_${i * 53}` }));
  const { full, count } = await fromText(jsonl(...lines));
  assert.equal(full, EXACT_IDS + 500);
  assert.equal(count, full);
});

test("hostile bytes: invalid UTF-8, escapes, lone surrogates, a BOM, CRLF, a line longer than the read buffer", async () => {
  const good = (id: string) => JSON.stringify(assistant({ id }));
  const cases: Array<[string, Buffer]> = [
    ["bom", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${good("msg_a")}\n${good("msg_b")}\n`)])],
    [
      "invalid utf-8",
      Buffer.concat([
        Buffer.from(`${good("msg_a")}\n{"type":"assistant","x":"`),
        Buffer.from([0xff, 0xc3]),
        Buffer.from(`"}\n${good("msg_a")}\n`),
      ]),
    ],
    [
      "escaped ids",
      Buffer.from(`${good("msg_\u00e9")}\n${good("msg_é")}\n${good("msg_\ud800")}\n${good("msg_\udc00")}\n${good("msg_\ud800")}\n`),
    ],
    ["escapes in the raw line", Buffer.from(`${good("msg_x").replace('"msg_x"', '"\\u006dsg_x"')}\n${good("msg_x")}\n`)],
    ["crlf", Buffer.from(`${good("msg_a")}\r\n${good("msg_b")}\r\n${good("msg_a")}\r\n`)],
    ["no final newline", Buffer.from(`${good("msg_a")}\n${good("msg_b")}`)],
    [
      "long line",
      Buffer.from(
        `${JSON.stringify(assistant({ id: "msg_long", blocks: [{ type: "text", text: "y".repeat(3 << 20) }] }))}\n${good("msg_c")}\n`,
      ),
    ],
  ];
  const counted: Record<string, number> = {};
  for (const [name, bytes] of cases) {
    const { full, count } = await fromText(bytes);
    assert.equal(count, full, name);
    counted[name] = count;
  }
  // Written down: a comparison of two wrong answers proves nothing.
  assert.deepEqual(counted, {
    bom: 2,
    "invalid utf-8": 1,
    "escaped ids": 3,
    "escapes in the raw line": 1,
    crlf: 2,
    "no final newline": 2,
    "long line": 2,
  });
});

test("fragments of a main request with another chain's records between them are one request, in both", async () => {
  const side = { isSidechain: true, agentId: "a7777777" };
  const split = (others: number) =>
    jsonl(
      assistant({ id: "m1", stop: null }),
      ...Array.from({ length: others }, (_, i) => assistant({ id: `s${i}`, extra: i === 0 ? side : { ...side, agentId: `a${i}` } })),
      assistant({ id: "m1" }),
      assistant({ id: "m2" }),
    );
  assert.deepEqual(await fromText(split(1)), { full: 2, count: 2 });
  // Past OPEN_CHAINS the first fragment's row is closed: the second is a copy, counted by neither.
  assert.deepEqual(await fromText(split(OPEN_CHAINS)), { full: 2, count: 2 });
});
