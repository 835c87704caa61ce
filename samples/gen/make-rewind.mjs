// Writes samples/rewind: one Claude Code session rewound twice (Esc Esc / /rewind, or an edited
// message). The abandoned branch stays in the file; the new prompt's parentUuid points back at an
// earlier record, so the request after it grew from that earlier request, not from the one before it
// in the file (docs/REFERENCE.md "Rewinds"):
//   * rewind 1: after request 4 called Bash and its large result was written, the user rewound to
//     the end of request 3's answer and asked something else: the Bash result is on the abandoned
//     branch, and request 5 grew from request 3;
//   * rewind 2: the user edited the first prompt: the new prompt is a root (parentUuid null) and the
//     branch starts over, so request 7 has no request before it on its own path.
//   node samples/gen/make-rewind.mjs
// EXPECTED.md / EXPECTED.json are computed from the file just written by walking parentUuid (`reference`).

import { readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { analyzeTranscript, projectKey, samplesRoot, session, text, toolUse, writeText } from "./lib.mjs";

const ROOT = samplesRoot();
const GEN = "node samples/gen/make-rewind.mjs";
const rel = (p) => relative(ROOT, p).split("\\").join("/");
const json = (v) => JSON.stringify(v, null, 2) + "\n";

const SESSION = "e1f0a2b3-2188-4c0d-9e1f-7e3e4d5c6b7a";
const CWD = "/home/dev/exporter";
const VERSION = "2.1.88";

const exporter = [
  "export function toCsv(rows: string[][]): string {",
  "  const out: string[] = [];",
  "  for (let i = 0; i < rows.length - 1; i++) out.push(rows[i].map(quote).join(','));",
  "  return out.join('\\n');",
  "}",
  "const quote = (s: string) => (/[\",\\n]/.test(s) ? `\"${s.replace(/\"/g, '\"\"')}\"` : s);",
];
const numbered = (lines) => lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n");
const readResult = (path, lines) => ({ type: "text", file: { filePath: path, content: lines.join("\n"), numLines: lines.length, startLine: 1, totalLines: lines.length } });
const firstToolId = (entries) => entries.find((e) => e.obj.message.content[0].type === "tool_use").obj.message.content[0].id;

function make() {
  const dir = join(ROOT, "rewind");
  rmSync(dir, { recursive: true, force: true });
  const s = session({ sessionId: SESSION, cwd: CWD, version: VERSION, slug: "rewound-csv-export", start: "2026-03-04T14:10:00.000Z" });

  s.user("The CSV export drops the last row. Find out why.", { snapshot: true, dt: 0 });
  const first = { input: 3, cacheRead: 18210, cacheCreation: 2140 };
  const r1 = s.assistantSplit({ base: first, blocks: [text("Reading the exporter."), toolUse("Read", { file_path: `${CWD}/src/csv.ts` })] });
  s.toolResult(firstToolId(r1), numbered(exporter), readResult(`${CWD}/src/csv.ts`, exporter));
  const r2 = s.assistantSplit({ blocks: [toolUse("Grep", { pattern: "toCsv\\(", path: CWD, output_mode: "content" })] });
  const grep = "src/export.ts:12:  res.send(toCsv(rows));\ntest/csv.test.ts:4:  expect(toCsv([['a'], ['b']])).toBe('a\\nb');";
  s.toolResult(firstToolId(r2), grep, { mode: "content", numFiles: 2, filenames: [], content: grep, numLines: 2 });
  s.assistantSplit({ blocks: [text("`toCsv` loops to `rows.length - 1`, so the last row never gets pushed. The test only checks two rows and was written to match.")] });
  s.system("turn_duration");
  // Where rewind 1 goes back to: the end of request 3's answer.
  const afterAnswer = { last: s.last, ctx: s.ctx };

  const spec = Array.from({ length: 24 }, (_, i) => `${i + 1}. rows arrive as an async iterable; write each ${["row", "field", "quote", "line end"][i % 4]} as it comes, never buffer the file (case ${i + 1})`).join("\n");
  s.user(`Rewrite the exporter to stream rows, and run the whole test suite. The spec:\n${spec}`, { snapshot: true, dt: 31000 });
  const r4 = s.assistantSplit({ blocks: [text("I'll run the suite first to see where it stands."), toolUse("Bash", { command: "npm test 2>&1", description: "Run the test suite" })] });
  const suite = Array.from({ length: 260 }, (_, i) => `  ${i % 41 === 7 ? "✗" : "✓"} csv ${["quotes", "commas", "newlines", "unicode", "empty"][i % 5]} case ${i + 1} (${(i * 7) % 13} ms)`).join("\n");
  const out = `> exporter@1.4.0 test\n> vitest run\n\n${suite}\n\nTest Files  9 passed (9)\nTests  254 passed | 6 failed (260)`;
  s.toolResult(firstToolId(r4), out, { stdout: out, stderr: "", interrupted: false, isImage: false }, { dt: 41000 });
  const abandonedResult = firstToolId(r4);

  // Rewind 1 (Esc Esc): the new prompt continues from the end of request 3's answer.
  s.last = afterAnswer.last;
  s.ctx = afterAnswer.ctx;
  s.pending = 0;
  s.user("Never mind the rewrite: just fix the off-by-one and the test.", { snapshot: true, dt: 9000 });
  const r5 = s.assistantSplit({
    blocks: [toolUse("Edit", { file_path: `${CWD}/src/csv.ts`, old_string: "i < rows.length - 1", new_string: "i < rows.length", replace_all: false })],
  });
  s.toolResult(firstToolId(r5), `The file ${CWD}/src/csv.ts has been updated successfully.`, { filePath: `${CWD}/src/csv.ts`, oldString: "i < rows.length - 1", newString: "i < rows.length", structuredPatch: [], userModified: false, replaceAll: false });
  s.assistantSplit({ blocks: [text("Fixed: the loop now runs to `rows.length`, so the last row is written.")] });
  s.system("turn_duration");

  // Rewind 2: the user edited the first prompt. The new prompt is a root; nothing before it on its path.
  s.last = null;
  s.ctx = null;
  s.pending = 0;
  s.user("The CSV export drops the last row and quotes numbers. Find out why, both.", { snapshot: true, dt: 64000 });
  s.assistantSplit({ base: { input: 3, cacheRead: 18210, cacheCreation: 2155 }, blocks: [text("Two things to check: the row loop and `quote`. Reading the exporter again.")] });
  s.system("turn_duration");

  const file = s.write(join(dir, "claude", "projects", projectKey(CWD), `${SESSION}.jsonl`));
  const exp = reference(readFileSync(file, "utf8"));
  check(exp.requests.length === 7, "seven requests");
  check(exp.requests[4].baseIndex === 3 && exp.requests[4].rewound, "request 5 grew from request 3");
  check(exp.requests[6].rewound && exp.requests[6].baseIndex === null && exp.requests[6].deltaTokens === null, "request 7 starts over");
  check(exp.abandoned.length === 1 && exp.abandoned[0].toolUseId === abandonedResult, "the Bash result is on no request");
  check(exp.requests[4].deltaTokens > 0 && exp.requests[4].fileOrderDelta < 0, "the file order gives request 5 a negative delta");
  writeText(join(dir, "EXPECTED.json"), json({ session: SESSION, file: rel(file), version: VERSION, cwd: CWD, ...exp }));
  writeText(join(dir, "EXPECTED.md"), expectedMd(rel(file), exp));
  writeText(
    join(dir, "README.md"),
    [
      `One Claude Code session (\`claude/\` is a config dir, shapes of ${VERSION}) rewound twice, each abandoned branch left in the file as Claude Code leaves it: the new prompt's \`parentUuid\` points back at an earlier record.`,
      ``,
      `* Rewind 1 (Esc Esc): request 4 called Bash and its 260-line result was written; then the user went back to the end of request 3's answer and asked for something else. Request 5 grew from request 3 (its own path), not from request 4: \`requests\` takes its delta and what it added from request 3 (\`compaction.kind: "rewind"\`, \`baseIndex: 3\`; marked \`↶3\` in tables), and \`outputs\` charges the Bash result, on the abandoned branch, to no request. Counted in file order, request 5 would shrink by several hundred tokens and carry the Bash result.`,
      `* Rewind 2 (editing the first prompt): the new prompt is a root (\`parentUuid: null\`), so request 7 has no request before it on its own path: no delta (\`baseIndex: null\`, \`↶\`). That an edited first prompt is written as a root is inferred from how rewinds point at the parent of the message they replace.`,
      ``,
      `Sizes are small and invented; see EXPECTED.md. Generated by \`${GEN}\`; do not edit by hand.`,
    ].join("\n") + "\n",
  );
}

/**
 * The reference rules, by walking parentUuid: a request's base is the nearest request on its first fragment's
 * path (null at a root); its delta is its total minus the base's (null without a base); what it added is
 * every tool result, user text and attachment written before it whose own path leads to that base. A tool
 * result carried by no request is on an abandoned branch.
 */
function reference(fileText) {
  const a = analyzeTranscript(fileText);
  const byUuid = new Map();
  const recs = [];
  for (const l of a.lines) if (l.kind === "ok" && typeof l.value.uuid === "string") (byUuid.set(l.value.uuid, { ...l.value, line: l.line }), recs.push({ ...l.value, line: l.line }));
  const requestOf = new Map(a.requests.map((q) => [q.messageId, q]));
  /** The request the record's path leads to, not counting the record itself; null at a root. */
  const baseOf = (r) => {
    for (let p = byUuid.get(r.parentUuid); p; p = byUuid.get(p.parentUuid)) if (p.type === "assistant" && requestOf.has(p.message.id)) return requestOf.get(p.message.id);
    return null;
  };
  const carried = new Set();
  const requests = a.requests.map((q, i) => {
    const base = baseOf(byUuid.get(recs.find((r) => r.type === "assistant" && r.message.id === q.messageId).uuid));
    const prev = i === 0 ? null : a.requests[i - 1];
    const added = { toolResults: 0, toolResultChars: 0, userTextChars: 0, attachments: 0 };
    for (const r of recs) {
      // Written since the request before it in the file, on a path that leads to its base.
      if (r.line >= q.line || (prev && r.line <= prev.line) || r.type === "assistant" || baseOf(r) !== base) continue;
      const c = r.message?.content;
      if (r.type === "user" && typeof c === "string") added.userTextChars += c.length;
      else if (r.type === "user")
        for (const b of c) if (b.type === "tool_result") (added.toolResults++, (added.toolResultChars += b.content.length), carried.add(b.tool_use_id));
      if (r.type === "attachment") added.attachments++;
    }
    const rewound = prev !== null && base !== prev;
    return {
      index: q.index,
      line: q.line,
      messageId: q.messageId,
      totalInputTokens: q.totalInputTokens,
      rewound,
      baseIndex: base?.index ?? null,
      deltaTokens: base ? q.totalInputTokens - base.totalInputTokens : null,
      fileOrderDelta: q.deltaTokens,
      added,
    };
  });
  const abandoned = recs.flatMap((r) =>
    r.type === "user" && Array.isArray(r.message.content) ? r.message.content.filter((b) => b.type === "tool_result" && !carried.has(b.tool_use_id)).map((b) => ({ toolUseId: b.tool_use_id, line: r.line, chars: b.content.length })) : [],
  );
  return { lines: a.lines.length, requests, abandoned };
}

function expectedMd(file, exp) {
  const rows = exp.requests.map((r) => `| ${r.index}${r.rewound ? ` ↶${r.baseIndex ?? ""}` : ""} | ${r.line} | ${r.totalInputTokens} | ${r.baseIndex ?? "—"} | ${r.deltaTokens ?? "—"} | ${r.fileOrderDelta ?? "—"} | ${r.added.toolResults} (${r.added.toolResultChars}) | ${r.added.userTextChars} |`);
  return [
    `# rewind — expected values`,
    ``,
    `Computed by \`${GEN}\` from \`${file}\` (${exp.lines} lines, Claude Code ${VERSION} shapes, cwd \`${CWD}\`). Machine-readable copy: \`EXPECTED.json\`.`,
    ``,
    `Rules: requests as in samples/basic, except that a request's base is the nearest request on its first fragment's \`parentUuid\` path (none at a root). Its delta is its total input minus the base's, and what it added is what was written before it whose own path leads to that base. A request whose base is not the request before it in the file follows a rewind (↶ base). A tool result that no request added is on an abandoned branch.`,
    ``,
    `## Requests (chain "main")`,
    ``,
    `| # | line | total input | base | delta | delta in file order | tool results (chars) | user text chars |`,
    `|---|---|---|---|---|---|---|---|`,
    ...rows,
    ``,
    `## Tool results on an abandoned branch (carried by no request)`,
    ``,
    `| line | tool_use id | chars |`,
    `|---|---|---|`,
    ...exp.abandoned.map((r) => `| ${r.line} | \`${r.toolUseId}\` | ${r.chars} |`),
  ].join("\n") + "\n";
}

let failures = 0;
function check(cond, what) {
  if (!cond) {
    failures++;
    console.error("CHECK FAILED: " + what);
  }
}

make();
if (failures) process.exit(1);
