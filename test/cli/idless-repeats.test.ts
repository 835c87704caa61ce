import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assistant, jsonl, toolResult, userText } from "../builders.js";
import { parseEnvelope, runCli } from "../helpers.js";

// FORMATS.md 4.4: a request is message.id, else requestId, else uuid. Two records with neither id are two
// requests, even when they are one response's per-block fragments (same usage, back to back): the rule
// stays, and the requests table says which requests may be one response counted twice (FORMATS.md 1.1).

const dir = mkdtempSync(join(tmpdir(), "ccf-idless-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const USAGE = { input_tokens: 3, cache_creation_input_tokens: 1000, cache_read_input_tokens: 0 };

/** An assistant record without message.id and requestId (uuid only). */
function idless(o: Parameters<typeof assistant>[0]) {
  const r = assistant(o) as Record<string, any>;
  delete r.message.id;
  delete r.requestId;
  return r;
}

function write(name: string, ...recs: unknown[]): string {
  const f = join(dir, `${name}.jsonl`);
  writeFileSync(f, jsonl(...recs));
  return f;
}

test("requests: back-to-back requests with no id and the same input side are named in a note, and still counted", async () => {
  const f = write(
    "idless",
    userText("hi"),
    idless({ usage: { ...USAGE, output_tokens: 2 }, stop: null, blocks: [{ type: "text", text: "a" }] }),
    idless({
      usage: { ...USAGE, output_tokens: 50 },
      stop: "tool_use",
      blocks: [{ type: "tool_use", id: "toolu_1", name: "Read", input: {} }],
    }),
    toolResult("toolu_1", "caption"),
    assistant({ usage: { input_tokens: 1, cache_creation_input_tokens: 20, cache_read_input_tokens: 1003, output_tokens: 5 } }),
  );
  const j = parseEnvelope(await runCli(["requests", f, "--json"]), "requests");
  assert.equal(j.requests.length, 3, "the written rule is kept: two requests");
  const t = await runCli(["requests", f, "--wide"]);
  assert.equal(t.code, 0, t.stderr);
  assert.match(
    t.stdout,
    /requests 1 and 2 \(1,003 total input each\): back to back with no message\.id or requestId and the same input side, possibly one response written as several records; if so the totals count 1 request\(s\) and 1,003 input tokens too many/,
  );
  const md = await runCli(["requests", f, "--format", "markdown"]);
  assert.match(md.stdout, /requests 1 and 2 \(1,003 total input each\)/);
});

test("requests: no note when the records have ids, or when the input side differs", async () => {
  const withIds = write(
    "ids",
    userText("hi"),
    assistant({ usage: { ...USAGE, output_tokens: 2 } }),
    assistant({ usage: { ...USAGE, output_tokens: 50 } }),
  );
  const grown = write(
    "grown",
    userText("hi"),
    idless({ usage: { ...USAGE, output_tokens: 2 } }),
    userText("more"),
    idless({ usage: { ...USAGE, cache_read_input_tokens: 1003, output_tokens: 2 } }),
  );
  for (const f of [withIds, grown]) {
    const t = await runCli(["requests", f, "--wide"]);
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout, /│ total │ 2 requests/);
    assert.doesNotMatch(t.stdout, /no message\.id or requestId/);
  }
});

test("requests: a run of three idless repeats is one run, named once", async () => {
  const f = write("three", userText("hi"), ...[1, 2, 3].map((i) => idless({ usage: { ...USAGE, output_tokens: i }, stop: null })));
  const t = await runCli(["requests", f, "--wide"]);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /requests 1, 2 and 3 \(1,003 total input each\)[^\n]*count 2 request\(s\) and 2,006 input tokens too many/);
});

test("requests: a run of 20,000 idless repeats is named by its first and last request, so the note stays one short line", async () => {
  const n = 20_000;
  const f = write(
    "long",
    userText("hi"),
    ...Array.from({ length: n }, (_, i) => idless({ usage: { ...USAGE, output_tokens: i + 1 }, stop: null })),
  );
  const t = await runCli(["requests", f]);
  assert.equal(t.code, 0, t.stderr);
  const note = t.stdout.split("\n").find((l) => l.includes("no message.id or requestId"));
  assert.ok(note, "the note is there");
  assert.match(
    note,
    /requests 1 to 20000 \(20,000 requests\) \(1,003 total input each\)[^\n]*count 19,999 request\(s\) and 20,058,997 input tokens too many/,
  );
  assert.ok(note.length < 600, `note of ${note.length} chars`);
});
