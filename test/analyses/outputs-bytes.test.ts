import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { parseLine, parseWhole } from "../../src/records/json.js";
import { codePoints, utf8Bytes } from "../../src/records/content.js";
import { lazyOf } from "../../src/records/lazy-strings.js";
import { headOf, joinStats, lazyStats, mayContain, stringStats, tailOf } from "../../src/records/string-bytes.js";
import { toRecord, type AnyRecord } from "../../src/records/transcript.js";
import { outputsAnalysis } from "../../src/analyses/outputs.js";
import { instructionsAnalysis } from "../../src/analyses/instructions.js";
import { toolsAnalysis } from "../../src/analyses/tools.js";
import { filesUnder, ROOT } from "../helpers.js";

// What outputs, instructions and tools now read off the bytes of undecoded strings (sizes, the message
// from the two ends, whether a text may hold an instructions section, input summaries) against the same
// analyses over the full parse, where every string is decoded. Any difference is a bug in the byte path.

const raw = (buf: Buffer, line = 1) => ({ line, buf, bytes: buf.length, tooLong: false, unterminated: false });

function scan(lines: Buffer[], parse: typeof parseLine) {
  const o = outputsAnalysis.init();
  const i = instructionsAnalysis.init();
  const t = toolsAnalysis.init();
  lines.forEach((buf, k) => {
    const p = parse(raw(buf, k + 1));
    const pos = { file: "f.jsonl", line: k + 1 };
    if (p.ok === "blank") return;
    const rec = (
      p.ok ? toRecord(p.value, pos, "main") : { kind: "malformed", pos, chain: "main", reason: p.reason, excerpt: p.excerpt }
    ) as AnyRecord;
    outputsAnalysis.step(o, rec);
    instructionsAnalysis.step(i, rec);
    toolsAnalysis.step(t, rec);
  });
  return { outputs: outputsAnalysis.finish(o), instructions: instructionsAnalysis.finish(i), tools: toolsAnalysis.finish(t) };
}

const split = (text: Buffer): Buffer[] => {
  const lines: Buffer[] = [];
  for (let s = 0, nl; s < text.length; s = nl + 1) {
    nl = text.indexOf(10, s);
    if (nl < 0) nl = text.length;
    lines.push(text.subarray(s, nl));
  }
  return lines;
};

function sameScan(lines: Buffer[], where: string) {
  const fast = scan(lines, parseLine);
  assert.deepStrictEqual(fast, scan(lines, parseWhole), where);
  return fast;
}

test("every sample transcript: the same outputs, instructions and tools scans on both paths", () => {
  for (const f of filesUnder(join(ROOT, "samples"))) sameScan(split(readFileSync(f)), f);
});

