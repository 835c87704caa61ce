import { test } from "node:test";
import assert from "node:assert/strict";
import { toRecord, type AssistantRecord } from "../../src/records/transcript.js";
import { addCounts, isCount } from "../../src/records/values.js";
import { isoOrUndefined, parseIsoTime } from "../../src/records/time.js";
import { assistant } from "../builders.js";

const pos = { file: "t.jsonl", line: 7 };
const rec = (raw: Record<string, unknown>) => toRecord(raw, pos, "main") as AssistantRecord;
const withUsage = (usage: Record<string, unknown>) => {
  const raw = assistant() as Record<string, any>;
  raw.message.usage = { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 10, ...usage };
  return rec(raw);
};

const BAD: Array<[string, unknown, string]> = [
  ["huge", 1e308, "1e+308"],
  ["negative", -500, "-500"],
  ["string", "12", '"12"'],
  ["fraction", 1.5, "1.5"],
  ["null", null, "null"],
  ["boolean", true, "true"],
  ["object", { n: 1 }, '{"n":1}'],
  ["past 2^53", 2 ** 53, "9007199254740992"],
];
const FIELDS: Array<[string, keyof NonNullable<AssistantRecord["usage"]>]> = [
  ["input_tokens", "inputTokens"],
  ["cache_creation_input_tokens", "cacheCreationInputTokens"],
  ["cache_read_input_tokens", "cacheReadInputTokens"],
  ["output_tokens", "outputTokens"],
];

for (const [field, key] of FIELDS) {
  for (const [kind, value, text] of BAD) {
    test(`usage.${field} ${kind}: unknown (null, not 0) and listed with field and value`, () => {
      const r = withUsage({ [field]: value });
      assert.equal(r.usage![key], null);
      assert.deepEqual(r.invalid, [{ field: `message.usage.${field}`, value: text }]);
      assert.equal(r.notRequest, undefined);
    });
  }
}

test("usage.cache_creation.*: a bad nested count is unknown and listed; a good one is kept", () => {
  const r = withUsage({ cache_creation: { ephemeral_5m_input_tokens: -1, ephemeral_1h_input_tokens: 500 } });
  assert.equal(r.usage!.cacheCreation5m, null);
  assert.equal(r.usage!.cacheCreation1h, 500);
  assert.deepEqual(r.invalid, [{ field: "message.usage.cache_creation.ephemeral_5m_input_tokens", value: "-1" }]);
  assert.deepEqual(withUsage({ cache_creation: "x" }).invalid, [{ field: "message.usage.cache_creation", value: '"x"' }]);
});

test("usage.server_tool_use.*: checked though not summed", () => {
  assert.deepEqual(withUsage({ server_tool_use: { web_search_requests: "2", web_fetch_requests: 0 } }).invalid, [
    { field: "message.usage.server_tool_use.web_search_requests", value: '"2"' },
  ]);
  assert.deepEqual(withUsage({ server_tool_use: { web_search_requests: 1 } }).invalid, []);
});

test("absent usage fields stay 0 (builds differ in what they write); valid counts pass untouched", () => {
  const raw = assistant() as Record<string, any>;
  raw.message.usage = { cache_read_input_tokens: 9007199254740991 };
  const r = rec(raw);
  assert.deepEqual([r.usage!.inputTokens, r.usage!.cacheReadInputTokens, r.usage!.outputTokens], [0, 9007199254740991, 0]);
  assert.deepEqual(r.invalid, []);
});

test("message null, missing, not an object, or without usage: not a request, with the reason", () => {
  const base = assistant() as Record<string, any>;
  const cases: Array<[unknown, RegExp]> = [
    [null, /message is null/],
    [undefined, /without a message/],
    ["text", /message is "text"/],
    [[1], /message is \[1\]/],
    [{ id: "m", model: "claude-opus-5", content: [] }, /without a usage object/],
    [{ id: "m", model: "claude-opus-5", content: [], usage: null }, /without a usage object/],
  ];
  for (const [message, reason] of cases) {
    const raw = { ...base, message };
    if (message === undefined) delete raw.message;
    const r = rec(raw);
    assert.equal(r.usage, undefined);
    assert.match(r.notRequest ?? "", reason);
  }
  // API errors and <synthetic> records are counted apart already, not as anomalies.
  assert.equal(rec({ ...base, message: null, isApiErrorMessage: true }).notRequest, undefined);
});

test("transcript timestamps that are no time are unknown and listed", () => {
  for (const [ts, text] of [
    ["garbage", '"garbage"'],
    ["2026-02-30T10:00:00Z", '"2026-02-30T10:00:00Z"'],
    [1e20, "100000000000000000000"],
    ["+275760-09-14T00:00:00Z", '"+275760-09-14T00:00:00Z"'],
  ] as const) {
    const r = rec({ ...(assistant() as object), timestamp: ts });
    assert.equal(r.timestamp, undefined);
    assert.deepEqual(r.invalid, [{ field: "timestamp", value: text }]);
  }
  assert.equal(rec({ ...(assistant() as object), timestamp: "2026-09-16T10:00:01.000Z" }).timestamp, "2026-09-16T10:00:01.000Z");
});

test("time helpers are total: no RangeError, undefined where no Date can stand", () => {
  for (const ms of [1e20, -1e20, 8.64e15 + 1, NaN, Infinity, -Infinity]) assert.equal(isoOrUndefined(ms), undefined, String(ms));
  assert.equal(isoOrUndefined(8.64e15), "+275760-09-13T00:00:00.000Z");
  assert.equal(isoOrUndefined(0), "1970-01-01T00:00:00.000Z");
  for (const t of ["garbage", "1", "", "2026-13-01", "2026-02-29", "2026-11-01T25:00", "9999-99-99T99:99:99Z"])
    assert.equal(parseIsoTime(t), undefined, t);
  assert.equal(parseIsoTime("2028-02-29"), Date.UTC(2028, 1, 29));
  assert.equal(parseIsoTime("2026-09-16T10:00:01.5Z"), Date.UTC(2026, 8, 16, 10, 0, 1, 500));
});

test("counts: isCount and addCounts keep sums safe", () => {
  assert.ok(isCount(0) && isCount(2 ** 53 - 1));
  assert.ok(!isCount(2 ** 53) && !isCount(-1) && !isCount(0.5) && !isCount("1"));
  assert.equal(addCounts(2 ** 53 - 1, 1), null);
  assert.equal(addCounts(1, null), null);
  assert.equal(addCounts(2, 3), 5);
});
