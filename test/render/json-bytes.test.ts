import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { jsonDocumentBytes, jsonSafe, render, surelySafe, writeDocument } from "../../src/render/emit.js";
import { plain } from "../../src/render/palette.js";
import type { Sink } from "../../src/render/sink.js";
import type { CommandOutput } from "../../src/report/envelope.js";
import { commandOutput, firstFile, sampleCommands } from "../report/commands.js";
import { sample } from "../helpers.js";

/** The fast path (bytes, unsafe test on them) against the reference: jsonDocument's escaped text, encoded. */
const fast = (out: CommandOutput) =>
  Buffer.concat([...jsonDocumentBytes(out)].map((c) => (typeof c === "string" ? Buffer.from(c) : Buffer.from(c))));
const reference = async (out: CommandOutput) => Buffer.from(await render(out, "json", plain));

const outputOf = (data: Record<string, unknown>): CommandOutput =>
  ({
    command: "requests",
    inputs: [],
    health: { malformed: [] },
    data,
    document: { title: "t", tables: [], warnings: [] },
  }) as unknown as CommandOutput;

/** Characters that take jsonSafe's escapes or sit next to them: DEL, C1, bidi, invisibles, tag pairs, near misses. */
const HOSTILE = [
  "\u007f",
  "\u0080",
  "\u009b",
  "\u009f",
  "\u00a0",
  "\u00ad",
  "\u00e9",
  "\u034f",
  "\u061c",
  "\u115f",
  "\u17b4",
  "\u180e",
  "\u200b",
  "\u200f",
  "\u2014",
  "\u2028",
  "\u2029",
  "\u202e",
  "\u2066",
  "\u3164",
  "\ufeff",
  "\uffa0",
  "\ufffb",
  "\ufffd",
  "\udb40\udc41",
  "\udb40\udfff",
  "\ud83d\ude00",
  "\ud800",
  "\udc00",
  "\u0000",
  "\u001b[2J",
  "\r\n",
  '"\\',
  "日本語",
];

test("the byte test never calls a character safe that jsonSafe escapes, and is exact for ASCII and U+2000–U+207F", () => {
  let surely = 0;
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const c = String.fromCodePoint(code);
    const escaped = jsonSafe(`a${c}b`) !== `a${c}b`;
    const safe = surelySafe(Buffer.from(`a${c}b`));
    if (safe) surely++;
    assert.ok(!(safe && escaped), `U+${code.toString(16)} passed the byte test but is escaped`);
    if (code < 0x80 || (code >= 0x2000 && code <= 0x207f)) assert.equal(safe, !escaped, `U+${code.toString(16)}`);
    // Pieces are long: the same with the character among others, twice.
    if (escaped) assert.equal(surelySafe(Buffer.from(`${"x".repeat(100)}\u2026${c}\u2014${c}`)), false, `U+${code.toString(16)} in text`);
  }
  // Almost every character is decided by the bytes alone (CJK, emoji, accents, the ellipsis).
  assert.ok(surely > 800_000, `${surely}`);
  for (const s of ["", "plain", "caf\u00e9 \u2014 \u2026 \u201c\u201d", "\u65e5\u672c", "\ud83d\ude00"])
    assert.equal(surelySafe(Buffer.from(s)), true, s);
});

test("JSON bytes equal the escaped document text, encoded, on hand-picked hostile values", async () => {
  const long = "a".repeat(200_000);
  const cases: Record<string, unknown>[] = [
    {},
    { requests: [] },
    ...HOSTILE.map((c) => ({ requests: [{ text: c }, { text: `${long}${c}${long}` }] })),
    // An unsafe character in one batch and only ASCII or only safe non-ASCII in the others.
    { requests: Array.from({ length: 5000 }, (_, i) => ({ i, text: i === 2500 ? "x\u202ey" : i % 7 ? "plain" : "caf\u00e9 \u2014" })) },
    { requests: Array.from({ length: 5000 }, (_, i) => ({ i, text: i === 4999 ? "\u007f" : "plain ascii" })) },
    { requests: Array.from({ length: 5000 }, (_, i) => ({ i, text: "\ufeffBOM first\r\n" })) },
    { lines: [long + long + long + "\u009b" + long] },
  ];
  for (const data of cases) {
    const out = outputOf(data);
    const want = await reference(out);
    assert.ok(fast(out).equals(want), JSON.stringify(data).slice(0, 80));
    assert.deepEqual(JSON.parse(want.toString("utf8")).requests ?? [], data.requests ?? []);
  }
});

test("JSON bytes equal the escaped document text on generated strings (any UTF-16, lone surrogates included)", async () => {
  const piece = fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom(...HOSTILE), fc.string({ unit: "grapheme-ascii" }));
  const rows = fc.array(fc.record({ text: fc.array(piece, { maxLength: 8 }).map((p) => p.join("")), n: fc.integer() }), {
    maxLength: 400,
  });
  await fc.assert(
    fc.asyncProperty(rows, fc.nat(70_000), async (r, pad) => {
      const out = outputOf({ pad: "p".repeat(pad), requests: r });
      return fast(out).equals(await reference(out));
    }),
    { numRuns: 200 },
  );
});

test("JSON bytes equal the escaped document text for every sample command", async () => {
  for (const args of sampleCommands(firstFile)) {
    // Computed twice: a streamed list is read once per document.
    const a = await commandOutput([...args, "--format", "json"]);
    const b = await commandOutput([...args, "--format", "json"]);
    assert.ok(fast(a).equals(await reference(b)), args.join(" "));
  }
  const one = await commandOutput(["requests", sample("basic", "11111111-2222-4333-8444-555555555555.jsonl"), "--format", "json"]);
  assert.ok(fast(one).length > 1000);
});

test("writeDocument sends the JSON bytes in order through a sink that is full after every write", async () => {
  const parts: Buffer[] = [];
  let waiter: (() => void) | undefined;
  let full = false;
  let writesWhileFull = 0;
  const sink: Sink = {
    write(chunk) {
      if (full) writesWhileFull++;
      parts.push(Buffer.from(chunk));
      full = true;
      setImmediate(() => {
        full = false;
        const w = waiter;
        waiter = undefined;
        w?.();
      });
      return false;
    },
    once(_ev, cb) {
      waiter = cb;
    },
  };
  const data = { requests: Array.from({ length: 20_000 }, (_, i) => ({ i, text: i % 1000 === 0 ? "\u2028\u00e9" : `row ${i}` })) };
  await writeDocument(sink, outputOf(data), "json", plain);
  assert.equal(writesWhileFull, 0);
  assert.ok(parts.length > 5, `${parts.length} writes`);
  assert.ok(Buffer.concat(parts).equals(await reference(outputOf(data))));
});
