import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli, sample } from "../helpers.js";

/** samples/compaction: one 2.1.39 session compacted twice, a tool result right before each boundary (FORMATS.md 11). */
const EXPECTED = JSON.parse(readFileSync(sample("compaction", "EXPECTED.json"), "utf8"));
const FILE = `samples/${EXPECTED.file}`;
type Boundary = { line: number; trigger: string; preTokens: number };
const [AUTO, MANUAL] = EXPECTED.compactions as [Boundary, Boundary];

/** The markdown tables of a document: header cells, then the body rows' cells. */
function mdTables(md: string): Array<{ header: string[]; rows: string[][] }> {
  const out: Array<{ header: string[]; rows: string[][] }> = [];
  const cells = (l: string) =>
    l
      .slice(1, -1)
      .split(" | ")
      .map((c) => c.trim());
  const lines = md.split("\n");
  for (let i = 0; i < lines.length - 1; i++) {
    if (!lines[i]!.startsWith("| ") || !/^\|[-:|]+\|$/.test(lines[i + 1]!)) continue;
    const t = { header: cells(lines[i]!), rows: [] as string[][] };
    for (i += 2; i < lines.length && lines[i]!.startsWith("| "); i++) t.rows.push(cells(lines[i]!));
    out.push(t);
  }
  return out;
}

/** Every Δ / delta / tok/char cell of every table: none may be negative because of a compaction. */
function growthCells(md: string): string[] {
  return mdTables(md).flatMap((t) => {
    const at = t.header.flatMap((h, i) => (/^(Δ tokens|delta|tok\/char)$/.test(h) ? [i] : []));
    return t.rows.flatMap((r) => at.map((i) => r[i]!));
  });
}

test("sample: two boundaries (auto, manual) with a tool result right before each, as the generator says", () => {
  assert.deepEqual(
    EXPECTED.compactions.map((c: any) => [c.trigger, c.droppedToolResults]),
    [
      ["auto", 1],
      ["manual", 1],
    ],
  );
  const text = readFileSync(FILE, "utf8").split("\n");
  for (const c of EXPECTED.compactions) {
    const before = JSON.parse(text[c.line - 2]!);
    const b = JSON.parse(text[c.line - 1]!);
    assert.equal(b.parentUuid, null, "a boundary is a new root");
    assert.equal(typeof b.logicalParentUuid, "string");
    assert.equal(JSON.parse(text[c.line]!).isCompactSummary, true, "the summary follows the boundary");
    // Right before the manual one is the Bash result; before the auto one an attachment follows the Edit result.
    const lastUser = [before, JSON.parse(text[c.line - 3]!)].find((r) => r.type === "user");
    assert.equal(lastUser?.message.content[0].type, "tool_result", `line ${c.line}`);
  }
});

test("requests: the request after a boundary is a reset with its trigger and preTokens, never a negative delta", async () => {
  const j = parseEnvelope(await runCli(["requests", FILE, "--json"]), "requests");
  assert.equal(j.requests.length, EXPECTED.requests.length);
  for (const [i, want] of EXPECTED.requests.entries()) {
    const q = j.requests[i];
    assert.equal(q.deltaTokens, want.deltaTokens, `request ${q.index}: delta`);
    assert.equal(q.afterCompaction, want.afterCompaction, `request ${q.index}`);
    assert.deepEqual(
      q.compaction && [q.compaction.trigger, q.compaction.preTokens],
      want.afterCompaction ? [want.trigger, want.preTokens] : null,
    );
    if (q.deltaTokens !== null) assert.ok(q.deltaTokens >= 0, `request ${q.index}: ${q.deltaTokens}`);
  }
  const resets = j.requests.filter((q: any) => q.afterCompaction);
  assert.deepEqual(
    resets.map((q: any) => [q.compaction.line, q.segment]),
    [
      [AUTO.line, 2],
      [MANUAL.line, 3],
    ],
  );
  assert.equal(j.totals[0].compactions, 2);
});

test("requests: what came before a boundary is not counted as added after it; the summary is not user text", async () => {
  const j = parseEnvelope(await runCli(["requests", FILE, "--json"]), "requests");
  for (const [i, want] of EXPECTED.requests.entries()) {
    const a = j.requests[i].added;
    assert.deepEqual(
      [a.toolResults, a.toolResultChars, a.userTextChars, a.compactSummaryChars, a.attachments],
      [
        want.added.toolResults,
        want.added.toolResultChars,
        want.added.userTextChars,
        want.added.compactSummaryChars,
        want.added.attachments,
      ],
      `request ${j.requests[i].index}`,
    );
  }
  const resets = j.requests.filter((q: any) => q.afterCompaction);
  assert.deepEqual(
    resets.map((q: any) => [q.added.toolResults, q.added.attachments]),
    [
      [0, 0],
      [0, 0],
    ],
  );
  assert.ok(resets.every((q: any) => q.added.compactSummaryChars > 100));
});

