import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { golden, parseEnvelope, runCli, sample } from "../helpers.js";

/** samples/rewind: one session rewound twice (Esc Esc to an earlier answer, then an edited first prompt). */
const EXPECTED = JSON.parse(readFileSync(sample("rewind", "EXPECTED.json"), "utf8"));
const FILE = `samples/${EXPECTED.file}`;

test("sample: the rewound prompt points back at an earlier record, and the abandoned branch stays in the file", () => {
  const lines = readFileSync(FILE, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  const uuids = lines.map((r) => r.uuid);
  const rewound = EXPECTED.requests.find((q: any) => q.rewound && q.baseIndex !== null);
  const first = lines[rewound.line - 1];
  // Up from the rewound request: its prompt's parent lies before the previous request in the file.
  const prompt = lines[uuids.indexOf(first.parentUuid)];
  assert.equal(prompt.type, "user");
  const prev = EXPECTED.requests[rewound.index - 2];
  assert.ok(uuids.indexOf(prompt.parentUuid) + 1 < prev.line, "the prompt continues from before the previous request");
  assert.equal(EXPECTED.abandoned.length, 1);
  assert.ok(EXPECTED.abandoned[0].line > prev.line && EXPECTED.abandoned[0].line < rewound.line);
});

test("requests: the delta and what was added follow each request's own parentUuid path", async () => {
  const j = parseEnvelope(await runCli(["requests", FILE, "--json"]), "requests");
  assert.equal(j.requests.length, EXPECTED.requests.length);
  for (const [i, want] of EXPECTED.requests.entries()) {
    const q = j.requests[i];
    assert.equal(q.deltaTokens, want.deltaTokens, `request ${q.index}: delta`);
    assert.equal(q.afterCompaction, false);
    assert.deepEqual(
      q.compaction && [q.compaction.kind, q.compaction.baseIndex],
      want.rewound ? ["rewind", want.baseIndex] : null,
      `request ${q.index}`,
    );
    assert.equal(q.added.toolResults, want.added.toolResults, `request ${q.index}: tool results`);
    assert.equal(q.added.toolResultChars, want.added.toolResultChars, `request ${q.index}: tool result chars`);
    assert.equal(q.added.userTextChars, want.added.userTextChars, `request ${q.index}: user text`);
  }
  // Counted in file order the request after the first rewind shrank, charged with the abandoned Bash result.
  assert.ok(EXPECTED.requests.some((q: any) => q.rewound && q.fileOrderDelta < 0 && q.deltaTokens > 0));
});

test("outputs: a tool result on the abandoned branch is charged to no request", async () => {
  const j = parseEnvelope(await runCli(["outputs", FILE, "--json"]), "outputs");
  const [lost] = EXPECTED.abandoned;
  for (const r of j.toolResults) {
    if (r.toolUseId === lost.toolUseId) {
      assert.deepEqual([r.requestIndex, r.deltaTokens, r.afterCompaction, r.compaction?.kind], [null, null, false, "rewind"]);
      continue;
    }
    const carrier = EXPECTED.requests.find((q: any) => q.index === r.requestIndex);
    assert.ok(carrier && carrier.added.toolResults === 1, `${r.toolUseId}: carried by request ${r.requestIndex}`);
    assert.equal(r.deltaTokens, carrier.deltaTokens);
    assert.equal(r.compaction, null);
  }
  const t = await runCli(["outputs", FILE, "--format", "markdown"]);
  assert.match(t.stdout, /\| none ↶ \|/);
  assert.match(t.stdout, /req none ↶: a rewind/);
});

test("requests table: a rewound request shows ↶ and the request its delta is counted from", async () => {
  const r = await runCli(["requests", FILE, "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  for (const q of EXPECTED.requests.filter((x: any) => x.rewound))
    assert.match(r.stdout, new RegExp(`^\\| ${q.index} ↶${q.baseIndex ?? ""} \\|`, "m"));
  assert.match(r.stdout, /↶N after a rewind/);
  const csv = await runCli(["requests", FILE, "--format", "csv"]);
  const [head, ...rows] = csv.stdout.trimEnd().split("\n");
  const at = head!.split(",").indexOf("rewoundFrom");
  assert.ok(at >= 0, head);
  assert.deepEqual(
    rows.slice(0, EXPECTED.requests.length).map((l) => l.split(",")[at]),
    EXPECTED.requests.map((q: any) => (!q.rewound ? "" : q.baseIndex === null ? "true" : String(q.baseIndex))),
  );
});

for (const [command, format, ext] of [
  ["requests", "table", "txt"],
  ["requests", "json", "json"],
  ["outputs", "table", "txt"],
] as const) {
  test(`golden: ${command} on the rewind sample as ${format}`, async () => {
    const r = await runCli([command, FILE, "--format", format]);
    assert.equal(r.code, 0, r.stderr);
    golden(`rewind/${command}.${ext}`, r.stdout);
  });
}
