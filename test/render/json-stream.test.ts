import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { JSON_ARRAY, jsonChunks } from "../../src/render/json-stream.js";
import { writeChunks, type Sink } from "../../src/render/sink.js";
import { runCli, sample } from "../helpers.js";

const streamed = (v: unknown) => [...jsonChunks(v)].join("");
const reference = (v: unknown) => JSON.stringify(v, null, 2) ?? "";

test("streamed JSON equals JSON.stringify(v, null, 2) on hand-picked values", () => {
  const withKey = { toJSON: (k: string) => `key=${k}` };
  const cases: unknown[] = [
    undefined,
    null,
    true,
    0,
    -0,
    1.5e300,
    NaN,
    Infinity,
    -Infinity,
    "",
    'é\u2028\ud800\udc00\udfff\u0000"\\',
    [],
    {},
    [[]],
    [{}],
    { a: [] },
    { a: {} },
    [[[[[1, [2, []]]]]]],
    { a: { b: { c: { d: [1, { e: [] }] } } } },
    [undefined, () => 1, Symbol("s"), NaN],
    { u: undefined, f: () => 1, s: Symbol("s"), n: null, k: 1 },
    { only: undefined },
    [{ only: undefined }],
    { nested: { only: undefined } },
    new Date(Date.UTC(2026, 0, 1)),
    new Date(NaN),
    { d: new Date(0), list: [new Date(1)] },
    { a: withKey, list: [withKey, withKey], deep: { x: withKey, list: [withKey] } },
    { t: { toJSON: () => ({ toJSON: () => "inner" }) } },
    { t: { toJSON: () => undefined }, keep: 1 },
    [{ toJSON: () => undefined }],
    new Number(3),
    [new String("s"), new Boolean(false)],
    { m: new Map([[1, 2]]), s: new Set([1]) },
    { 2: "b", 1: "a", z: 0, "10": "c" },
    Object.assign(Object.create(null), { x: [1] }),
    { requests: Array.from({ length: 3 }, (_, i) => ({ i, added: { kinds: ["a", "b"] }, none: [] })), totals: [] },
  ];
  for (const v of cases) assert.equal(streamed(v), reference(v), `value: ${String(reference(v)).slice(0, 80)}`);
});

test("streamed JSON equals JSON.stringify on generated values (nesting past the streamed depth)", () => {
  const value = fc.anything({
    maxDepth: 6,
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withDate: true,
    withSparseArray: true,
    withNullPrototype: true,
    withObjectString: true,
    withUnicodeString: true,
  });
  const holder = fc.record({ inputs: fc.array(value), health: fc.dictionary(fc.string(), value), rest: value });
  fc.assert(
    fc.property(fc.oneof(value, holder), (v) => streamed(v) === reference(v)),
    { numRuns: 1000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), (s) => streamed({ s: [s] }) === reference({ s: [s] })),
    { numRuns: 500 },
  );
});

test("a long list comes out in chunks of a batch of rows at most, never as one string", () => {
  const rows = Array.from({ length: 50_000 }, (_, i) => ({ chain: "main", index: i + 1, added: { toolResults: i % 3 } }));
  const envelope = { tool: { name: "ccforensics" }, health: { malformed: rows.slice(0, 1000) }, requests: rows };
  let count = 0;
  let largest = 0;
  for (const c of jsonChunks(envelope)) {
    count++;
    largest = Math.max(largest, c.length);
  }
  const rowText = JSON.stringify({ requests: [rows[0]] }, null, 2).length;
  assert.ok(count > 50_000 / 128, `${count} chunks`);
  assert.ok(largest < 128 * rowText, `largest chunk ${largest} chars`);
  assert.equal([...jsonChunks(envelope)].join(""), reference(envelope));
});

test("runs of rows between values that are not plain objects keep their order and separators", () => {
  const row = (i: number) => ({ i, nested: { list: [i, { d: new Date(i) }] } });
  const mixed = [
    ...Array.from({ length: 130 }, (_, i) => row(i)),
    null,
    row(1),
    [row(2)],
    new Date(3),
    { toJSON: (k: string) => `key ${k}` },
    undefined,
    ...Array.from({ length: 300 }, (_, i) => row(i)),
    new Number(4),
    Object.assign(Object.create(null), { np: 1 }),
  ];
  for (const v of [mixed, { requests: mixed }, { a: { b: mixed } }, [[mixed]], { rows: mixed.slice(0, 1) }, { rows: mixed.slice(130) }])
    assert.equal(streamed(v), reference(v));
});

/** A sink that is full after every write until it drains on a later tick, like a slow pipe. */
function slowSink(): Sink & { text: string; writesWhileFull: number; drains: number } {
  let full = false;
  let waiter: (() => void) | undefined;
  const s = {
    text: "",
    writesWhileFull: 0,
    drains: 0,
    write(chunk: string) {
      if (full) s.writesWhileFull++;
      s.text += chunk;
      full = true;
      setImmediate(() => {
        full = false;
        s.drains++;
        const w = waiter;
        waiter = undefined;
        w?.();
      });
      return false;
    },
    once(_ev: "drain", cb: () => void) {
      waiter = cb;
    },
  };
  return s;
}

test("writeChunks waits for drain whenever the sink says it is full, and keeps order", async () => {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ i, s: `row ${i}` }));
  const sink = slowSink();
  await writeChunks(sink, jsonChunks({ rows }));
  assert.equal(sink.text, reference({ rows }));
  assert.equal(sink.writesWhileFull, 0);
  assert.ok(sink.drains > 5, `${sink.drains} drains`);
});

test("every --json document is what JSON.stringify(…, null, 2) would print", async () => {
  const basic = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");
  const runs: string[][] = [
    ["requests", basic, "--json"],
    ["inventory", basic, "--json"],
    ["outputs", basic, "--json"],
    [
      "report",
      "c0ffee00",
      "--claude-dir",
      sample("claude-home"),
      "--rpc-log",
      sample("demo", "rpc-log.jsonl"),
      "--stream-json",
      sample("demo", "claude-p.stream.jsonl"),
      "--json",
    ],
    ["sessions", "--claude-dir", sample("claude-home"), "--json"],
  ];
  for (const args of runs) {
    const r = await runCli(args);
    assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    // JSON output is canonical: re-serialising the parsed value gives the same bytes (jsonSafe's escapes aside).
    const again = JSON.stringify(JSON.parse(r.stdout), null, 2).replace(
      /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    assert.equal(r.stdout, `${again}\n`, args.join(" "));
  }
});

test("an iterable marked as an array streams as that array would, at any depth, and is read once per document", () => {
  let reads = 0;
  const marked = <T>(items: T[]) => ({
    [JSON_ARRAY]: true as const,
    *[Symbol.iterator]() {
      reads++;
      yield* items;
    },
    // Below the streamed depth JSON.stringify takes over and sees this (SpooledRows has it too).
    toJSON() {
      return [...this];
    },
  });
  const rows = [{ i: 1, added: { kinds: ["a"] } }, { i: 2, none: [] }, null, { u: undefined }];
  const cases: Array<[unknown, unknown]> = [
    [marked(rows), rows],
    [
      { requests: marked(rows), totals: [] },
      { requests: rows, totals: [] },
    ],
    [{ requests: marked([]) }, { requests: [] }],
    [{ a: { b: { c: marked(rows) } } }, { a: { b: { c: rows } } }],
    [[[[marked([1, [2]])]]], [[[[1, [2]]]]]],
  ];
  for (const [v, plain] of cases) {
    reads = 0;
    assert.equal(streamed(v), reference(plain));
    assert.equal(reads, 1);
  }
});