test("requests table: the reset shows as such, marked §, with one note; the compacted total shows no growth", async () => {
  const r = await runCli(["requests", FILE, "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  const [t] = mdTables(r.stdout);
  const col = (h: string) => t!.header.indexOf(h);
  const byIndex = new Map(t!.rows.map((row) => [row[0]!, row]));
  const reset = EXPECTED.requests.filter((q: any) => q.afterCompaction);
  for (const q of reset) {
    const row = byIndex.get(`${q.index} §`);
    assert.ok(row, `request ${q.index} marked §`);
    assert.equal(row[col("delta")], `reset (${q.trigger}, ${q.preTokens.toLocaleString("en-US")} before)`);
  }
  const total = t!.rows.at(-1)!;
  assert.equal(total[0], "**total §**");
  assert.equal(total[col("delta")], "");
  assert.equal(r.stdout.split("\n").filter((l) => l.startsWith("> § ")).length, 1, "one § note");
  assert.deepEqual(
    growthCells(r.stdout).filter((c) => /^-\d/.test(c)),
    [],
  );
  const csv = await runCli(["requests", FILE, "--format", "csv"]);
  const [head, ...lines] = csv.stdout.split("\r\n");
  const k = head!.split(",");
  const resetLine = lines.find((l) => l.split(",")[k.indexOf("index")] === String(reset[0].index))!.split(",");
  assert.deepEqual(
    [resetLine[k.indexOf("deltaTokens")], resetLine[k.indexOf("compactionTrigger")], resetLine[k.indexOf("compactionPreTokens")]],
    ["", "auto", String(AUTO.preTokens)],
  );
});

test("outputs: the result right before a boundary is not charged with the compaction's drop", async () => {
  const j = parseEnvelope(await runCli(["outputs", FILE, "--json"]), "outputs");
  const text = readFileSync(FILE, "utf8").split("\n");
  const lastResultBefore = (line: number) => {
    for (let l = line - 1; l > 0; l--) if (JSON.parse(text[l - 1]!).message?.content?.[0]?.type === "tool_result") return l;
    return -1;
  };
  const before = [AUTO, MANUAL].map((b) => j.toolResults.find((r: any) => r.line === lastResultBefore(b.line)));
  assert.deepEqual(
    before.map((r: any) => [r.tool, r.deltaTokens, r.tokensPerChar]),
    [
      ["Edit", null, null],
      ["Bash", null, null],
    ],
  );
  assert.deepEqual(
    before.map((r: any) => [r.afterCompaction, r.compaction?.trigger, r.compaction?.line]),
    [
      [true, "auto", AUTO.line],
      [true, "manual", MANUAL.line],
    ],
  );
  for (const r of j.toolResults) {
    if (r.deltaTokens !== null) assert.ok(r.deltaTokens >= 0, `${r.toolUseId}: Δ ${r.deltaTokens}`);
    if (r.tokensPerChar !== null) assert.ok(r.tokensPerChar >= 0, `${r.toolUseId}: tok/char ${r.tokensPerChar}`);
  }
  const md = await runCli(["outputs", FILE, "--format", "markdown"]);
  const t = mdTables(md.stdout).find((x) => x.header.includes("Δ tokens"))!;
  const d = t.header.indexOf("Δ tokens");
  assert.deepEqual(
    t.rows.filter((row) => row[d]!.endsWith("§")).map((row) => row[d]),
    [
      `reset (auto, ${AUTO.preTokens.toLocaleString("en-US")} before) §`,
      `reset (manual, ${MANUAL.preTokens.toLocaleString("en-US")} before) §`,
    ],
  );
  assert.deepEqual(
    growthCells(md.stdout).filter((c) => /^-\d/.test(c)),
    [],
  );
  assert.equal(md.stdout.split("\n").filter((l) => l.startsWith("> § ")).length, 1, "one § note");
});

test("report: no negative Δ or tokens per char anywhere, § on every compacted row, the summary names both compactions", async () => {
  const r = await runCli(["report", FILE, "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  const cells = growthCells(r.stdout);
  assert.ok(cells.length > 10);
  assert.deepEqual(
    cells.filter((c) => /^-\d/.test(c)),
    [],
  );
  assert.equal(cells.filter((c) => c.startsWith("reset (")).length, 4, "two requests and the two results before them");
  assert.match(
    r.stdout,
    new RegExp(
      `compactions \\(main chain\\) \\| 2 \\(auto before request 5: ${AUTO.preTokens.toLocaleString("en-US")} tokens; manual before request 9`,
    ),
  );
  const j = parseEnvelope(await runCli(["report", FILE, "--json"]), "report");
  assert.equal(j.summary.compactions, 2);
  assert.ok(j.toolResults.every((x: any) => x.deltaTokens === null || x.deltaTokens >= 0));
});

test("staircase: the results before a boundary keep their size but show the reset, marked §", async () => {
  const r = await runCli(["outputs", "--staircase", FILE, "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  // The blog-page layout keeps the key and the most important columns (Δ tokens, tok/char) in the first table.
  const t = mdTables(r.stdout).find((x) => x.header.includes("size (chars)") && x.header.includes("Δ tokens"))!;
  const d = t.header.indexOf("Δ tokens");
  const tpc = t.header.indexOf("tok/char");
  const marked = t.rows.filter((row) => row[d]!.endsWith(" §"));
  assert.equal(marked.length, 2);
  assert.ok(marked.every((row) => row[tpc] === "—"));
  assert.deepEqual(
    growthCells(r.stdout).filter((c) => /^-\d/.test(c)),
    [],
  );
  assert.ok(r.stdout.includes("> § after a compaction"));
});

test("compare: a compacted run's row is marked § and counts its compactions", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-compact-"));
  const manifest = join(dir, "manifest.json");
  const claudeDir = sample("compaction", "claude");
  writeFileSync(
    manifest,
    JSON.stringify([
      { label: "base", session: EXPECTED.session, claudeDir },
      { label: "again", session: EXPECTED.session, claudeDir },
    ]),
  );
  const j = parseEnvelope(await runCli(["compare", manifest, "--json"]), "compare");
  assert.deepEqual(
    j.runs.map((x: any) => x.compactions),
    [2, 2],
  );
  const md = await runCli(["compare", manifest, "--format", "markdown"]);
  // Two runs: the blog-page layout turns the table, so the runs' labels head its columns.
  const t = mdTables(md.stdout).find((x) => x.header[0] === "label")!;
  assert.deepEqual(t.header.slice(1), ["base §", "again §"]);
  assert.ok(md.stdout.includes("> § after a compaction"));
});
