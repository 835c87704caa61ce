import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { readRecords } from "../../src/pipeline/runner.js";
import { emptyHealth } from "../../src/records/health.js";
import { debugLogSource } from "../../src/records/debug.js";
import { rpcLogSource } from "../../src/records/rpc.js";
import { headlessSource } from "../../src/records/streamjson.js";
import type { Pos } from "../../src/records/pos.js";
import type { Source } from "../../src/records/source.js";
import type { InputFile } from "../../src/sources/input.js";
import { BIN } from "../helpers.js";

// Lines past the giant-line threshold (lowered to 0 here, so every line goes through records/giant-line.ts or
// the streaming scanner) against the same lines held whole: every record and all of health must be the same.

const dir = mkdtempSync(join(tmpdir(), "ccf-giant-line-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const Z = (n: number) => "\u0000".repeat(n);
const big = "x".repeat(5000);

const DEBUG = [
  "2026-01-01T00:00:00.000Z [DEBUG] start",
  `2026-01-01T00:00:01.000Z [DEBUG] MCP server "s": Calling MCP tool: t${big}`,
  `  continuation ${big}`,
  "   ",
  "\u00a0\u3000",
  `${Z(3000)}2026-01-01T00:00:02.000Z [ERROR] after a remnant`,
  `${Z(40)}   indented continuation`,
  `2026-01-01T00:00:03.000Z [INFO] tail run  ${Z(5000)}`,
  Z(6000),
  `${Z(10)} \u00a0 ${Z(10)}`,
  `text ${Z(4)} inside ${Z(4000)}`,
  `${Z(2)}{"debug":"jsonl ${big}","timestamp":"2026-01-01T00:00:04.000Z"}`,
  `{"error":"a per-server line"}`,
  `{"broken":`,
  `2026-01-01T00:00:05.000Z [DEBUG] has a \r inside ${big}`,
  `2026-01-01T00:00:05.000Z [DEBUG] has a \u2028 inside`,
  `MCP server "p": pasted ${big}`,
  `bad utf8 \u{1F600}`,
];

const RPC = [
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
  `${Z(3000)}{"jsonrpc":"2.0","id":1,"result":{"big":"${big}"}}${Z(2000)}`,
  `-> {"jsonrpc":"2.0","method":"notifications/initialized"}`,
  `[{"jsonrpc":"2.0","id":2,"method":"tools/list"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`,
  `2026-01-01T00:00:00.000Z [srv] [info] Message from server: {"jsonrpc":"2.0","id":2,"result":{}} { metadata: undefined }`,
  `stderr noise ${big}`,
  Z(7000),
  `noise ${Z(3)} with NULs inside`,
  "  \u00a0 ",
  `${Z(5)}plain text after a remnant`,
  `{"not json`,
  `{"debug":"client log line","timestamp":"2026-01-01T00:00:00.000Z"}`,
];

const NDJSON = [
  `${Z(3000)}{"type":"system","subtype":"init","session_id":"s1"}`,
  `{"type":"assistant","message":{"content":[{"type":"text","text":"${big}"}]},"session_id":"s1"}`,
  Z(5000),
  `{"type":"result","subtype":"success","session_id":"s1"}${Z(100)}`,
];

/** The input with a byte sequence that is not UTF-8 in place of the emoji of its last line (debug) or none. */
function bytesOf(lines: string[]): Buffer {
  const text = Buffer.from(lines.join("\n") + "\n");
  const emoji = Buffer.from("\u{1F600}");
  const at = text.indexOf(emoji);
  if (at >= 0) text[at + 1] = 0x41;
  return text;
}

async function read<R extends { kind: string; pos: Pos }>(source: Source<R>, path: string, streamLineBytes?: number) {
  const health = emptyHealth();
  const input: InputFile = { path, kind: source.kind, bytes: 0, sha256: "" } as InputFile;
  const recs: R[] = [];
  for await (const r of readRecords(input, source, health, { streamLineBytes })) recs.push(r);
  const { scanned: _s, ...rest } = health as typeof health & { scanned?: unknown };
  return { recs: JSON.parse(JSON.stringify(recs)) as unknown, health: rest };
}

for (const [name, source, lines] of [
  ["debug log", debugLogSource, DEBUG],
  ["MCP message log", rpcLogSource, RPC],
  ["claude -p lines", headlessSource, NDJSON],
] as const) {
  test(`${name}: every line read as a giant line gives the records and health of the line held whole`, async () => {
    const file = join(dir, `${name.replace(/\W+/g, "-")}.log`);
    writeFileSync(file, bytesOf(lines as string[]));
    const held = await read(source as Source<{ kind: string; pos: Pos }>, file);
    const giant = await read(source as Source<{ kind: string; pos: Pos }>, file, 0);
    assert.deepStrictEqual(giant, held);
    // (A giant claude -p line that is not JSON is said in the streaming scanner's words, as a transcript's is.)
    assert.ok((held.health as { malformedCount: number }).malformedCount >= 1, "the NUL lines are malformed both ways");
  });
}

test("debug log: an entry longer than its clip read by its head is the entry read whole (text, clip, damage, a CR past the head)", async () => {
  const long = "é→日".repeat(700_000); // 6.3 MB, past MAX_ENTRY_CHARS and the head kept
  const file = join(dir, "long.log");
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(`2026-01-01T00:00:00.000Z [ERROR] MCP server "s": Connection failed: ${long}`),
      Buffer.from([0xff]),
      Buffer.from(`${long}\n${Z(10)}  ${long}${Z(3000)}\n`),
      // A CR far past the head: the header pattern's `.` stops there, so this is a continuation line.
      Buffer.from(`2026-01-01T00:00:01.000Z [DEBUG] ${long}\r tail\n`),
    ]),
  );
  const held = await read(debugLogSource, file);
  const giant = await read(debugLogSource, file, 1024);
  assert.deepStrictEqual(giant, held);
  const recs = held.recs as Array<{ kind: string; clipped: boolean; lines: number; event: { type: string } }>;
  assert.deepStrictEqual(
    recs.map((r) => [r.kind, r.clipped, r.lines, r.event.type]),
    [["debug", true, 3, "mcp-connection-failed"]],
  );
  assert.equal((held.health as { damagedCount: number }).damagedCount, 3, "the bad byte, the leading and the trailing NUL runs");
});

