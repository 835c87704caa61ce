// Writes the foundation sample scenarios: samples/basic, samples/subagents, samples/damaged and
// two sessions of samples/claude-home. Deterministic: the same bytes on every run.
//   node samples/gen/make-foundation.mjs
// EXPECTED.md / EXPECTED.json are computed from the files just written (analyzeTranscript in
// lib.mjs states the rules), never typed by hand.

import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import {
  analyzeTranscript, projectKey, requestsTable, session, text, thinking, toolUse, totals, writeText, samplesRoot } from "./lib.mjs";

const ROOT = samplesRoot();
const GEN = "node samples/gen/make-foundation.mjs";
const rel = (p) => relative(ROOT, p).split("\\").join("/");

function fresh(dir) {
  rmSync(dir, { recursive: true, force: true });
}

function json(v) {
  return JSON.stringify(v, null, 2) + "\n";
}

function readmeFor(dir, lines) {
  writeText(join(dir, "README.md"), lines.join("\n") + "\n");
}

const numbered = (src) => src.split("\n").map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n");
const MALWARE_REMINDER = "\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to improve or augment the code. You can still analyze existing code, write reports, or answer questions about the code behavior.\n</system-reminder>\n";

function readResult(filePath, src) {
  const lines = src.split("\n");
  return { type: "text", file: { filePath, content: src, numLines: lines.length, startLine: 1, totalLines: lines.length } };
}

function bashResult(stdout) {
  return { stdout, stderr: "", interrupted: false, isImage: false, noOutputExpected: false };
}

const WIDGET_JS = `export function renderLabel(label, { pad = 1 } = {}) {
  const space = " ".repeat(pad);
  return \`[\${space}\${label}\${space}]\`;
}

export function parseWidget(text) {
  const [kind, label] = text.split(":");
  return { kind: kind.trim(), label: label.trim() };
}`;

const WIDGET_TEST_JS = `import { test } from "node:test";
import assert from "node:assert/strict";
import { parseWidget, renderLabel } from "../src/widget.js";

test("parses a plain widget", () => {
  assert.deepEqual(parseWidget("button: Save"), { kind: "button", label: "Save" });
});

test("renders the label with padding", () => {
  assert.equal(renderLabel("Save"), "[Save]");
});`;

const NPM_TEST_FAIL = `Exit code 1

> widget@1.4.0 test
> node --test test/

✔ parses a plain widget (1.204ms)
✖ renders the label with padding (2.871ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

  '[ Save ]' !== '[Save]'

      at TestContext.<anonymous> (file:///home/dev/widget/test/widget.test.js:10:10)

ℹ tests 2
ℹ pass 1
ℹ fail 1`;

// ---------------------------------------------------------------------------------------------
// samples/basic

