// Writes samples/compaction: one Claude Code 2.1.39 session compacted twice (FORMATS.md 11), in the
// shape real 2.1.39 transcripts have on disk:
//   * auto:   tool_result → system/compact_boundary (parentUuid null, logicalParentUuid, compactMetadata
//             {trigger:"auto", preTokens}) → user isCompactSummary/isVisibleInTranscriptOnly → next request;
//   * manual: tool_result (the run was left there and resumed) → boundary {trigger:"manual"} → summary →
//             local-command caveat (isMeta) → `<command-name>/compact</command-name>` → `<local-command-stdout>`
//             → the user's next prompt → next request.
// Sizes are scaled down (the real auto boundaries came at ≈167,000 tokens); the record shapes are not.
//   node samples/gen/make-compaction.mjs
// EXPECTED.md / EXPECTED.json are computed from the file just written (`reference` below states the rules).

import { readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { analyzeTranscript, hash, projectKey, samplesRoot, session, text, thinking, toolUse, writeText } from "./lib.mjs";

const ROOT = samplesRoot();
const GEN = "node samples/gen/make-compaction.mjs";
const rel = (p) => relative(ROOT, p).split("\\").join("/");
const json = (v) => JSON.stringify(v, null, 2) + "\n";

const SESSION = "c0a1e5ce-2139-4b7d-9e0a-5e6c0de00039";
const CWD = "/home/dev/ledger";
const VERSION = "2.1.39";
const SUMMARY_HEAD =
  "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.";

const WORDS = ["posting", "ledger", "balance", "account", "entry", "amount", "currency", "journal", "period", "reconcile", "batch", "total"];

/** `lines` lines of a deterministic Elixir module, as Read returns it (cat -n style numbers). */
function sourceFile(name, lines) {
  const out = [`defmodule Ledger.${name} do`, `  @moduledoc "${name} helpers"`];
  for (let i = 0; out.length < lines - 1; i++) {
    const h = hash(name, String(i));
    const a = WORDS[h[0] % WORDS.length];
    const b = WORDS[h[1] % WORDS.length];
    out.push(`  def ${a}_${b}_${i}(%{${a}: ${a}} = ${b}), do: Map.update(${b}, :${a}, ${a}, &(&1 + ${h[2]}))`);
  }
  out.push("end");
  return out;
}

const numbered = (lines) => lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n");

function readResult(path, lines) {
  const content = lines.join("\n");
  return { type: "text", file: { filePath: path, content, numLines: lines.length, startLine: 1, totalLines: lines.length } };
}

function read(s, path, lines, { before } = {}) {
  const r = s.assistantSplit({ placeholder: true, blocks: [...(before ?? []), toolUse("Read", { file_path: path })] });
  const id = r.at(-1).obj.message.content[0].id;
  s.toolResult(id, numbered(lines), readResult(path, lines));
  return id;
}

/** The boundary as 2.1.39 writes it: a new root (parentUuid null) pointing back through logicalParentUuid. */
function boundary(s, trigger, { dt = 41000 } = {}) {
  // What Claude Code counted just before compacting: the last request, its output and what came after it.
  const preTokens = s.ctx.total + s.ctx.trueOut + s.pending;
  const uuid = s.id.uuid();
  const obj = {
    parentUuid: null,
    logicalParentUuid: s.last,
    isSidechain: false,
    userType: "external",
    cwd: s.cwd,
    sessionId: s.sessionId,
    version: s.version,
    gitBranch: s.gitBranch,
    slug: s.slug,
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    isMeta: false,
    timestamp: s.tick(dt),
    uuid,
    level: "info",
    compactMetadata: { trigger, preTokens },
  };
  s.last = uuid;
  s.pending = 0;
  s.push(obj);
  return preTokens;
}

/** The summary record that starts the new segment (a plain user string, shown in the transcript only). */
function summary(s, body) {
  const uuid = s.id.uuid();
  const obj = s.env({
    type: "user",
    message: { role: "user", content: `${SUMMARY_HEAD}\n\n${body}` },
    isVisibleInTranscriptOnly: true,
    isCompactSummary: true,
    uuid,
    timestamp: new Date(s.t).toISOString(),
  });
  s.last = uuid;
  return s.push(obj);
}

function make() {
  const dir = join(ROOT, "compaction");
  rmSync(dir, { recursive: true, force: true });
  const s = session({ sessionId: SESSION, cwd: CWD, version: VERSION, slug: "quiet-folding-ledger", gitBranch: "reconcile", start: "2026-02-11T20:02:11.408Z" });

  s.user("Reconciliation totals are off by a few cents after the currency refactor. Read the posting, balance and journal modules and find where rounding happens.", { snapshot: true, dt: 0 });
  const posting = sourceFile("Posting", 130);
  const balance = sourceFile("Balance", 110);
  const journal = sourceFile("Journal", 150);
  s.assistantSplit({ placeholder: true, base: { input: 3, cacheRead: 21445, cacheCreation: 1830 }, blocks: [thinking("Start with the posting module, where amounts are built."), toolUse("Read", { file_path: `${CWD}/lib/ledger/posting.ex` })], after(i, b) { if (b.type === "tool_use") s.toolResult(b.id, numbered(posting), readResult(`${CWD}/lib/ledger/posting.ex`, posting)); } });
  read(s, `${CWD}/lib/ledger/balance.ex`, balance, { before: [text("Posting builds amounts with Decimal; now the balance module.")] });
  read(s, `${CWD}/lib/ledger/journal.ex`, journal);
  const edit = s.assistantSplit({
    placeholder: true,
    blocks: [text("`Journal.total/1` rounds each entry before summing. Round the sum instead."), toolUse("Edit", { file_path: `${CWD}/lib/ledger/journal.ex`, old_string: "Enum.map(&Decimal.round(&1, 2)) |> Enum.reduce(&Decimal.add/2)", new_string: "Enum.reduce(&Decimal.add/2) |> Decimal.round(2)", replace_all: false })],
  });
  const editId = edit.at(-1).obj.message.content[0].id;
  s.toolResult(editId, `The file ${CWD}/lib/ledger/journal.ex has been updated successfully.`, { filePath: `${CWD}/lib/ledger/journal.ex`, oldString: "Enum.map(&Decimal.round(&1, 2)) |> Enum.reduce(&Decimal.add/2)", newString: "Enum.reduce(&Decimal.add/2) |> Decimal.round(2)", originalFile: journal.join("\n"), structuredPatch: [], userModified: false, replaceAll: false });
  s.attachment({ type: "edited_text_file", filename: `${CWD}/lib/ledger/journal.ex`, snippet: "   212\t  def total(entries), do: entries |> Enum.reduce(&Decimal.add/2) |> Decimal.round(2)" });
  const autoPre = boundary(s, "auto");
  summary(s, "1. The user asked why reconciliation totals are off by cents after the currency refactor.\n2. Read lib/ledger/posting.ex, balance.ex and journal.ex.\n3. Found that Journal.total/1 rounded each entry before summing; edited it to round the sum.\n\nPending: run the reconciliation tests.");
  const ledgerTest = sourceFile("ReconcileTest", 60);
  s.assistantSplit({ placeholder: true, base: { input: 3, cacheRead: 21445, cacheCreation: 2260 }, blocks: [text("Continuing: I'll run the reconciliation tests to confirm the fix."), toolUse("Bash", { command: "mix test test/ledger/reconcile_test.exs", description: "Run the reconciliation tests" })], after(i, b) { if (b.type === "tool_use") s.toolResult(b.id, "..........\nFinished in 0.4 seconds (0.1s async, 0.3s sync)\n10 tests, 0 failures", { stdout: "..........\nFinished in 0.4 seconds (0.1s async, 0.3s sync)\n10 tests, 0 failures", stderr: "", interrupted: false, isImage: false }); } });
  read(s, `${CWD}/test/ledger/reconcile_test.exs`, ledgerTest, { before: [text("All ten pass. Let me check the tests cover a multi-entry total.")] });
  s.assistantSplit({ placeholder: true, blocks: [text("The tests pass and `reconcile_test.exs` covers a three-entry total that used to be off by a cent. The fix is the one-line change in `Journal.total/1`.")] });
  s.system("turn_duration");

  s.user("Now run the whole suite and the dialyzer.", { snapshot: true, dt: 52000 });
  const bash = s.assistantSplit({ placeholder: true, blocks: [toolUse("Bash", { command: "mix test && mix dialyzer", description: "Run the full suite and dialyzer", timeout: 600000 })] });
  const bashId = bash.at(-1).obj.message.content[0].id;
  const suite = Array.from({ length: 180 }, (_, i) => `test/ledger/${WORDS[i % WORDS.length]}_test.exs:${10 + i} ${i % 37 === 5 ? "warning: unused variable" : "ok"}`).join("\n");
  s.toolResult(bashId, `${suite}\n\n412 tests, 0 failures\ndone (passed successfully)`, { stdout: `${suite}\n\n412 tests, 0 failures\ndone (passed successfully)`, stderr: "", interrupted: false, isImage: false }, { dt: 94000 });
  // The run was left here and resumed hours later; the first thing the user did was /compact.
  const manualPre = boundary(s, "manual", { dt: 3 * 3600 * 1000 });
  const compacted = new Date(s.t).toISOString();
  summary(s, "1. Fixed cent rounding in Journal.total/1 (round the sum, not each entry); reconciliation tests pass.\n2. The user asked for the full suite and dialyzer: 412 tests, 0 failures.\n\nPending: nothing.");
  const local = (content, isMeta) => {
    const uuid = s.id.uuid();
    const body = { type: "user", message: { role: "user", content } };
    if (isMeta) body.isMeta = true;
    body.uuid = uuid;
    body.timestamp = compacted;
    s.pending += Math.ceil(content.length / 3.8) + 4;
    return s.chain(body);
  };
  local("<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>", true);
  local("<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args></command-args>", false);
  local("<local-command-stdout>\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m</local-command-stdout>", false);
  s.user("Open a PR description for the rounding fix.", { snapshot: true, dt: 190000 });
  s.assistantSplit({ placeholder: true, base: { input: 3, cacheRead: 21445, cacheCreation: 1490 }, blocks: [text("**Round journal totals once.** `Journal.total/1` rounded every entry to cents before summing, so totals drifted by up to a cent per few entries. It now sums exact decimals and rounds the result; the reconciliation tests cover a three-entry case.")] });
  s.system("turn_duration");

  const file = s.write(join(dir, "claude", "projects", projectKey(CWD), `${SESSION}.jsonl`));
  const exp = reference(readFileSync(file, "utf8"));
  check(exp.compactions.length === 2, "two boundaries");
  check(exp.compactions[0].preTokens === autoPre && exp.compactions[1].preTokens === manualPre, "preTokens as written");
  check(exp.requests.filter((r) => r.afterCompaction).length === 2, "two requests after a boundary");
  writeText(join(dir, "EXPECTED.json"), json({ session: SESSION, file: rel(file), version: VERSION, cwd: CWD, ...exp }));
  writeText(join(dir, "EXPECTED.md"), expectedMd(rel(file), exp));
  writeText(
    join(dir, "README.md"),
    [
      `One Claude Code ${VERSION} session (\`claude/\` is a config dir) compacted twice: automatically right after an Edit result, and by \`/compact\` right after a Bash result when the run was resumed. Real 2.1.39 record shapes (boundary, summary, local-command records, placeholder usage), sizes scaled down; see EXPECTED.md.`,
      `Generated by \`${GEN}\`; do not edit by hand.`,
    ].join("\n") + "\n",
  );
}

/**
 * The reference rules: analyzeTranscript's requests, then per compaction: the request after a boundary is
 * a reset (no delta), what came before the boundary is added to no request, and the summary is not user text.
 */
function reference(fileText) {
  const a = analyzeTranscript(fileText);
  const compactions = [];
  const added = new Map();
  let pending = newAdded();
  let boundary = null;
  let next = 0;
  for (const l of a.lines) {
    if (l.kind !== "ok") continue;
    const r = l.value;
    if (r.type === "system" && r.subtype === "compact_boundary") {
      boundary = { line: l.line, trigger: r.compactMetadata.trigger, preTokens: r.compactMetadata.preTokens, droppedToolResults: pending.toolResults, droppedAttachments: pending.attachments };
      compactions.push(boundary);
      pending = newAdded();
    } else if (r.type === "assistant" && a.requests[next]?.line === l.line) {
      added.set(next, { ...pending, compaction: boundary });
      pending = newAdded();
      boundary = null;
      next++;
    } else if (r.type === "user") {
      const c = r.message.content;
      if (typeof c === "string") pending[r.isCompactSummary ? "compactSummaryChars" : r.isMeta ? "metaTextChars" : "userTextChars"] += c.length;
      else for (const b of c) if (b.type === "tool_result") { pending.toolResults++; pending.toolResultChars += typeof b.content === "string" ? b.content.length : 0; }
    } else if (r.type === "attachment") pending.attachments++;
  }
  const requests = a.requests.map((q, i) => {
    const { compaction, ...add } = added.get(i);
    return { index: q.index, line: q.line, messageId: q.messageId, totalInputTokens: q.totalInputTokens, deltaTokens: compaction ? null : q.deltaTokens, afterCompaction: compaction !== null, trigger: compaction?.trigger ?? null, preTokens: compaction?.preTokens ?? null, added: add };
  });
  return { lines: a.lines.length, compactions, requests };
}

function newAdded() {
  return { toolResults: 0, toolResultChars: 0, userTextChars: 0, metaTextChars: 0, compactSummaryChars: 0, attachments: 0 };
}

function expectedMd(file, exp) {
  const rows = exp.requests.map((r) => `| ${r.index}${r.afterCompaction ? " §" : ""} | ${r.line} | ${r.totalInputTokens} | ${r.afterCompaction ? `reset (${r.trigger}, ${r.preTokens} before)` : (r.deltaTokens ?? "—")} | ${r.added.toolResults} (${r.added.toolResultChars}) | ${r.added.userTextChars} | ${r.added.compactSummaryChars} | ${r.added.attachments} |`);
  return [
    `# compaction — expected values`,
    ``,
    `Computed by \`${GEN}\` from \`${file}\` (${exp.lines} lines, Claude Code ${VERSION}, cwd \`${CWD}\`). Machine-readable copy: \`EXPECTED.json\`.`,
    ``,
    `Rules: requests and totals as in samples/basic; a \`system\` record with \`subtype: "compact_boundary"\` starts a new segment: the next request's delta is a reset (no number), and the tool results, text and attachments between the previous request and the boundary are counted as added to no request. The \`isCompactSummary\` user record counts as summary, not user text.`,
    ``,
    `## Compactions`,
    ``,
    `| line | trigger | preTokens | tool results before it, on no request | attachments likewise |`,
    `|---|---|---|---|---|`,
    ...exp.compactions.map((c) => `| ${c.line} | ${c.trigger} | ${c.preTokens} | ${c.droppedToolResults} | ${c.droppedAttachments} |`),
    ``,
    `## Requests (chain "main")`,
    ``,
    `| # | line | total input | delta | tool results (chars) | user text chars | summary chars | attachments |`,
    `|---|---|---|---|---|---|---|---|`,
    ...rows,
    ``,
    `Every output count is a placeholder (2.1.39 wrote no final fragment), as in the real sessions.`,
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