test("claude -p output through stdin in small chunks: chunks of zeros before the layout is known give the records of the output read whole", async () => {
  const init = '{"type":"system","subtype":"init","session_id":"s1"}';
  const result = '{"type":"result","subtype":"success","session_id":"s1"}';
  for (const [name, text] of [
    ["lines", Buffer.concat([Buffer.from("\n \n"), Buffer.alloc(40_000), Buffer.from(`\n\n${Z(7)}  ${init}\n${result}\n`)])],
    ["array", Buffer.concat([Buffer.alloc(40_000), Buffer.from(`\n[${init},\n${result}]${Z(9)}`)])],
    ["values", Buffer.concat([Buffer.alloc(40_000), Buffer.from(`{\n  "type": "result",\n  "session_id": "s1"\n}\n`)])],
    ["zeros only", Buffer.concat([Buffer.alloc(40_000), Buffer.from("\n"), Buffer.alloc(30_000)])],
  ] as const) {
    const file = join(dir, `stdin-${name.replace(/\W+/g, "-")}.json`);
    writeFileSync(file, text);
    const whole = await read(headlessSource, file);
    for (const size of [1000, 4096]) {
      const parts: Buffer[] = [];
      for (let i = 0; i < text.length; i += size) parts.push(text.subarray(i, i + size));
      const health = emptyHealth();
      const input = { path: "-", kind: "stream-json", bytes: 0, sha256: "" } as InputFile;
      const recs: unknown[] = [];
      for await (const r of readRecords(input, headlessSource, health, { stdin: Readable.from(parts) })) recs.push(r);
      const { scanned: _s, ...rest } = health as typeof health & { scanned?: unknown };
      const got = JSON.parse(JSON.stringify({ recs, health: rest }).replaceAll('"-"', JSON.stringify(file)));
      assert.deepStrictEqual(got, whole, `${name}, chunks of ${size}`);
    }
  }
});

/**
 * Peak RSS of the CLI reading `file`, from inside the child at exit, in bytes: VmHWM of /proc/self/status where
 * there is one. Not resourceUsage().maxRSS: Linux carries a forked child's maxRSS across exec, so it starts at
 * the test process's own RSS at the fork (160 MB after this file's earlier tests, against 114 MB run alone).
 */
function peak(args: string[]): number {
  const script = join(dir, "peak.mjs");
  writeFileSync(
    script,
    `import { readFileSync } from "node:fs";\n` +
      `const hwm = () => { try { const m = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync("/proc/self/status", "utf8")); return m ? Number(m[1]) : undefined; } catch { return undefined; } };\n` +
      `process.on("exit", () => process.stderr.write("\\nPEAK " + (hwm() ?? process.resourceUsage().maxRSS) * 1024 + "\\n"));\n` +
      `process.argv.splice(1, 1, ${JSON.stringify(BIN)});\nawait import(${JSON.stringify(BIN)});\n`,
  );
  const r = spawnSync(process.execPath, [script, ...args], { encoding: "utf8", maxBuffer: 1 << 26 });
  const m = /PEAK (\d+)/.exec(r.stderr);
  assert.ok(m, r.stderr);
  return Number(m[1]);
}

test("one line of NULs or of text without a newline: a line twice as long costs every reader less than its size more", () => {
  // Peak RSS at 32 MiB and at 64 MiB: what one read costs whatever the line (the read buffers grown to 8 MiB, the
  // hash) cancels out, what the line costs does not. Held, the line cost three times its size (its pieces,
  // Buffer.concat, the string): 96 MiB more for the longer one.
  const size = 32 << 20;
  const files: Record<string, [string, string]> = { nul: ["", ""], text: ["", ""] };
  for (const [name, byte] of [
    ["nul", 0],
    ["text", 0x61],
  ] as const)
    for (const k of [1, 2] as const) {
      const f = join(dir, `${name}-${k}.json`);
      writeFileSync(f, Buffer.alloc(size * k, byte));
      files[name]![k - 1] = f;
    }
  for (const cmd of [["debug"], ["rpc"], ["report", "--stream-json"], ["requests"]])
    for (const [name, [one, two]] of Object.entries(files)) {
      const more = peak([...cmd, two]) - peak([...cmd, one]);
      // 8-12 MB more on a quiet machine; up to 19 MB seen under a loaded test run (the read-ahead and the hash
      // worker lag, garbage is collected later). A line held even once costs its size more (32 MiB): 3/4 tells them apart.
      assert.ok(more < (size * 3) / 4, `${cmd.join(" ")} on ${name}: ${more} bytes more for ${size} bytes more of line`);
    }
});
