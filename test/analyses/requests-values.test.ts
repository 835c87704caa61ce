import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { requestsAnalysis } from "../../src/analyses/requests.js";
import { Fanout } from "../../src/analyses/analysis.js";
import { scanTranscripts } from "../read.js";
import type { InputFile } from "../../src/sources/input.js";
import { assistant, jsonl, userText } from "../builders.js";

async function run(text: string) {
  const fan = new Fanout({ requests: requestsAnalysis });
  const input: InputFile = { path: "-", kind: "transcript", bytes: 0, sha256: "", chain: "main" };
  const health = await scanTranscripts([input], (r) => fan.step(r), { stdin: Readable.from([Buffer.from(text)]) });
  const r = fan.finish().requests;
  return { health, ...r, requests: r.requests.toArray() };
}

const withUsage = (id: string, usage: Record<string, unknown>, stop: string | null = "end_turn") => {
  const raw = assistant({ id, stop }) as Record<string, any>;
  raw.message.usage = { input_tokens: 3, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 10, ...usage };
  return raw;
};

const finite = (t: Record<string, unknown>) => {
  for (const [k, v] of Object.entries(t)) if (typeof v === "number") assert.ok(Number.isSafeInteger(v) && v >= 0, `${k} = ${v}`);
};

for (const [kind, value] of [
  ["1e308", 1e308],
  ["-500", -500],
  ['"12"', "12"],
  ["null", null],
  ["1.5", 1.5],
] as const) {
  test(`a fragment with cache_read_input_tokens ${kind} takes no part: the other fragment's count stands, totals stay finite`, async () => {
    const r = await run(
      jsonl(
        userText("hi"),
        withUsage("msg_A", { cache_read_input_tokens: value }, null),
        withUsage("msg_A", { cache_read_input_tokens: 1000 }),
        withUsage("msg_B", { cache_read_input_tokens: 2000 }),
      ),
    );
    assert.deepEqual(
      r.requests.map((q) => [q.cacheReadInputTokens, q.totalInputTokens]),
      [
        [1000, 1103],
        [2000, 2103],
      ],
    );
    assert.equal(r.totals[0]!.cacheReadInputTokens, 3000);
    finite(r.totals[0] as unknown as Record<string, unknown>);
    assert.equal(r.health.invalidValueCount, 1);
    assert.deepEqual(r.health.invalidValues[0], {
      file: "-",
      line: 2,
      field: "message.usage.cache_read_input_tokens",
      value: JSON.stringify(value),
    });
  });
}

test("a request whose only value for a field is bad has that field unknown, its total and both deltas too", async () => {
  const r = await run(jsonl(withUsage("msg_A", {}), withUsage("msg_B", { input_tokens: "x" }), withUsage("msg_C", {})));
  assert.deepEqual(
    r.requests.map((q) => [q.inputTokens, q.totalInputTokens, q.deltaTokens]),
    [
      [3, 1103, null],
      [null, null, null],
      [3, 1103, null],
    ],
  );
  // Sums leave the unknown out rather than count it as 0 or give up on the whole chain.
  assert.deepEqual([r.totals[0]!.inputTokens, r.totals[0]!.totalInputTokens, r.totals[0]!.requests], [6, 2206, 3]);
});

test("a sum past 2^53 − 1 is unknown with a health entry at the request that passed it, never ∞ or rounded", async () => {
  const max = Number.MAX_SAFE_INTEGER;
  const r = await run(
    jsonl(
      withUsage("msg_A", { cache_read_input_tokens: max - 5000, input_tokens: 0, cache_creation_input_tokens: 0 }),
      withUsage("msg_B", { cache_read_input_tokens: max - 5000, input_tokens: 0, cache_creation_input_tokens: 0 }),
    ),
  );
  const t = r.totals[0]!;
  assert.equal(t.cacheReadInputTokens, null);
  assert.equal(t.totalInputTokens, null);
  assert.equal(t.inputTokens, 0);
  finite(t as unknown as Record<string, unknown>);
  assert.deepEqual(
    r.overflows.map((o) => [o.line, o.field]),
    [
      [2, "totals.cacheReadInputTokens (chain main)"],
      [2, "totals.totalInputTokens (chain main)"],
    ],
  );
  // A request's own total that passes the range is unknown too.
  const one = await run(jsonl(withUsage("msg_A", { cache_read_input_tokens: max, input_tokens: 1 })));
  assert.equal(one.requests[0]!.totalInputTokens, null);
});

test("message null, missing, a string, or no usage: not a request, counted in health with file:line", async () => {
  const base = assistant() as Record<string, any>;
  const noMessage: Record<string, unknown> = { ...base, uuid: "x2" };
  delete noMessage.message;
  const r = await run(
    jsonl(
      userText("hi"),
      { ...base, uuid: "x1", message: null },
      noMessage,
      { ...base, uuid: "x3", message: "oops" },
      { ...base, uuid: "x4", message: { id: "msg_nousage", model: "claude-opus-5", content: [] } },
      withUsage("msg_real", {}),
    ),
  );
  assert.equal(r.requests.length, 1);
  assert.equal(r.requests[0]!.messageId, "msg_real");
  assert.equal(r.requests[0]!.index, 1);
  assert.equal(r.totals[0]!.notRequests, 4);
  assert.equal(r.health.notRequestCount, 4);
  assert.deepEqual(
    r.health.notRequests.map((n) => n.line),
    [2, 3, 4, 5],
  );
  assert.match(r.health.notRequests[0]!.reason, /message is null/);
  // What was added before the non-requests still belongs to the real request.
  assert.equal(r.requests[0]!.added.userTextChars, 2);
});