test("generated data (the bench generator, 3 MB): the same scans on both paths, results read off the bytes", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-outb-"));
  try {
    const out = join(dir, "t.jsonl");
    execFileSync(process.execPath, [join(ROOT, "bench", "shared", "gen.mjs"), "--out", out, "--size", "3MB", "--seed", "11"]);
    const r = sameScan(split(readFileSync(out)), "gen");
    assert.ok(r.outputs.results.filter((x) => x.chars >= 8192).length > 10, "few long results: the byte path went untested");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// JSON string bodies (already escaped), some of them hostile.
const BIG = 'const x = 1;\\n  \\"quoted\\" \\\\ back \\/ é→日😀 \\u00e9 \\u001b[31m \\ud83d\\ude00 tab\\t'.repeat(200);
const PAD = "p".repeat(3000);
const MCP_SECTION =
  "<system-reminder>\\n# MCP Server Instructions\\n\\nThe following MCP servers have provided instructions for how to use their tools and resources:\\n\\n## lab\\nUse the lab.\\n</system-reminder>";

const result = (content: string, tur = '"x"', id = "t1") =>
  `{"type":"user","pad":"${PAD}","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"${id}","content":${content}}]},"toolUseResult":${tur}}`;
const str = (body: string) => `"${body}"`;
const texts = (...bodies: string[]) => `[${bodies.map((b) => `{"type":"text","text":"${b}"}`).join(",")}]`;

const CASES: Array<[string, string]> = [
  ["a long plain text", result(str(BIG))],
  ["Read-style leading spaces", result(str(`     1→${BIG}`))],
  ["a raw BOM first", result(str(`\ufeff${BIG}`))],
  ["an escaped BOM first", result(str(`\\ufeff${BIG}`))],
  ["white space past the head window", result(str(`${" ".repeat(9000)}(Bash completed with no output)`))],
  [
    "white space before a long token message",
    result(str(`\\n  Error: result (179,889 characters) exceeds maximum allowed tokens. ${BIG}`)),
  ],
  ["escaped newlines first", result(str(`\\n\\n\\r\\n${BIG}`))],
  [
    "a persisted stub spelt with \\u003c",
    result(
      str(
        `\\u003cpersisted-output>\\nOutput too large (51.7KB). Full output saved to: /h/tool-results/t1.txt\\n\\nPreview (first 2KB):\\n${BIG}\\n...\\n</persisted-output>`,
      ),
    ),
  ],
  ["a long token message", result(str(`Error: result (179,889 characters) exceeds maximum allowed tokens. ${BIG}`))],
  ["a long legacy message", result(str(`MCP tool \\"x\\" response (99 tokens) exceeds maximum allowed tokens (25000)${BIG}`))],
  ["a long empty-looking text", result(str(`(Bash completed with no output)${BIG}`))],
  ["a cleared message with a long tail", result(str(`[Old tool result content cleared]${" ".repeat(9000)}`))],
  [
    "a binary stub, 4,100 units with white space about it",
    result(str(`${" ".repeat(10)}Binary content (image/png, 1KB) saved to /x/y.png${" ".repeat(4100 - 10 - 49)}`)),
  ],
  ["a text of 4,098 units", result(str(`${"abc".repeat(1366)}`))],
  ["a short plain text", result(str(`${"short 😀 \\n ".repeat(40)}`))],
  ["a short text, white space first", result(str(`${" ".repeat(200)}${"z".repeat(100)}`))],
  ["a short empty-looking text after white space", result(str(`${" ".repeat(300)}(Bash completed with no output)`))],
  ["a short binary stub", result(str(`${"x".repeat(300)} Binary content (image/png, 1KB) saved to /x/y.png`))],
  ["a short binary stub spelt with \\u0042", result(str(`${"x".repeat(300)} \\u0042inary content (image/png, 1KB) saved to /x/y.png`))],
  [
    "a short text naming a binary stub on its second line",
    result(str(`${"x".repeat(300)}\\nBinary content (image/png, 1KB) saved to /x/y.png`)),
  ],
  ["a short truncated text", result(str(`${"y".repeat(500)}\\n[OUTPUT TRUNCATED - exceeded 9 token limit]`))],
  ["a short truncated text spelt with \\u005b", result(str(`${"y".repeat(500)}\\u005bOUTPUT TRUNCATED - exceeded 9 token limit]`))],
  [
    "a short persisted stub",
    result(
      str(
        `<persisted-output>\\nOutput too large (51.7KB). Full output saved to: /h/tool-results/t1.txt\\n\\nPreview (first 2KB):\\n${"p".repeat(500)}\\n...\\n</persisted-output>`,
      ),
    ),
  ],
  ["a short token message", result(str(`Error: result (179,889 characters) exceeds maximum allowed tokens. ${"w".repeat(400)}`))],
  ["the truncation marker far from the end", result(str(`${BIG}[OUTPUT TRUNCATED - exceeded 9 token limit]${BIG}`))],
  ["the truncation marker at the end", result(str(`${BIG}\\n[OUTPUT TRUNCATED - exceeded 25,000 token limit]`))],
  ["the truncation marker spelt with \\u005b", result(str(`${BIG}\\u005bOUTPUT TRUNCATED - exceeded 25\\u00a0000 token limit]`))],
  ...[4040, 4050, 4060].map((n): [string, string] => [
    `the marker ${n} units from the end`,
    result(str(`${BIG}[OUTPUT TRUNCATED - exceeded 7 token limit]${"😀".repeat((n - 43) / 2)}${"x".repeat((n - 43) % 2)}`)),
  ]),
  ["a surrogate pair split by the tail window", result(str(`${BIG}${"\\ud83d\\ude00".repeat(2100)}`))],
  ["lone surrogates at both ends", result(str(`\\udc00${BIG}\\ud800`))],
  ["a pair across two text blocks", result(texts(`${BIG}\\ud83d`, `\\ude00${BIG}`))],
  ["stdout and stderr joined across a pair", result(str("short"), `{"stdout":"${BIG}\\ud83d","stderr":"\\ude00${BIG}"}`)],
  ["full output in file.content", result(str(BIG), `{"file":{"content":"\\udc00${BIG}"}}`)],
  ["full output as text blocks", result(str(BIG), texts(BIG, "\\ud800"))],
  ["full output in content blocks", result(str(BIG), `{"content":${texts("\\ude00", BIG)}}`)],
  ["full output as a string", result(str(BIG), str(BIG))],
  ["an instructions section in a tool result", result(str(`${BIG}${MCP_SECTION}`))],
  ["the section spelt with \\u004d", result(str(`${BIG}${MCP_SECTION.replace("MCP Server", "\\u004dCP Server")}`))],
  ["the section's space spelt with \\u0020", result(str(`${BIG}${MCP_SECTION.replace(/MCP /g, "MCP\\u0020")}`))],
  ["the section in a user text", `{"type":"user","pad":"${PAD}","message":{"role":"user","content":"${BIG}${MCP_SECTION}"}}`],
  [
    "long tool_use inputs",
    `{"type":"assistant","pad":"${PAD}","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"${"\\u00e9".repeat(45)}","content":"${"ab😀".repeat(10)}${BIG}${"x😀".repeat(12)}","old_string":"${"\\u0041".repeat(48)}","cmd":"${"y".repeat(300)}"}}]}}`,
  ],
];

// Not valid UTF-8: the whole line is decoded on both paths (U+FFFD in place of the bad bytes).
const INVALID = (() => {
  const [head, tail] = result(str(`${BIG}@@${BIG}`)).split("@@");
  return Buffer.concat([Buffer.from(head!), Buffer.from([0xff, 0xed, 0xa0, 0x80]), Buffer.from(tail!)]);
})();

test("hostile tool outputs: the same scans on both paths", () => {
  const slow: string[] = [];
  for (const [name, text] of CASES) {
    const buf = Buffer.from(text);
    const p = parseLine(raw(buf));
    if (p.ok !== true || !lazyOf(p.value, "pad")) slow.push(name);
    sameScan([buf], name);
  }
  assert.deepStrictEqual(slow, [], "every valid case takes the fast path");
  sameScan([INVALID], "invalid UTF-8");
});

test("every case together, in one scan (state carried from line to line)", () => {
  sameScan([...CASES.map(([, t]) => Buffer.from(t)), INVALID], "all");
});

const piece = fc.constantFrom(
  "a",
  " ",
  "é",
  "→",
  "日",
  "😀",
  '\\"',
  "\\\\",
  "\\/",
  "\\n",
  "\\u00e9",
  "\\u0041",
  "\\ud83d\\ude00",
  "\\ud800",
  "\\udc00",
  "\\ud83d",
  "MCP ",
  "<",
  // An escaped backslash before a plain `u`, and before a real `\u` escape.
  "\\\\u0041",
  "\\\\\\u0041",
);
const body = fc.array(piece, { minLength: 1, maxLength: 400 }).map((a) => a.join(""));

test("string bytes: stats, ends and containment of undecoded strings match the decoded string", () => {
  fc.assert(
    fc.property(body, body, fc.integer({ min: 1, max: 300 }), (a, b, n) => {
      const p = parseLine(raw(Buffer.from(`{"pad":"${PAD}","a":"${"z".repeat(256)}${a}","b":"${b}${"z".repeat(256)}"}`)));
      assert.equal(p.ok, true);
      const v = (p as { value: Record<string, unknown> }).value;
      const la = lazyOf(v, "a")!;
      const lb = lazyOf(v, "b")!;
      const [da, db] = [v.a as string, v.b as string];
      assert.deepStrictEqual(lazyStats(la), stringStats(da));
      assert.deepStrictEqual(joinStats(lazyStats(la), lazyStats(lb)), stringStats(da + db));
      assert.equal(stringStats(da + db).bytes, utf8Bytes(da + db));
      assert.equal(stringStats(da + db).codePoints, codePoints(da + db));
      const h = headOf(la, n);
      assert.ok(da.startsWith(h) && h.length >= Math.min(n, da.length));
      assert.equal(tailOf(la, n), da.slice(-n));
      for (const needle of ["MCP ", "a<", "z a", "Aa"]) {
        if (da.includes(needle)) assert.ok(mayContain(la, needle), needle);
        if (da.slice(-n).includes(needle)) assert.ok(mayContain(la, needle, n), `${needle} in the last ${n}`);
      }
    }),
    { numRuns: 800 },
  );
});

test("string bytes: heads and tails read as the bytes where no escape is in the window, through JSON.parse where one is", () => {
  const bodies = [
    "plain ascii text, ".repeat(400),
    `${"a".repeat(5)}\\n${"b".repeat(9000)}`,
    `${"a".repeat(200)}\\t${"b".repeat(9000)}`,
    `${"a".repeat(4100)}\\u00e9${"b".repeat(300)}`,
    `${"é→日😀".repeat(1200)}`,
    `${"a".repeat(127)}é${"b".repeat(5000)}`,
    `${"b".repeat(5000)}\\"${"a".repeat(30)}`,
    `${"b".repeat(5000)}\\ud83d\\ude00${"a".repeat(23)}`,
  ];
  for (const b of bodies) {
    const p = parseLine(raw(Buffer.from(`{"pad":"${PAD}","a":"${b}"}`)));
    assert.equal(p.ok, true);
    const v = (p as { value: Record<string, unknown> }).value;
    const la = lazyOf(v, "a")!;
    const da = v.a as string;
    for (const n of [1, 20, 24, 64, 128, 256, 257, 4096, 4097, 20000]) {
      const h = headOf(la, n);
      assert.equal(h, da.slice(0, h.length), `head ${n} of ${b.slice(0, 20)}`);
      assert.ok(h.length >= Math.min(n, da.length), `head ${n} long enough`);
      assert.equal(tailOf(la, n), da.slice(-n), `tail ${n} of ${b.slice(0, 20)}`);
    }
  }
});
