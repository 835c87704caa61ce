import { test } from "node:test";
import assert from "node:assert/strict";
import { Fanout } from "../../src/analyses/analysis.js";
import { answerCheck, baselineCheck, pendingServers } from "../../src/analyses/instructions-checks.js";
import { joinRows, type JoinContext, type Truncation } from "../../src/analyses/instructions-join.js";
import { instructionsAnalysis } from "../../src/analyses/instructions.js";
import { compileProbe } from "../../src/analyses/probe.js";
import { requestsAnalysis } from "../../src/analyses/requests.js";
import { renderMcpInstructionsDelta } from "../../src/records/attachments.js";
import { toRecord } from "../../src/records/transcript.js";
import { assistant, attachment, toolResult, userText } from "../builders.js";

const FILE = "t.jsonl";

function run(recs: Array<Record<string, unknown>>, ctx: Partial<JoinContext> = {}) {
  const fan = new Fanout({ requests: requestsAnalysis, instructions: instructionsAnalysis });
  recs.forEach((r, i) => fan.step(toRecord(r, { file: FILE, line: i + 1 }, "main")));
  const res = fan.finish();
  const rows = joinRows(res.instructions, res.requests, { probe: compileProbe(), debug: null, init: null, ...ctx });
  return { ...res, rows };
}

const delta = (added: Array<[string, string]>, removed: string[] = []) =>
  attachment({
    type: "mcp_instructions_delta",
    addedNames: added.map((a) => a[0]),
    addedBlocks: added.map(([n, t]) => `## ${n}\n${t}`),
    removedNames: removed,
  });

test("two servers in one delta: one row each, same carrier, request 1, rendered size of the whole block", () => {
  const added: Array<[string, string]> = [
    ["alpha", "use alpha"],
    ["lab", "BEGIN codeword: WAXWING-4465. [at 250] END codeword: KESTREL-1907."],
  ];
  const { rows } = run([
    userText("hi"),
    attachment({ type: "deferred_tools_delta", addedNames: ["mcp__lab__x"], addedLines: ["mcp__lab__x"], removedNames: [] }),
    delta(added),
    attachment({ type: "skill_listing", content: "- x" }),
    assistant(),
  ]);
  assert.deepEqual(
    rows.map((r) => [r.server, r.carrier, r.line, r.requestIndex]),
    [
      ["alpha", "mcp_instructions_delta", 3, 1],
      ["lab", "mcp_instructions_delta", 3, 1],
    ],
  );
  const rendered = renderMcpInstructionsDelta({ addedBlocks: added.map(([n, t]) => `## ${n}\n${t}`) }).text.length;
  assert.equal(rows[0]!.renderedChars, rendered);
  assert.equal(rows[0]!.renderedSource, "rendered");
  assert.deepEqual(rows[1]!.serversInCarrier, ["alpha", "lab"]);
  assert.deepEqual(rows[1]!.probe, { begin: "WAXWING-4465", end: "KESTREL-1907", lastMarker: 250, markers: 1 });
  assert.deepEqual(rows[1]!.position, {
    anchor: "prompt",
    index: 3,
    of: 4,
    before: ["prompt", "deferred_tools_delta"],
    after: ["skill_listing"],
  });
  assert.deepEqual(rows[1]!.notAppearingIn, ["deferred-tools"], "only the deferred-tools list is in evidence; no snapshot");
});