function makeBasic() {
  const dir = join(ROOT, "basic");
  fresh(dir);
  const sessionId = "11111111-2222-4333-8444-555555555555";
  const s = session({ sessionId, cwd: "/home/dev/widget", version: "2.1.88", slug: "quiet-humming-lantern", start: "2026-04-02T09:14:03.120Z" });

  const prompt1 = "The widget tests started failing after the last refactor. Run the test suite, find the cause and fix it.";
  s.user(prompt1, { snapshot: true, dt: 0 });
  const tools = ["NotebookEdit", "WebFetch", "WebSearch", "mcp__github__create_issue", "mcp__github__get_issue"];
  s.attachment({ type: "deferred_tools_delta", addedNames: tools, addedLines: tools, removedNames: [] });
  s.attachment({ type: "skill_listing", content: "- commit: Create a git commit with a message that follows the repository's conventions\n- review-pr: Review a pull request and leave inline comments", skillCount: 2, isInitial: true });

  const r1 = s.assistantSplit({
    base: { input: 3, cacheRead: 15688, cacheCreation: 2194 },
    blocks: [
      thinking("The user says the tests fail since a refactor. Run the suite first and read the failure before touching any code."),
      text("I'll run the test suite first to see what is failing."),
      toolUse("Bash", { command: "npm test", description: "Run the test suite" }),
    ],
  });
  const bashId = r1[2].obj.message.content[0].id;
  s.toolResult(bashId, NPM_TEST_FAIL, "Error: " + NPM_TEST_FAIL, { isError: true });

  const srcPath = "/home/dev/widget/src/widget.js";
  const testPath = "/home/dev/widget/test/widget.test.js";
  s.assistantSplit({
    blocks: [toolUse("Read", { file_path: srcPath }), toolUse("Read", { file_path: testPath })],
    after(i, b) {
      if (i === 0) s.toolResult(b.id, numbered(WIDGET_JS) + MALWARE_REMINDER, readResult(srcPath, WIDGET_JS), { dt: 120 });
      else s.toolResult(b.id, numbered(WIDGET_TEST_JS) + MALWARE_REMINDER, readResult(testPath, WIDGET_TEST_JS), { dt: 110 });
    },
  });

  const oldLine = "export function renderLabel(label, { pad = 1 } = {}) {";
  const newLine = "export function renderLabel(label, { pad = 0 } = {}) {";
  const r3 = s.assistantSplit({
    placeholder: true,
    blocks: [
      text("The refactor changed the default padding of `renderLabel` from 0 to 1, while the test still expects `[Save]`. I'll restore the old default."),
      toolUse("Edit", { file_path: srcPath, old_string: "{ pad = 1 } = {}", new_string: "{ pad = 0 } = {}", replace_all: false }),
    ],
  });
  const editId = r3[1].obj.message.content[0].id;
  s.toolResult(editId, `The file ${srcPath} has been updated successfully.`, {
    filePath: srcPath, oldString: "{ pad = 1 } = {}", newString: "{ pad = 0 } = {}", originalFile: WIDGET_JS,
    structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ["-" + oldLine, "+" + newLine] }],
    userModified: false, replaceAll: false,
  });
  s.synthetic('API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":null}', { apiError: true, dt: 31000 });
  s.system("turn_duration");

  s.queueOperation("enqueue", "continue", { dt: 9000 });
  s.queueOperation("dequeue", undefined, { dt: 2 });
  s.user("continue", { snapshot: true, dt: 40 });
  s.attachment({ type: "edited_text_file", filename: testPath, snippet: "    11\ttest(\"renders a wider label\", () => {\n    12\t  assert.equal(renderLabel(\"Save\", { pad: 2 }), \"[  Save  ]\");\n    13\t});" });
  s.assistantSplit({
    input: 3,
    blocks: [text("Fixed: `renderLabel` defaults to no padding again, so `[Save]` matches the test, and your new `{ pad: 2 }` test passes with the explicit option. Run `npm test` to confirm.")],
  });
  s.system("turn_duration");

  const prompt3 = "thanks, that's all";
  s.user(prompt3, { dt: 21000 });
  s.synthetic("No response requested.", { dt: 15 });
  s.lastPrompt(prompt3);

  const file = s.write(join(dir, `${sessionId}.jsonl`));
  const a = analyzeTranscript(readFileSync(file, "utf8"));
  check(a.requests.length === 4, "basic: 4 requests");
  const exp = { session: sessionId, file: rel(file), version: "2.1.88", cwd: "/home/dev/widget", lines: a.lines.length, requests: a.requests, totals: totals(a.requests), notRequests: a.synthetic, trailing: a.trailing };
  writeText(join(dir, "EXPECTED.json"), json(exp));
  writeText(join(dir, "EXPECTED.md"), [
    `# basic — expected values`,
    ``,
    `Computed by \`${GEN}\` from \`${rel(file)}\` (${a.lines.length} lines, Claude Code 2.1.88, cwd \`/home/dev/widget\`). Machine-readable copy: \`EXPECTED.json\`.`,
    ``,
    RULES,
    ``,
    `## Requests (chain "main")`,
    ``,
    requestsTable(a.requests),
    ``,
    `Totals: ${fmtTotals(totals(a.requests))}.`,
    ``,
    `## What to look for`,
    ``,
    `* Request 1 is 3 records (thinking, text, tool_use) with the same \`message.id\`/\`requestId\`; the first two carry the streaming snapshot (\`stop_reason: null\`, small \`output_tokens\`), the last the full usage (\`stop_reason: "tool_use"\`). Summing lines would count its input 3×.`,
    `* Request 2 is 2 tool_use records interleaved with their results: asst(X) user(trA) asst(X) user(trB), lines ${a.requests[1].line}–${a.requests[1].line + 3}. Both results are credited to request 3.`,
    `* Request 3 never got its final fragment: both records have \`stop_reason: null\` and \`output_tokens: 3\` (placeholder). The real output (text + Edit call) shows up as growth of request 4.`,
    `* Not requests (model \`<synthetic>\`, zero usage): ${a.synthetic.map((x) => `line ${x.line}${x.isApiErrorMessage ? " (`isApiErrorMessage: true`, API error)" : ` ("${x.text}")`}`).join("; ")}.`,
    `* After the last request: ${a.trailing.userTextChars} chars of user text (the prompt "${prompt3}") that no request carried.`,
    `* Also present: 2 \`file-history-snapshot\`, 2 \`queue-operation\`, 2 \`system\` \`turn_duration\`, 1 \`last-prompt\`; attachment kinds \`deferred_tools_delta\`, \`skill_listing\`, \`edited_text_file\`.`,
  ].join("\n") + "\n");
  readmeFor(dir, [
    `One Claude Code 2.1.88 session: split assistant records, interleaved parallel tool results, a placeholder-output request, \`<synthetic>\` and API-error records, attachments; see EXPECTED.md.`,
    `Generated by \`${GEN}\`; do not edit by hand.`,
  ]);
  return exp;
}

const RULES = [
  `Rules: a request = records sharing \`message.id\`; each usage field = max over its fragments; total input = input + cache creation + cache read; delta = total − previous request's total in the same chain;`,
  `\`<synthetic>\` / \`isApiErrorMessage\` records and \`progress\` records are not requests; "placeholder" = every fragment has \`stop_reason: null\`.`,
  `Tool results, user text (string content or text blocks of non-tool-result user records) and attachments are credited to the first request whose first fragment comes after them in the file;`,
  `tool-result chars = JS length of \`tool_result.content\` (string, or sum of its text blocks).`,
].join("\n");

