import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STREAM_LINE_BYTES } from "../../src/records/transcript-source.js";
import { assistant, jsonl, toolResult } from "../builders.js";
import { parseEnvelope, runCli } from "../helpers.js";

// One tool result past the streaming threshold, end to end: the CLI counts it exactly, from a file and
// from stdin, says on stderr and in health that the line was scanned, and reports a broken giant line.

const dir = mkdtempSync(join(tmpdir(), "ccf-giant-cli-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const text = 'line é→日😀 "q" \\ \t end\n'.repeat(Math.ceil(STREAM_LINE_BYTES / 28));
const body = jsonl(
  assistant({
    id: "msg_1",
    usage: { cache_read_input_tokens: 900 },
    blocks: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: {} }],
  }),
  toolResult("toolu_1", text),
  assistant({ id: "msg_2", usage: { cache_read_input_tokens: 5000 } }),
  `{"type":"user","message":{"content":"${"x".repeat(STREAM_LINE_BYTES)}`,
);
const file = join(dir, "giant.jsonl");
writeFileSync(file, body);

for (const [name, args, stdin] of [
  ["a file", [file], undefined],
  ["stdin", ["-"], body],
] as const) {
  test(`${name}: a tool result past ${STREAM_LINE_BYTES >> 20} MiB counted exactly, the line named as scanned, the broken one as malformed`, async () => {
    const where = stdin === undefined ? file : "-";
    const r = await runCli(["requests", ...args, "--json"], { stdin });
    const j = parseEnvelope(r, "requests");
    assert.equal(j.requests.length, 2);
    assert.equal(j.requests[1].added.toolResultChars, text.length);
    assert.equal(j.requests[1].added.toolResults, 1);
    assert.deepStrictEqual(
      j.health.scanned.map((s: { line: number; textKept: boolean }) => [s.line, s.textKept]),
      [[2, true]],
    );
    assert.deepStrictEqual(
      j.health.malformed.map((m: { file: string; line: number; reason: string }) => [
        m.file,
        m.line,
        /^truncated record \(Unexpected end of JSON input/.test(m.reason),
      ]),
      [[where, 4, true]],
    );
    assert.match(r.stderr, new RegExp(`${where.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:2: [\\d,]+ bytes\\n`));
    const o = parseEnvelope(await runCli(["outputs", ...args, "--json"], { stdin }), "outputs");
    assert.equal(o.toolResults[0].chars, text.length);
    assert.equal(o.toolResults[0].utf8Bytes, Buffer.byteLength(text));
  });
}