test("a late server: pending in the deferred list of request 1, its delta rides on request 2", () => {
  const { rows, instructions } = run(
    [
      userText("sleep first"),
      attachment({ type: "deferred_tools_delta", addedNames: [], addedLines: [], removedNames: [], pendingMcpServers: ["lab"] }),
      assistant({ blocks: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: {} }], stop: "tool_use" }),
      toolResult("toolu_1", ""),
      attachment({ type: "deferred_tools_delta", addedNames: ["mcp__lab__ping"], addedLines: ["mcp__lab__ping"], removedNames: [] }),
      delta([["lab", "late text"]]),
      assistant(),
    ],
    { init: { file: "run.jsonl", servers: [{ name: "lab", status: "pending" }] } },
  );
  const r = rows[0]!;
  assert.equal(r.requestIndex, 2);
  assert.equal(r.initStatus, "pending");
  assert.deepEqual(r.late, {
    missedRequests: 1,
    firstMissed: 1,
    lastMissed: 1,
    neverSent: false,
    evidence: ["init event: pending", "deferred-tools list at line 2: pendingMcpServers"],
  });
  assert.deepEqual(r.position?.before, ["tool-result", "deferred_tools_delta"]);
  assert.deepEqual(pendingServers(rows, instructions, { servers: [{ name: "lab", status: "pending" }] }), [
    { server: "lab", evidence: ["init event: pending", "deferred-tools list at line 2: pendingMcpServers"], requestIndex: 2 },
  ]);
});

test("the still-connecting note in rendered text names the server too", () => {
  const note =
    "<system-reminder>\nThe following MCP servers are still connecting — their tools (usually named mcp__*) are not available yet but will appear soon:\nlab\n</system-reminder>";
  const { instructions } = run([
    userText("x"),
    attachment({ type: "deferred_tools_delta", addedNames: [], renderedText: note }),
    assistant(),
  ]);
  assert.deepEqual(
    instructions.evidence.get("main")!.pendingNotes.map((n) => [n.servers, n.sources]),
    [[["lab"], ["still-connecting note"]]],
  );
});

test("a delta with no request after it was never sent", () => {
  const { rows } = run([userText("a"), assistant(), userText("b"), delta([["lab", "t"]])]);
  assert.equal(rows[0]!.requestIndex, null);
  assert.equal(rows[0]!.late?.neverSent, true);
  assert.equal(rows[0]!.late?.missedRequests, 1);
});

test("a delta right before a compaction: no request carried it, the boundary says why, and it is not called late", () => {
  const { rows } = run([
    userText("a"),
    assistant(),
    delta([["lab", "t"]]),
    { parentUuid: null, type: "system", subtype: "compact_boundary", compactMetadata: { trigger: "auto", preTokens: 900 } },
    userText("This session is being continued from a previous conversation that ran out of context.", { isCompactSummary: true }),
    delta([["lab", "t"]]),
    assistant(),
  ]);
  assert.deepEqual(
    rows.map((r) => [r.line, r.requestIndex, r.compaction?.trigger ?? null, r.compaction?.line ?? null, r.late]),
    [
      [3, null, "auto", 4, null],
      [6, 2, null, null, null],
    ],
  );
});

test("removed, then re-added with another text: deliveries counted, change detected, the answer is held against the new text", () => {
  const v1 = "BEGIN codeword: HOOPOES-1100. END codeword: BUNTING-1101.";
  const v2 = "BEGIN codeword: REDWING-2200. [at 30] END codeword: WARBLER-2201.";
  const recs = [
    userText("a"),
    delta([["lab", v1]]),
    assistant(),
    userText("b"),
    delta([], ["lab"]),
    assistant(),
    userText("c"),
    delta([["lab", v2]]),
    assistant({ blocks: [{ type: "text", text: "BEGIN=REDWING-2200 END=WARBLER-2201 LAST=30" }] }),
  ];
  const { rows, instructions, requests } = run(recs);
  assert.deepEqual(
    rows.map((r) => [r.removed, r.delivery, r.changed, r.requestIndex, r.chars]),
    [
      [false, 1, null, 1, v1.length],
      [true, 2, null, 2, 0],
      [false, 3, true, 3, v2.length],
    ],
  );
  const a = answerCheck(rows, instructions, requests, null)!;
  assert.equal(a.matches, true);
  assert.equal(a.server, "lab");
  assert.equal(a.deliveryLine, 8);
  assert.equal(rows[2]!.answerMatches, true);
  assert.equal(rows[0]!.answerMatches, null, "the first text is no longer active");
});