function fmtTotals(t) {
  return `${t.requests} requests, input ${t.inputTokens}, cache creation ${t.cacheCreationInputTokens}, cache read ${t.cacheReadInputTokens}, total input ${t.totalInputTokens}, output ${t.outputTokens}`;
}

let failures = 0;
function check(cond, what) {
  if (!cond) {
    failures++;
    console.error("CHECK FAILED: " + what);
  }
}

// ---------------------------------------------------------------------------------------------
// samples/subagents

function makeSubagents() {
  const dir = join(ROOT, "subagents");
  fresh(dir);
  const cwd = "/home/dev/widget";
  const proj = join(dir, "claude", "projects", projectKey(cwd));
  const sessionA = "2a2a2a2a-0000-4000-8000-00000000000a";
  const sessionB = "2b2b2b2b-0000-4000-8000-00000000000b";
  const sessionOther = "2c2c2c2c-0000-4000-8000-00000000000c";
  const agentA = "a1b2c3d4e5f607182";
  const agentW = "a0f1e2d3c4b5a6978";
  const runId = "wf_5d0c7e21-a3f";
  const agentB = "1a2b3c4d";
  const agentDecoy = "9f9f9f9f";

  // Session A: started with 2.1.73 (envelope-first keys, progress records), resumed with 2.1.241.
  const A = session({ sessionId: sessionA, cwd, version: "2.1.73", slug: "brisk-wandering-otter", start: "2026-03-12T14:02:11.400Z" });
  A.user("Find every place that builds a widget label and list the padding each one uses.", { snapshot: true, dt: 0 });
  const agentPrompt = "Search /home/dev/widget for every call of renderLabel and report, per call site, the file, the line and the padding it passes (or that it relies on the default).";
  const ar1 = A.assistantSplit({
    base: { input: 3, cacheRead: 14203, cacheCreation: 1876 },
    blocks: [
      text("I'll have a subagent survey the call sites."),
      toolUse("Agent", { description: "Survey label padding", prompt: agentPrompt, subagent_type: "general-purpose" }),
    ],
  });
  const agentToolId = ar1[1].obj.message.content[0].id;

  const sub = session({ sessionId: sessionA, cwd, version: "2.1.73", slug: "brisk-wandering-otter", agentId: agentA, model: "claude-sonnet-4-6", start: new Date(A.t + 400).toISOString() });
  sub.user(agentPrompt, { dt: 0 });
  const sr1 = sub.assistantSplit({
    base: { input: 3, cacheRead: 8810, cacheCreation: 1432 },
    blocks: [text("I'll search for renderLabel calls."), toolUse("Grep", { pattern: "renderLabel\\(", path: cwd, output_mode: "content", "-n": true })],
  });
  const grepOut = 'src/widget.js:1:export function renderLabel(label, { pad = 1 } = {}) {\nsrc/toolbar.js:12:    renderLabel(item.label, { pad: 2 }),\nsrc/dialog.js:30:  const title = renderLabel(opts.title);\ntest/widget.test.js:10:  assert.equal(renderLabel("Save"), "[Save]");';
  const trGrep = sub.toolResult(sr1[1].obj.message.content[0].id, grepOut, { mode: "content", numFiles: 0, filenames: [], content: grepOut, numLines: 4 });
  const TOOLBAR = "import { renderLabel } from \"./widget.js\";\n\nexport function renderToolbar(items) {\n  return items\n    .map((item) =>\n      // toolbar buttons get extra room\n      renderLabel(item.label, { pad: 2 }),\n    )\n    .join(\" \");\n}";
  const sr2 = sub.assistantSplit({ blocks: [toolUse("Read", { file_path: cwd + "/src/toolbar.js", limit: 20 })] });
  sub.toolResult(sr2[0].obj.message.content[0].id, TOOLBAR.split("\n").map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join("\n"), readResult(cwd + "/src/toolbar.js", TOOLBAR));
  const summary = "Three call sites of renderLabel:\n- src/toolbar.js:12 passes { pad: 2 }\n- src/dialog.js:30 relies on the default (currently pad = 1)\n- test/widget.test.js:10 relies on the default and expects no padding\nThe default itself is defined in src/widget.js:1.";
  sub.assistantSplit({ blocks: [text(summary)] });
  writeText(join(proj, sessionA, "subagents", `agent-${agentA}.jsonl`), sub.text());
  writeText(join(proj, sessionA, "subagents", `agent-${agentA}.meta.json`), JSON.stringify({ agentType: "general-purpose" }));

  // Old-style progress records in the parent (2.1.14 - 2.1.7x): copies of subagent records.
  for (const embed of [sr1[0], trGrep, sr2[0]]) {
    A.t = Date.parse(embed.obj.timestamp);
    A.progressAgent({ agentId: agentA, prompt: agentPrompt, parentToolUseID: agentToolId, embed });
  }
  A.t = sub.t + 300;
  const subTotals = totals(analyzeTranscript(sub.text()).requests);
  A.toolResult(agentToolId,
    [{ type: "text", text: summary }, { type: "text", text: `agentId: ${agentA} (for resuming to continue this agent's work if needed)\n<usage>total_tokens: ${subTotals.totalInputTokens + subTotals.outputTokens}\ntool_uses: 2\nduration_ms: 14630</usage>` }],
    { status: "completed", prompt: agentPrompt, agentId: agentA, content: [{ type: "text", text: summary }], totalDurationMs: 14630, totalTokens: subTotals.totalInputTokens + subTotals.outputTokens, totalToolUseCount: 2 },
    { dt: 0 });
  A.assistantSplit({ blocks: [text("The default padding (1) comes from src/widget.js:1; src/dialog.js:30 and the test rely on it, src/toolbar.js:12 passes 2 explicitly.")] });
  A.system("turn_duration");

  // Resumed months later with 2.1.241: envelope-last keys, session_id beside sessionId.
  A.setVersion("2.1.241", { model: "claude-opus-5" });
  A.t = Date.parse("2026-08-24T08:30:00.000Z");
  A.user("Now run the release-check workflow.", { snapshot: true, dt: 0, idStyle: "both" });
  // Resumed 5 months later with another build and model: nothing of this chain is cached anymore.
  const ar3 = A.assistantSplit({ base: { input: 3, cacheRead: 12150, cacheCreation: 9391 }, blocks: [text("Starting the release-check workflow."), toolUse("Workflow", { workflow: "release-check" })] });
  const wfToolId = ar3[1].obj.message.content[0].id;

  const wf = session({ sessionId: sessionA, cwd, version: "2.1.241", slug: "brisk-wandering-otter", agentId: agentW, model: "claude-opus-5", promptId: A.promptId, idStyle: "both", start: new Date(A.t + 500).toISOString() });
  wf.user("Run the release checks for /home/dev/widget: the test suite must pass. Report PASS or FAIL with the failing test names.", { dt: 0 });
  const tools = ["WebFetch", "WebSearch"];
  wf.attachment({ type: "deferred_tools_delta", addedNames: tools, addedLines: tools, removedNames: [], readdedNames: [] }, { idStyle: "snake" });
  const wr1 = wf.assistantSplit({
    base: { input: 2, cacheRead: 9011, cacheCreation: 2214 },
    blocks: [{ type: "thinking", thinking: "" }, toolUse("Bash", { command: "npm test", description: "Run the test suite" })],
  });
  const passOut = "\n> widget@1.4.0 test\n> node --test test/\n\n✔ parses a plain widget (1.102ms)\n✔ renders the label with padding (0.412ms)\n✔ renders a wider label (0.233ms)\nℹ tests 3\nℹ pass 3\nℹ fail 0";
  wf.toolResult(wr1[1].obj.message.content[0].id, passOut, bashResult(passOut));
  wf.assistantSplit({ blocks: [text("PASS — 3 of 3 tests passed.")] });
  writeText(join(proj, sessionA, "subagents", "workflows", runId, `agent-${agentW}.jsonl`), wf.text());

  A.t = wf.t + 200;
  A.toolResult(wfToolId, `Workflow release-check finished (run ${runId}): PASS — 3 of 3 tests passed.`, { status: "completed", runId, workflow: "release-check", agentCount: 1 }, { dt: 0, idStyle: "both" });
  A.assistantSplit({ blocks: [text("The release check passed: all 3 tests are green.")] });
  A.system("turn_duration");
  A.lastPrompt("Now run the release-check workflow.");
  const fileA = A.write(join(proj, `${sessionA}.jsonl`));

  // Session B: Claude Code 2.0.64, old layout: agent-<8hex>.jsonl beside the session file.
  const B = session({ sessionId: sessionB, cwd, version: "2.0.64", model: "claude-sonnet-4-5-20250929", cacheTtl: "5m", start: "2025-12-15T10:20:00.000Z" });
  B.user("Where is the widget label rendered? Use a subagent to look.", { snapshot: true, dt: 0 });
  const taskPrompt = "Find where widget labels are rendered in /home/dev/widget and name the function and file.";
  const br1 = B.assistantSplit({
    base: { input: 3, cacheRead: 12022, cacheCreation: 3115 },
    blocks: [text("I'll ask an Explore agent to find it."), toolUse("Task", { description: "Find label rendering", prompt: taskPrompt, subagent_type: "Explore" })],
  });
  const taskId = br1[1].obj.message.content[0].id;
  const ag = session({ sessionId: sessionB, cwd, version: "2.0.64", agentId: agentB, model: "claude-haiku-4-5-20251001", start: new Date(B.t + 300).toISOString() });
  ag.user(taskPrompt, { dt: 0 });
  const gr1 = ag.assistantSplit({ base: { input: 3, cacheRead: 0, cacheCreation: 5732 }, blocks: [text("I'll list the source files first."), toolUse("Glob", { pattern: "src/**/*.js", path: cwd })] });
  const globOut = "/home/dev/widget/src/dialog.js\n/home/dev/widget/src/toolbar.js\n/home/dev/widget/src/widget.js";
  ag.toolResult(gr1[1].obj.message.content[0].id, globOut, { filenames: globOut.split("\n"), durationMs: 41, numFiles: 3, truncated: false });
  const found = "Labels are rendered by `renderLabel` in /home/dev/widget/src/widget.js; toolbar.js and dialog.js call it.";
  ag.assistantSplit({ blocks: [text(found)] });
  writeText(join(proj, `agent-${agentB}.jsonl`), ag.text());
  B.t = ag.t + 200;
  const agTotals = totals(analyzeTranscript(ag.text()).requests);
  B.toolResult(taskId, [{ type: "text", text: found }], {
    status: "completed", prompt: taskPrompt, content: [{ type: "text", text: found }], totalDurationMs: 6310,
    totalTokens: agTotals.totalInputTokens + agTotals.outputTokens, totalToolUseCount: 1,
  }, { dt: 0 });
  B.assistantSplit({ blocks: [text("The label is rendered by `renderLabel` in src/widget.js.")] });
  const fileB = B.write(join(proj, `${sessionB}.jsonl`));

  // Decoy: an old-layout agent file of another session in the same folder.
  const decoy = session({ sessionId: sessionOther, cwd, version: "2.0.64", agentId: agentDecoy, model: "claude-haiku-4-5-20251001", start: "2025-12-15T11:02:40.000Z" });
  decoy.user("Warmup", { dt: 0 });
  decoy.assistantSplit({ base: { input: 3, cacheRead: 0, cacheCreation: 4120 }, blocks: [text("I'm ready to help you search and explore this codebase.")] });
  writeText(join(proj, `agent-${agentDecoy}.jsonl`), decoy.text());

  // Expected values, from the files as written.
  const chains = [
    { session: sessionA, chain: "main", file: fileA },
    { session: sessionA, chain: agentA, file: join(proj, sessionA, "subagents", `agent-${agentA}.jsonl`) },
    { session: sessionA, chain: agentW, file: join(proj, sessionA, "subagents", "workflows", runId, `agent-${agentW}.jsonl`) },
    { session: sessionB, chain: "main", file: fileB },
    { session: sessionB, chain: agentB, file: join(proj, `agent-${agentB}.jsonl`) },
    { session: sessionOther, chain: agentDecoy, file: join(proj, `agent-${agentDecoy}.jsonl`), decoy: true },
  ].map((c) => {
    const a = analyzeTranscript(readFileSync(c.file, "utf8"));
    return { ...c, file: rel(c.file), lines: a.lines.length, requests: a.requests, totals: totals(a.requests) };
  });
  const mainA = chains[0];
  check(mainA.requests.length === 4, "subagents: session A main has 4 requests (progress records excluded)");
  const progressIds = analyzeTranscript(readFileSync(fileA, "utf8")).lines.filter((l) => l.type === "progress").map((l) => l.value.data.message.message?.id).filter(Boolean);
  const subIds = new Set(chains[1].requests.map((r) => r.messageId));
  check(progressIds.length === 2 && progressIds.every((id) => subIds.has(id)), "subagents: progress records embed subagent message ids");
  check(!mainA.requests.some((r) => subIds.has(r.messageId)), "subagents: no subagent id among main requests");
  const progressLines = analyzeTranscript(readFileSync(fileA, "utf8")).lines.filter((l) => l.type === "progress").map((l) => ({ line: l.line, embeds: l.value.data.message.type, messageId: l.value.data.message.message?.id ?? null }));
  const snakeLines = chains.flatMap((c) => analyzeTranscript(readFileSync(join(ROOT, c.file), "utf8")).lines
    .filter((l) => l.value && "session_id" in l.value).map((l) => ({ file: c.file, line: l.line, sessionId: "sessionId" in l.value })));

  const exp = {
    sessions: { [sessionA]: { versions: ["2.1.73", "2.1.241"], cwd }, [sessionB]: { versions: ["2.0.64"], cwd } },
    attach: { [sessionA]: [agentA, agentW], [sessionB]: [agentB] },
    notAttached: [{ file: chains[5].file, sessionId: sessionOther, reason: "old-layout agent file whose sessionId is another session" }],
    progress: progressLines,
    sessionIdSnakeCase: snakeLines,
    chains: chains.map(({ file, ...c }) => ({ file, ...c })),
  };
  writeText(join(dir, "EXPECTED.json"), json(exp));

  const md = [
    `# subagents — expected values`,
    ``,
    `Computed by \`${GEN}\` from the files as written. Config dir: \`samples/subagents/claude\`; project folder \`projects/${projectKey(cwd)}\` (cwd \`${cwd}\`). Machine-readable copy: \`EXPECTED.json\`.`,
    ``,
    RULES,
    ``,
    `## Which chains belong to which session`,
    ``,
    `| session | chain | file | lines | requests | total input (sum) | output (sum) |`,
    `|---|---|---|---|---|---|---|`,
    ...chains.map((c) => `| ${c.decoy ? "(none: decoy)" : `\`${c.session}\``} | ${c.chain} | \`${c.file.replace(/^subagents\/claude\/projects\/[^/]+\//, "")}\` | ${c.lines} | ${c.totals.requests} | ${c.totals.totalInputTokens} | ${c.totals.outputTokens} |`),
    ``,
    `* Session A \`${sessionA}\` (2.1.73, resumed with 2.1.241): subagent \`${agentA}\` in the NEW layout \`${sessionA}/subagents/agent-${agentA}.jsonl\` (+ \`.meta.json\` \`{"agentType":"general-purpose"}\`), and workflow agent \`${agentW}\` in \`${sessionA}/subagents/workflows/${runId}/\` (no meta file).`,
    `* Session B \`${sessionB}\` (2.0.64): OLD layout, \`agent-${agentB}.jsonl\` beside the session file, its records carry \`sessionId: ${sessionB}\`.`,
    `* \`agent-${agentDecoy}.jsonl\` beside them has \`sessionId: ${sessionOther}\` (no such session file): it must NOT be attached to session B (nor A).`,
    `* Session A main chain has ${progressLines.length} old \`progress\` records (data.type \`agent_progress\`, data.agentId \`${agentA}\`), lines ${progressLines.map((p) => p.line).join(", ")}: ${progressLines.filter((p) => p.messageId).length} embed subagent assistant messages with the same \`message.id\` as in the subagent file (${progressLines.filter((p) => p.messageId).map((p) => `\`${p.messageId}\``).join(", ")}), one embeds a tool result. None is a main-chain request.`,
    `* \`session_id\` (snake case, 2.1.239+): ${snakeLines.length} records, all in the 2.1.241 part; ${snakeLines.filter((x) => !x.sessionId).map((x) => `\`${x.file.split("/").pop()}\` line ${x.line}`).join(", ")} carries ONLY \`session_id\` (no \`sessionId\`).`,
    `* 2.0.64 writes every fragment with \`stop_reason: null\`, so by the rule above every request of session B and its agent is a placeholder (output = last fragment's running count).`,
    `* The 2.1.241 records use populated \`usage.iterations\` (one entry repeating the same numbers): do not add them to the request.`,
    `* Session A main request 3 (line ${mainA.requests[2].line}) is the first after the resume with 2.1.241 / \`claude-opus-5\` five months later: cold cache, so its delta (+${mainA.requests[2].deltaTokens}) is the new build's prompt, not what was added in between (${mainA.requests[2].added.userTextChars} chars of prompt). Compare requests within one run.`,
    ``,
    ...chains.flatMap((c) => [`## ${c.decoy ? "Decoy " : ""}chain ${c.chain} — \`${c.file.split("/").pop()}\``, ``, requestsTable(c.requests), ``, `Totals: ${fmtTotals(c.totals)}.`, ``]),
  ];
  writeText(join(dir, "EXPECTED.md"), md.join("\n"));
  readmeFor(dir, [
    `A Claude config dir (\`claude/\`) with subagent transcripts in the new layout (\`<session>/subagents/\`, incl. \`workflows/<runId>/\`), the old 2.0.x layout (\`agent-<8hex>.jsonl\` beside the session) and a decoy agent file of another session; old \`agent_progress\` copies and \`session_id\` records. See EXPECTED.md.`,
    `Generated by \`${GEN}\`; do not edit by hand.`,
  ]);
  return exp;
}

