import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Fanout } from "../../src/analyses/analysis.js";
import { REQUEST_WINDOW, requestsAnalysisWith, type RequestsOptions } from "../../src/analyses/requests.js";
import { jsonChunks } from "../../src/render/json-stream.js";
import { readRecords } from "../../src/pipeline/runner.js";
import type { SpooledRows } from "../../src/sources/row-spool.js";
import { emptyHealth } from "../../src/records/health.js";
import { transcriptSource } from "../../src/records/transcript-source.js";
import type { InputFile } from "../../src/sources/input.js";
import { runCli, sample } from "../helpers.js";
import { assistant, jsonl, toolResult, userText } from "../builders.js";

/** Main chain: 600 requests of two fragments each, with results and text between them; two subagents; one copy across chains. */
function chains(): Record<string, string> {
  const main: unknown[] = [];
  for (let i = 1; i <= 600; i++) {
    const id = `msg_main_${i}`;
    main.push(userText(`q${i}`), assistant({ id, stop: null, usage: { cache_read_input_tokens: 1000 * i, output_tokens: 0 } }));
    main.push(
      assistant({
        id,
        usage: { cache_read_input_tokens: 1000 * i, output_tokens: i },
        blocks: [{ type: "tool_use", id: `toolu_${i}`, name: "Bash" }],
      }),
    );
    main.push(toolResult(`toolu_${i}`, "x".repeat(i % 17)));
  }
  const sub = (tag: string, n: number) =>
    Array.from({ length: n }, (_, i) =>
      assistant({ id: i === 3 ? "msg_main_7" : `msg_${tag}_${i}`, usage: { input_tokens: i, cache_creation_input_tokens: 5 } }),
    );
  return { main: jsonl(...main), aaaa: jsonl(...sub("aaaa", 150)), bbbb: jsonl(...sub("bbbb", 2)) };
}

async function run(text: Record<string, string>, opts: RequestsOptions) {
  const fan = new Fanout({ requests: requestsAnalysisWith(opts) });
  for (const chain of Object.keys(text)) {
    const input: InputFile = { path: "-", kind: "transcript", bytes: 0, sha256: "", chain };
    for await (const r of readRecords(input, transcriptSource, emptyHealth(), { stdin: Readable.from([Buffer.from(text[chain]!)]) }))
      fan.step(r);
  }
  return fan.finish().requests;
}

const json = (r: { requests: unknown; totals: unknown }) => [...jsonChunks({ requests: r.requests, totals: r.totals })].join("");

test("spilled rows read back as the same JSON, byte for byte, as rows kept in memory", async () => {
  const text = chains();
  const dir = mkdtempSync(join(tmpdir(), "spill-test-"));
  try {
    const whole = await run(text, { memoryRows: 1_000_000 });
    assert.equal(whole.requests.length, 752);
    const expected = json(whole);
    assert.equal(expected, JSON.stringify({ requests: whole.requests.toArray(), totals: whole.totals }, null, 2));
    for (const memoryRows of [0, 1, 7, 600, 751]) {
      const spilled = await run(text, { memoryRows, spoolDir: dir });
      assert.equal(json(spilled), expected, `memoryRows ${memoryRows}`);
      // Iterated twice (report prints tables and JSON from one result): the same rows again.
      assert.equal(json(spilled), expected, `memoryRows ${memoryRows}, second pass`);
      // The file is unlinked as soon as it is open: nothing is left behind in the directory, during the run or after.
      assert.deepEqual(readdirSync(dir), []);
      (spilled.requests as SpooledRows<unknown>).close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("rows closed by the window keep their fragments, totals and deltas; the cross-chain copy stays a duplicate", async () => {
  const r = await run(chains(), { memoryRows: 3 });
  const rows = r.requests.toArray();
  const main = rows.filter((q) => q.chain === "main");
  assert.equal(main.length, 600);
  assert.ok(main.every((q) => q.fragments === 2 && q.outputPlaceholder === false && q.toolUses.length === 1));
  assert.deepEqual(
    main.slice(0, 3).map((q) => [q.index, q.totalInputTokens, q.deltaTokens]),
    [
      [1, 1003, null],
      [2, 2003, 1000],
      [3, 3003, 1000],
    ],
  );
  assert.equal(rows.find((q) => q.chain === "aaaa" && q.index === 4)?.duplicateOf, "main#7");
  const t = r.totals.find((x) => x.chain === "main")!;
  assert.equal(t.requests, 600);
  assert.equal(t.cacheReadInputTokens, (1000 * 600 * 601) / 2);
  assert.equal(t.outputTokens, (600 * 601) / 2);
  assert.equal(t.lastTotalInputTokens, 600_003);
  const a = r.totals.find((x) => x.chain === "aaaa")!;
  assert.deepEqual([a.requests, a.duplicates], [149, 1]);
});

test(`a fragment arriving after ${REQUEST_WINDOW} later requests counts as a copy of its request`, async () => {
  const early = assistant({ id: "msg_early", usage: { cache_read_input_tokens: 10 } });
  const later = Array.from({ length: REQUEST_WINDOW }, (_, i) => assistant({ id: `msg_l${i}` }));
  const r = await run({ main: jsonl(early, ...later, assistant({ id: "msg_early", usage: { cache_read_input_tokens: 10 } })) }, {});
  const rows = r.requests.toArray();
  assert.equal(rows.length, REQUEST_WINDOW + 2);
  assert.equal(rows.at(-1)!.duplicateOf, "main#1");
  assert.equal(r.totals[0]!.requests, REQUEST_WINDOW + 1);
  assert.equal(r.totals[0]!.duplicates, 1);
});

test("CCFORENSICS_SPOOL_ROWS=1: requests prints the same document in every format as with rows in memory", async () => {
  const args = ["requests", "2a2a2a2a", "--claude-dir", sample("subagents", "claude")];
  for (const format of ["json", "csv", "markdown", "table"]) {
    const plain = await runCli([...args, "--format", format]);
    const spilled = await runCli([...args, "--format", format], { env: { CCFORENSICS_SPOOL_ROWS: "1" } });
    assert.equal(plain.code, 0, plain.stderr);
    assert.ok(plain.stdout.length > 200, format);
    assert.equal(spilled.stdout, plain.stdout, format);
    assert.equal(spilled.code, 0);
  }
});

test("the spool refuses a temp folder inside a Claude config dir", async () => {
  const tree = sample("subagents", "claude", "projects", "-home-dev-widget");
  await assert.rejects(run(chains(), { memoryRows: 0, spoolDir: tree }), /inside the Claude config dir/);
});