test("after a removal nothing is active: the answer must be NONE", () => {
  const recs = [
    userText("a"),
    delta([["lab", "BEGIN codeword: HOOPOES-1100."]]),
    assistant(),
    userText("b"),
    delta([], ["lab"]),
    assistant({ blocks: [{ type: "text", text: "BEGIN=HOOPOES-1100 END=NONE LAST=NONE" }] }),
  ];
  const { rows, instructions, requests } = run(recs);
  const a = answerCheck(rows, instructions, requests, null)!;
  assert.equal(a.matches, false);
  assert.deepEqual(a.expected, { begin: "NONE", end: "NONE", last: "NONE" });
  assert.deepEqual(a.invented, [], "the codeword was delivered once: wrong, not invented");
});

test("debug log: source length from the truncation line; disagreements flagged both ways", () => {
  const cut = "BEGIN codeword: TANAGER-5810. " + "x".repeat(2018) + "… [truncated]";
  const t = (to: number, line: number): Truncation => ({ server: "lab", from: 20000, to, file: "d.txt", line, ms: null });
  const recs = [userText("a"), delta([["lab", cut]]), assistant()];
  const ok = run(recs, { debug: { file: "d.txt", truncations: [t(2048, 7)] } }).rows[0]!;
  assert.equal(ok.keptChars, 2048);
  assert.equal(ok.sourceChars, 20000);
  assert.deepEqual(ok.debugLog, { file: "d.txt", line: 7, from: 20000, to: 2048, status: "match", problem: null });
  const bad = run(recs, { debug: { file: "d.txt", truncations: [t(1024, 7)] } }).rows[0]!;
  assert.equal(bad.debugLog?.status, "mismatch");
  assert.match(bad.debugLog!.problem!, /cut to 1,024 chars, the transcript kept 2,048/);
  const none = run(recs, { debug: { file: "d.txt", truncations: [] } }).rows[0]!;
  assert.equal(none.sourceChars, null);
  assert.match(none.debugLog!.problem!, /no truncation line/);
  const whole = run([userText("a"), delta([["lab", "short"]]), assistant()], { debug: { file: "d.txt", truncations: [t(2048, 3)] } })
    .rows[0]!;
  assert.equal(whole.sourceChars, null, "contract: null when the text was not truncated");
  assert.match(whole.debugLog!.problem!, /transcript text is whole \(5 chars\)/);
});

test("a prompt snapshot tells where the text is not, and where it also is", () => {
  const snap = {
    type: "prompt_snapshot",
    systemPrompt: "You are a tool.",
    tools: [{ name: "lookup", description: "mentions WAXWING-4465 by accident" }],
  };
  const { rows } = run([userText("a"), delta([["lab", "BEGIN codeword: WAXWING-4465."]]), snap, assistant()]);
  assert.deepEqual(rows[0]!.notAppearingIn, ["system-prompt"]);
  assert.deepEqual(rows[0]!.alsoAppearingIn, ["tool-definitions"]);
});

test("system-prompt carrier from a snapshot; reminder carrier from isMeta user text", () => {
  const heading =
    "# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n";
  const snap = { type: "prompt_snapshot", systemPrompt: `You are a tool.\n\n${heading}## lab\nBEGIN codeword: PENGUIN-3300.`, tools: [] };
  const a = run([userText("a"), snap, assistant()]).rows;
  assert.deepEqual(
    a.map((r) => [r.server, r.carrier, r.where, r.requestIndex, r.probe?.begin]),
    [["lab", "system-prompt", "prompt_snapshot", 1, "PENGUIN-3300"]],
  );
  const reminder = renderMcpInstructionsDelta({ addedBlocks: ["## lab\nhello"] }).text;
  const b = run([userText("a"), userText(reminder, { isMeta: true }), assistant()]).rows;
  assert.deepEqual(
    b.map((r) => [r.server, r.carrier, r.where, r.renderedChars, r.position?.before]),
    [["lab", "system-reminder", "user-text", reminder.length, ["prompt"]]],
  );
});