// ---------------------------------------------------------------------------------------------
// samples/damaged

function makeDamaged() {
  const dir = join(ROOT, "damaged");
  fresh(dir);
  const sessionId = "33333333-4444-4555-8666-777777777777";
  const cwd = "/home/dev/widget";
  const s = session({ sessionId, cwd, version: "2.1.88", slug: "worn-tumbling-heron", start: "2026-04-05T16:40:00.000Z" });
  const planted = new Map(); // line -> what was planted
  const note = (e, what) => planted.set(e.line, what);

  const p = s.user("Build the project and show me the toolbar source.", { dt: 0 });
  p.text = "\uFEFF" + p.text;
  note(p, "UTF-8 BOM at the start of the file, then a valid user record");
  const at = s.attachment({ type: "skill_listing", content: "- commit: Create a git commit", skillCount: 1, isInitial: true });
  at.eol = "\r\n";
  note(at, "valid attachment, CRLF line ending");
  let bashId;
  s.assistantSplit({
    base: { input: 3, cacheRead: 15688, cacheCreation: 1403 },
    blocks: [text("Building first."), toolUse("Bash", { command: "npm run build", description: "Build the project" })],
    after(i, b, e) {
      e.eol = "\r\n";
      note(e, `valid assistant fragment ${i + 1}/2, CRLF line ending`);
      if (i === 0) note(s.raw('{"parentUuid":"4f1c","isSidechain":false,"type":"user","message":{"role":"user","content":"stop'), "invalid JSON: a record cut off mid-string (torn write)");
      else bashId = b.id;
    },
  });
  note(s.raw(""), "blank line (not malformed, still a physical line)");
  const buildOut = "> widget@1.4.0 build\n> node build.mjs\n\nwrote dist/widget.js (2.1 kB)\nBuild finished \ud83d";
  note(s.toolResult(bashId, buildOut, bashResult(buildOut)), "valid tool result whose text ends in a lone UTF-16 surrogate escape (\\ud83d): valid JSON, must parse");
  note(s.raw("\u0000".repeat(1024)), "1,024 NUL bytes (crash remnant)");
  const q = s.queueOperation("enqueue", "also show dialog.js");
  q.text += "\u0000".repeat(256);
  note(q, "a valid queue-operation record followed by 256 NUL bytes");
  let readId;
  s.assistantSplit({
    blocks: [text("Build is fine. Reading the toolbar."), toolUse("Read", { file_path: cwd + "/src/toolbar.js" })],
    after(i, b, e) {
      note(e, `valid assistant fragment ${i + 1}/2`);
      if (i === 0) {
        const a1 = JSON.stringify({ type: "queue-operation", operation: "dequeue", timestamp: new Date(s.t + 1).toISOString(), sessionId });
        const a2 = JSON.stringify({ type: "queue-operation", operation: "remove", timestamp: new Date(s.t + 2).toISOString(), sessionId });
        note(s.raw(a1 + a2), "two records glued on one line (`}{`)");
      } else readId = b.id;
    },
  });
  note(s.raw('[{"type":"user","message":{"role":"user","content":"stray"}}]'), "bare JSON array");
  const TOOLBAR = "import { renderLabel } from \"./widget.js\";\n\nexport function renderToolbar(items) {\n  return items.map((item) => renderLabel(item.label, { pad: 2 })).join(\" \");\n}";
  note(s.toolResult(readId, numbered(TOOLBAR), readResult(cwd + "/src/toolbar.js", TOOLBAR)), "valid tool result");
  note(s.raw("42"), "bare number");
  note(s.raw('"hello"'), "string literal");
  note(s.raw("[".repeat(100000)), "100,000 nested `[` (never closed): must not overflow the stack");
  note(s.record({ type: "hologram-frame", frame: 7, uuid: s.id.uuid(), timestamp: s.tick(5), sessionId }), "unknown record type `hologram-frame` (not malformed)");
  note(s.record({ parentUuid: null, uuid: s.id.uuid(), timestamp: s.tick(5), sessionId, message: { role: "user", content: "orphan text without a type" } }), "object without a `type` field (unknown, not malformed; its message must not count as user text)");
  note(s.raw("", "\r\n"), "blank line with CRLF");
  s.assistantSplit({
    blocks: [text("`renderToolbar` maps each item through `renderLabel` with `{ pad: 2 }`.")],
    after(i, b, e) { note(e, "valid assistant record (final)"); },
  });
  note(s.system("turn_duration"), "valid system turn_duration");
  const lastObj = s.env({ message: { model: "claude-opus-4-6", id: s.id.msgId(), type: "message", role: "assistant", content: [{ type: "text", text: "Anything else?" }] }, requestId: s.id.reqId(), type: "assistant", uuid: s.id.uuid(), timestamp: s.tick(900) });
  note(s.raw(JSON.stringify(lastObj).slice(0, 160), ""), "half-written last record, no trailing newline (truncated)");

  const file = s.write(join(dir, `${sessionId}.jsonl`));
  const a = analyzeTranscript(readFileSync(file, "utf8"));
  check(a.lines.length === s.entries.length, "damaged: physical line count");
  check(a.requests.length === 3, "damaged: 3 valid requests");
  const table = a.lines.map((l) => ({
    line: l.line,
    classification: (l.kind === "malformed" ? `malformed (${l.reason})` : l.kind === "unknown" ? `unknown type (${l.type === null ? "no type field" : l.type})` : l.kind === "blank" ? "blank" : `ok (${l.type})`) + (l.damaged ? `, read despite damage (${l.damaged})` : ""),
    kind: l.kind, reason: l.reason ?? null, type: l.type ?? null, planted: planted.get(l.line) ?? "",
  }));
  const bytes = readFileSync(file).length;
  const exp = { session: sessionId, file: rel(file), bytes, physicalLines: a.lines.length, records: a.lines.filter((l) => l.kind === "ok" || l.kind === "unknown").length,
    malformed: a.malformed, unknownTypes: a.unknown, blank: a.lines.filter((l) => l.kind === "blank").map((l) => l.line),
    crlfLines: s.entries.filter((e) => e.eol === "\r\n").map((e) => e.line), endsWithNewline: false, lines: table, requests: a.requests, totals: totals(a.requests) };
  writeText(join(dir, "EXPECTED.json"), json(exp));
  writeText(join(dir, "EXPECTED.md"), [
    `# damaged — expected values`,
    ``,
    `Computed by \`${GEN}\` from \`${rel(file)}\` (${bytes} bytes: over 100 KB only because of the 100,000-\`[\` line). Machine-readable copy: \`EXPECTED.json\`.`,
    ``,
    `${a.lines.length} physical lines (the last has no newline), ${exp.records} records, ${a.malformed.length} malformed, ${a.unknown.length} unknown, ${exp.blank.length} blank. CRLF endings on lines ${exp.crlfLines.join(", ")}; line 1 starts with a UTF-8 BOM.`,
    `Classification: blank = empty after removing a trailing \`\\r\`; malformed = \`JSON.parse\` fails (after NUL runs the line starts or ends with are cut: a crash remnant, damage) or the value is not an object; unknown = an object whose \`type\` is missing or not a known record type; ok otherwise.`,
    ``,
    `| line | expected | what was planted |`,
    `|---|---|---|`,
    ...table.map((t) => `| ${t.line} | ${t.classification} | ${t.planted} |`),
    ``,
    `## Valid requests`,
    ``,
    RULES,
    ``,
    requestsTable(a.requests),
    ``,
    `Totals: ${fmtTotals(totals(a.requests))}. The truncated last line is an assistant record cut short: malformed, not a request.`,
  ].join("\n") + "\n");
  readmeFor(dir, [
    `One session interleaved with every kind of damaged line (torn JSON, NUL blocks, glued records, non-object values, 100,000-deep nesting, BOM, CRLF, lone surrogate, unknown and missing types, no final newline); see EXPECTED.md for line → classification.`,
    `Generated by \`${GEN}\`; do not edit by hand. The .jsonl is ~110 KB because of the deep-nesting line.`,
  ]);
  return exp;
}

