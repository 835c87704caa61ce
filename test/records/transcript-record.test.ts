import { test } from "node:test";
import assert from "node:assert/strict";
import { parseLine, parseWhole } from "../../src/records/json.js";
import { lazyOf } from "../../src/records/lazy-strings.js";
import { SKELETON_MIN_LINE } from "../../src/records/skeleton.js";
import { toRecord, type UserRecord } from "../../src/records/transcript.js";

// Records are built as one object literal per kind (records/transcript.ts). These pin what that must not
// change: the fields and their order, an undecoded string staying undecoded, invalid counts staying null.

const ENVELOPE = [
  "pos",
  "chain",
  "type",
  "uuid",
  "parentUuid",
  "sessionId",
  "agentId",
  "isSidechain",
  "timestamp",
  "version",
  "cwd",
  "raw",
  "invalid",
];
const KIND_FIELDS: Record<string, string[]> = {
  assistant: ["kind", "messageId", "requestId", "model", "usage", "stopReason", "content", "isApiError", "notRequest"],
  user: ["kind", "content", "isMeta", "isCompactSummary", "toolUseResult"],
  attachment: ["kind", "attachment", "attachmentType"],
  system: ["kind", "subtype"],
  progress: ["kind", "dataType"],
  "content-replacement": ["kind", "replacements"],
  summary: ["kind"],
  "no-such-type": ["kind"],
};
const pos = { file: "t.jsonl", line: 3 };
const raw = (buf: Buffer) => ({ line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false });
const LONG = "y".repeat(SKELETON_MIN_LINE + 500);

test("every kind: the envelope's fields, then the kind's, in that order", () => {
  for (const [type, fields] of Object.entries(KIND_FIELDS)) {
    for (const v of [{ type, timestamp: "2026-11-23T15:02:00.630Z", message: {} }, { type }]) {
      const r = toRecord(v, pos, "main");
      assert.deepEqual(Object.keys(r), [...ENVELOPE, ...fields], type);
    }
  }
  assert.deepEqual(Object.keys(toRecord({}, pos, "main")), [...ENVELOPE, "kind"]);
});

test("a user record of a long line: content and toolUseResult undecoded, in their places, reading as the whole parse reads them", () => {
  const cases = [
    `{"type":"user","pad":"${LONG}","message":{"content":"${"é".repeat(400)}"},"toolUseResult":"${"r".repeat(300)}","isMeta":true}`,
    `{"type":"user","message":{"content":"${LONG}"},"toolUseResult":{"stdout":"x"}}`,
    `{"type":"user","message":{"content":[{"type":"text","text":"${LONG}"}]},"toolUseResult":"${"r".repeat(300)}"}`,
    `{"type":"user","message":{"content":[{"type":"tool_result","content":"${LONG}"}]},"isCompactSummary":true}`,
    `{"type":"user","message":"${LONG}"}`,
  ];
  for (const text of cases) {
    const fast = parseLine(raw(Buffer.from(text)));
    const whole = parseWhole(raw(Buffer.from(text)));
    assert.ok(fast.ok === true && whole.ok === true);
    const m = (fast.value as { message?: unknown }).message;
    const contentLazy = lazyOf(m, "content") !== undefined;
    const resultLazy = lazyOf(fast.value, "toolUseResult") !== undefined;
    const r = toRecord(fast.value, pos, "main") as UserRecord;
    assert.deepEqual(Object.keys(r), [...ENVELOPE, ...KIND_FIELDS.user!]);
    assert.equal(lazyOf(r, "content") !== undefined, contentLazy, "content stays undecoded exactly when it was");
    assert.equal(lazyOf(r, "toolUseResult") !== undefined, resultLazy);
    if (contentLazy) assert.equal(lazyOf(r, "content")!.value, undefined, "not decoded by building the record");
    assert.deepStrictEqual(r, toRecord(whole.value, pos, "main"));
  }
});

test("usage: absent counts are 0, invalid ones null and listed in order after an invalid timestamp", () => {
  const r = toRecord(
    {
      type: "assistant",
      timestamp: "2026-02-30T00:00:00.000Z",
      message: {
        usage: {
          input_tokens: -1,
          output_tokens: 5,
          server_tool_use: { web_search_requests: "x" },
          cache_creation: { ephemeral_5m_input_tokens: null },
        },
      },
    },
    pos,
    "main",
  );
  assert.ok(r.kind === "assistant");
  assert.deepEqual(r.usage, {
    inputTokens: null,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
    outputTokens: 5,
    cacheCreation5m: null,
    cacheCreation1h: null,
  });
  assert.deepEqual(
    r.invalid.map((x) => x.field),
    [
      "timestamp",
      "message.usage.server_tool_use.web_search_requests",
      "message.usage.input_tokens",
      "message.usage.cache_creation.ephemeral_5m_input_tokens",
    ],
  );
});

test("content blocks: only the objects of message.content, whether or not the array holds anything else", () => {
  const blocks = [{ type: "text", text: "a" }, { type: "tool_use", id: "t", name: "Bash" }, { type: "image" }];
  const cases: Array<[unknown, unknown[]]> = [
    [blocks, blocks],
    [["x", ...blocks, null, 3, true], blocks],
    [[blocks[0], [], blocks[1], [blocks[2]], blocks[2]], blocks],
    [[null], []],
    [[], []],
    ["text", []],
    [{ type: "text" }, []],
    [undefined, []],
  ];
  for (const [content, want] of cases) {
    const a = toRecord({ type: "assistant", message: { content, usage: {} } }, pos, "main");
    const u = toRecord({ type: "user", message: { content } }, pos, "main") as UserRecord;
    assert.ok(a.kind === "assistant");
    assert.deepStrictEqual(a.content, want, JSON.stringify(content));
    if (Array.isArray(content)) assert.deepStrictEqual(u.content, want);
  }
});