test("baseline: first-request delta shared by the texts of request 1; wrapper tokens give text chars per token", () => {
  const text = "x".repeat(2061);
  const { rows, requests } = run([
    userText("a"),
    delta([["lab", text]]),
    assistant({ usage: { input_tokens: 6, cache_creation_input_tokens: 20929 } }),
  ]);
  const b = baselineCheck(rows, requests, { file: "b.jsonl", firstRequestTokens: 20214, instructions: 0 }, 51);
  assert.equal(b.firstRequestTokens, 20935);
  assert.equal(b.deltaTokens, 721);
  assert.equal(b.chars, 2061);
  assert.equal(b.tokensPerChar, 721 / 2061);
  assert.equal(b.textCharsPerToken, 2061 / 670);
  assert.equal(rows[0]!.baselineDeltaTokens, 721);
});

test("a quoted heading outside a closed <system-reminder> is not a delivery", () => {
  const quoted =
    "# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n## lab\nBEGIN codeword: X-1.";
  const { rows } = run([userText(quoted), toolResult("toolu_9", `<system-reminder>\n${quoted}`), assistant()]);
  assert.deepEqual(rows, []);
  const inResult = renderMcpInstructionsDelta({ addedBlocks: ["## lab\nhello"] }).text;
  const r2 = run([userText("a"), toolResult("toolu_9", `output\n\n${inResult}`), assistant()]).rows;
  assert.deepEqual(
    r2.map((r) => [r.server, r.where]),
    [["lab", "tool-result"]],
  );
});

test("answer check with nothing delivered: never 'matches'; a claimed codeword is still wrong", () => {
  const none = run([userText("a"), assistant({ blocks: [{ type: "text", text: "BEGIN=NONE END=NONE LAST=NONE" }] })]);
  const a = answerCheck(none.rows, none.instructions, none.requests, null)!;
  assert.deepEqual([a.check, a.matches, a.server], ["nothing-delivered", null, null]);
  const free = run([userText("a"), assistant({ blocks: [{ type: "text", text: "Done, the parts are listed." }] })]);
  assert.deepEqual(pick(answerCheck(free.rows, free.instructions, free.requests, null)!), ["nothing-delivered", null]);
  const claimed = run([userText("a"), assistant({ blocks: [{ type: "text", text: "BEGIN=HERON-4821 END=NONE LAST=NONE" }] })]);
  const c = answerCheck(claimed.rows, claimed.instructions, claimed.requests, null)!;
  assert.deepEqual(pick(c), ["nothing-delivered", false]);
  assert.deepEqual(c.invented, ["HERON-4821"]);
});

test("answer check with no answer: delivered, but the model gave no text", () => {
  const text = "BEGIN codeword: HOOPOES-1100. [at 30] END codeword: BUNTING-1101.";
  const toolOnly = [{ type: "tool_use", id: "toolu_1", name: "mcp__lab__lookup_part", input: {} }];
  const r = run([userText("a"), delta([["lab", text]]), assistant({ blocks: toolOnly })]);
  const a = answerCheck(r.rows, r.instructions, r.requests, null)!;
  assert.deepEqual([a.check, a.matches, a.text, a.server], ["no-answer", null, null, "lab"]);
  assert.deepEqual(a.expected, { begin: "HOOPOES-1100", end: "BUNTING-1101", last: "30" });
  assert.deepEqual(a.mismatches, []);
  const blank = answerCheck(r.rows, r.instructions, r.requests, { file: "run.json", text: "  \n" })!;
  assert.equal(blank.check, "no-answer", "a whitespace-only claude -p result is no answer");
  const nothing = run([userText("a"), assistant({ blocks: toolOnly })]);
  assert.equal(
    answerCheck(nothing.rows, nothing.instructions, nothing.requests, null),
    null,
    "nothing delivered and no answer: nothing to report",
  );
});

test("answer check when what was delivered carries no probe values", () => {
  const r = run([
    userText("a"),
    delta([["docs", "Use search_docs before answering."]]),
    assistant({ blocks: [{ type: "text", text: "Here you go." }] }),
  ]);
  assert.deepEqual(pick(answerCheck(r.rows, r.instructions, r.requests, null)!), ["no-probe", null]);
});

const pick = (a: { check: string; matches: boolean | null }) => [a.check, a.matches];