// ---------------------------------------------------------------------------------------------
// samples/claude-home (two of its sessions; c0ffee00-… is written by another generator)

function makeClaudeHome() {
  const dir = join(ROOT, "claude-home");
  const proj = join(dir, "projects", projectKey("/home/dev/my.app"));
  check(projectKey("/home/dev/my.app") === projectKey("/home/dev/my_app"), "claude-home: lossy key");
  const id1 = "abcdef12-0000-4000-8000-000000000001";
  const id2 = "abcdef12-0000-4000-8000-000000000002";
  for (const f of [`${id1}.jsonl`, `${id2}.jsonl`]) rmSync(join(proj, f), { force: true });
  rmSync(join(dir, "EXPECTED-lookup.md"), { force: true });

  const s1 = session({ sessionId: id1, cwd: "/home/dev/my.app", version: "2.1.88", slug: "merry-drifting-pebble", start: "2026-04-03T10:00:00.000Z" });
  s1.user("What does the start script in package.json run?", { snapshot: true, dt: 0 });
  const r = s1.assistantSplit({ base: { input: 3, cacheRead: 15688, cacheCreation: 1290 }, blocks: [toolUse("Read", { file_path: "/home/dev/my.app/package.json" })] });
  const pkg = '{\n  "name": "my.app",\n  "scripts": {\n    "start": "node server.js"\n  }\n}';
  s1.toolResult(r[0].obj.message.content[0].id, numbered(pkg) + MALWARE_REMINDER, readResult("/home/dev/my.app/package.json", pkg));
  s1.assistantSplit({ blocks: [text("`npm start` runs `node server.js`.")] });
  s1.system("turn_duration");
  s1.lastPrompt("What does the start script in package.json run?");
  const f1 = s1.write(join(proj, `${id1}.jsonl`));

  const s2 = session({ sessionId: id2, cwd: "/home/dev/my_app", version: "2.1.88", slug: "gentle-folding-comet", start: "2026-04-04T15:30:00.000Z" });
  s2.queueOperation("dequeue", undefined, { dt: 0 });
  s2.user("Say hello.", { snapshot: true, dt: 2 });
  s2.assistantSplit({ base: { input: 3, cacheRead: 15688, cacheCreation: 1104 }, blocks: [text("Hello!")] });
  s2.lastPrompt("Say hello.");
  const f2 = s2.write(join(proj, `${id2}.jsonl`));

  const rows = [[id1, f1, "/home/dev/my.app"], [id2, f2, "/home/dev/my_app"]].map(([id, f, cwd]) => {
    const a = analyzeTranscript(readFileSync(f, "utf8"));
    return { id, file: rel(f), cwd, requests: a.requests.length, totals: totals(a.requests) };
  });
  writeText(join(dir, "EXPECTED-lookup.md"), [
    `# claude-home — id lookup (sessions written by \`${GEN}\`)`,
    ``,
    `Both sessions sit in \`projects/${projectKey("/home/dev/my.app")}\`: the folder name is lossy (\`/home/dev/my.app\` and \`/home/dev/my_app\` map to the same key); the \`cwd\` field tells them apart.`,
    ``,
    `| session id | cwd | file | requests | total input (sum) | output (sum) |`,
    `|---|---|---|---|---|---|`,
    ...rows.map((r) => `| \`${r.id}\` | \`${r.cwd}\` | \`${r.file}\` | ${r.requests} | ${r.totals.totalInputTokens} | ${r.totals.outputTokens} |`),
    ``,
    `* \`abcdef12\` is an ambiguous prefix: both sessions match → usage error (exit 2). So is every longer prefix up to \`abcdef12-0000-4000-8000-00000000000\` (35 chars): the two ids differ only in their last character.`,
    `* \`abcdef12-0000-4000-8000-000000000001\` (the full id) is unique and resolves to \`${rows[0].file}\`.`,
    `* \`c0ffee00-1111-4222-8333-444444444444\` (the rich demo session) is written by another generator, not this one.`,
  ].join("\n") + "\n");
  readmeFor(dir, [
    `A Claude config dir for session-id lookup: \`abcdef12-…-001\` (cwd /home/dev/my.app) and \`abcdef12-…-002\` (cwd /home/dev/my_app) share one lossy project folder and the ambiguous prefix \`abcdef12\` (EXPECTED-lookup.md); the rich demo session \`c0ffee00-1111-4222-8333-444444444444\` is added by its own generator.`,
    `The two \`abcdef12-…\` sessions are generated by \`${GEN}\`; do not edit them by hand.`,
  ]);
  return rows;
}

const basic = makeBasic();
makeSubagents();
makeDamaged();
makeClaudeHome();
if (failures) {
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
console.log("basic requests:");
for (const r of basic.requests) console.log(`  #${r.index} line ${r.line} ${r.messageId} frags=${r.fragments} total=${r.totalInputTokens} delta=${r.deltaTokens} out=${r.outputTokens}${r.outputPlaceholder ? " (placeholder)" : ""}`);
