import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli } from "../helpers.js";

/**
 * A valid record holding a value nested deeper than MAX_DEPTH (200): a tool result whose
 * `toolUseResult.structuredContent` nests 211 levels, and an assistant record whose tool input does. The
 * records were dropped as malformed ("nested deeper than 200 levels"), losing the tool result and the
 * request's usage; now the too-deep value reads as null and the line is listed in `health.damaged`.
 */
const S = "ffffffff-0000-4000-8000-000000000006";
const nest = (d: number) => `${"[".repeat(d)}1${"]".repeat(d)}`;
const lines = (pad: string) => [
  `{"type":"assistant","uuid":"u1","parentUuid":null,"sessionId":"${S}","timestamp":"2026-01-01T00:00:00.000Z","requestId":"req_1","message":{"id":"msg_1","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"mcp__s__t","input":{"q":${nest(230)}}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"cache_read_input_tokens":1000,"cache_creation_input_tokens":0,"output_tokens":5}}}`,
  `{"type":"user","uuid":"u2","parentUuid":"u1","sessionId":"${S}","timestamp":"2026-01-01T00:00:01.000Z","pad":"${pad}","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]},"toolUseResult":{"structuredContent":${nest(209)}}}`,
  `{"type":"assistant","uuid":"u3","parentUuid":"u2","sessionId":"${S}","timestamp":"2026-01-01T00:00:02.000Z","requestId":"req_2","message":{"id":"msg_2","role":"assistant","model":"m","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"cache_read_input_tokens":1100,"cache_creation_input_tokens":0,"output_tokens":5}}}`,
];

let root: string;
const files: Record<string, string> = {};
before(() => {
  root = mkdtempSync(join(tmpdir(), "ccf-deep-"));
  // Short lines (JSON.parse, then the depth walk) and a long one (the bytes checked before JSON.parse, skeleton first).
  for (const [name, pad] of [
    ["short", ""],
    ["long", "x".repeat(70_000)],
  ] as const) {
    files[name] = join(root, `${name}.jsonl`);
    writeFileSync(files[name], lines(pad).join("\n") + "\n");
  }
});
after(() => rmSync(root, { recursive: true, force: true }));

for (const name of ["short", "long"]) {
  test(`a record nested 211 levels deep is kept, the deep value null and listed as damage (${name} line)`, async () => {
    const o = parseEnvelope(await runCli(["outputs", files[name]!, "--json"]), "outputs");
    assert.equal(o.health.malformedCount, 0);
    assert.equal(o.health.records, 3);
    assert.deepEqual(
      o.health.damaged.map((d: any) => [d.line, d.reason.replace(/from byte \d+/, "from byte N")]),
      [
        [1, "a value nested deeper than 200 levels (71 bytes from byte N) read as null"],
        [2, "a value nested deeper than 200 levels (23 bytes from byte N) read as null"],
      ],
    );
    assert.deepEqual(
      o.toolResults.map((r: any) => [r.toolUseId, r.server, r.check, r.resultChars]),
      [["toolu_1", "s", "inline", 2]],
    );
    const q = parseEnvelope(await runCli(["requests", files[name]!, "--json"]), "requests");
    assert.deepEqual(
      q.requests.map((r: any) => [r.requestId, r.totalInputTokens]),
      [
        ["req_1", 1001],
        ["req_2", 1101],
      ],
    );
    const t = await runCli(["requests", files[name]!]);
    assert.match(t.stderr, /a value nested deeper than 200 levels \(23 bytes from byte \d+\) read as null/);
  });
}
