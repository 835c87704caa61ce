// Writes samples/chains: the shapes FORMATS.md section 11 found in complete 2.1.14-2.1.39 sessions.
//   * a parent whose Task/Agent results carry the subagent's final `usage` (agentId join, and one
//     result without agentId that only the prompt joins), while each subagent file's last request
//     keeps the streaming placeholder (output 1-4, stop_reason null);
//   * a main file holding a sidechain record (isSidechain:true + agentId) and records of another
//     session (a resume copy) between its own requests;
//   * an orphan subagent folder: <session>/subagents/agent-*.jsonl with no <session>.jsonl.
// Run: node samples/gen/make-chains.mjs (npm test checks the committed files are what it writes).

import { rmSync } from "node:fs";
import { join } from "node:path";
import { projectKey, samplesRoot, session, text, toolUse, writeText } from "./lib.mjs";

const ROOT = samplesRoot();
const GEN = "node samples/gen/make-chains.mjs";
const dir = join(ROOT, "chains");
rmSync(dir, { recursive: true, force: true });
const cwd = "/home/dev/ledger";
const proj = join(dir, "claude", "projects", projectKey(cwd));
const version = "2.1.39";

const PARENT = "c4a1c4a1-0000-4000-8000-000000000001";
const MIXED = "c4a1c4a1-0000-4000-8000-000000000002";
const ORPHAN = "c4a1c4a1-0000-4000-8000-000000000003";
const RESUMED = "c4a1c4a1-0000-4000-8000-0000000000f0";

/** A subagent's run: its prompt, two tool calls, a last request that never got its final fragment. */
function subagent({ sessionId, agentId, prompt, start, base, lastOut }) {
  const s = session({ sessionId, cwd, version, agentId, model: "claude-haiku-4-5-20251001", start });
  s.user(prompt, { dt: 0 });
  const r1 = s.assistantSplit({ base, blocks: [text("Looking at the ledger sources."), toolUse("Grep", { pattern: "postEntry\\(", path: cwd })] });
  const grep = "src/post.js:4:export function postEntry(entry) {\nsrc/import.js:19:  postEntry(row);";
  s.toolResult(r1[1].obj.message.content[0].id, grep, { mode: "content", numFiles: 0, filenames: [], content: grep, numLines: 2 });
  const r2 = s.assistantSplit({ blocks: [toolUse("Read", { file_path: `${cwd}/src/post.js`, limit: 40 })] });
  s.toolResult(r2[0].obj.message.content[0].id, "     1→export function postEntry(entry) {\n     2→  return ledger.append(entry);\n     3→}", {
    type: "text",
    file: { filePath: `${cwd}/src/post.js`, content: "export function postEntry(entry) {\n  return ledger.append(entry);\n}", numLines: 3, startLine: 1, totalLines: 3 },
  });
  // 2.1.14-2.1.39 never write the last request's final fragment: output_tokens stays the snapshot.
  s.assistantSplit({ blocks: [text("postEntry is defined in src/post.js:4 and called from src/import.js:19.")], placeholder: true, snapshotOut: lastOut });
  return s;
}

/** The parent's Task/Agent result: the subagent's last request as the API finally counted it. */
function taskResult(sub, { agentId, prompt, output, durationMs, toolUses }) {
  const u = sub.requests.at(-1).usage;
  const usage = {
    input_tokens: u.input_tokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens,
    cache_read_input_tokens: u.cache_read_input_tokens,
    cache_creation: { ephemeral_5m_input_tokens: u.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 },
    output_tokens: output,
    service_tier: "standard",
  };
  const total = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens + output;
  const content = [{ type: "text", text: "postEntry is defined in src/post.js:4 and called from src/import.js:19." }];
  return {
    status: "completed",
    prompt,
    ...(agentId ? { agentId } : {}),
    content,
    totalDurationMs: durationMs,
    totalTokens: total,
    totalToolUseCount: toolUses,
    usage,
  };
}

// ---- the parent and its two subagents
const agentA = "a7be2f0";
const agentB = "a3d9c41";
const promptA = "Find where ledger entries are posted in /home/dev/ledger: the function, its file and line, and every caller.";
const promptB = "Check whether /home/dev/ledger posts entries anywhere outside src/post.js and list those places.";
const P = session({ sessionId: PARENT, cwd, version, slug: "quiet-ledger-walk", start: "2026-02-10T09:00:00.000Z" });
P.user("Where are ledger entries posted? Ask two agents to look.", { snapshot: true, dt: 0 });
const pr1 = P.assistantSplit({
  base: { input: 3, cacheRead: 15210, cacheCreation: 2044 },
  blocks: [
    text("I'll send two agents."),
    toolUse("Task", { description: "Find postEntry", prompt: promptA, subagent_type: "Explore" }),
    toolUse("Agent", { description: "Other posting sites", prompt: promptB, subagent_type: "general-purpose" }),
  ],
});
const taskA = pr1[1].obj.message.content[0].id;
const taskB = pr1[2].obj.message.content[0].id;
const subA = subagent({ sessionId: PARENT, agentId: agentA, prompt: promptA, start: new Date(P.t + 300).toISOString(), base: { input: 3, cacheRead: 0, cacheCreation: 6120 }, lastOut: 1 });
const subB = subagent({ sessionId: PARENT, agentId: agentB, prompt: promptB, start: new Date(P.t + 350).toISOString(), base: { input: 3, cacheRead: 0, cacheCreation: 6188 }, lastOut: 4 });
writeText(join(proj, PARENT, "subagents", `agent-${agentA}.jsonl`), subA.text());
writeText(join(proj, PARENT, "subagents", `agent-${agentB}.jsonl`), subB.text());
P.t = Math.max(subA.t, subB.t) + 200;
P.toolResult(taskA, [{ type: "text", text: "postEntry is defined in src/post.js:4 and called from src/import.js:19." }], taskResult(subA, { agentId: agentA, prompt: promptA, output: 1545, durationMs: 18230, toolUses: 2 }), { dt: 0 });
// Without agentId: only the prompt (the subagent's first user message) names its chain.
P.toolResult(taskB, [{ type: "text", text: "postEntry is defined in src/post.js:4 and called from src/import.js:19." }], taskResult(subB, { prompt: promptB, output: 938, durationMs: 16870, toolUses: 2 }), { dt: 0 });
P.assistantSplit({ blocks: [text("Entries are posted by postEntry (src/post.js:4); src/import.js:19 is the only caller.")] });
P.system("turn_duration");
P.write(join(proj, `${PARENT}.jsonl`));

// ---- one main file, three chains: its own, a sidechain record, a resume copy of another session
const M = session({ sessionId: MIXED, cwd, version, start: "2026-02-11T10:00:00.000Z" });
const side = session({ sessionId: MIXED, cwd, version, agentId: "a5e6f70", model: "claude-haiku-4-5-20251001", start: "2026-02-11T10:00:20.000Z" });
const copy = session({ sessionId: RESUMED, cwd, version, start: "2026-02-09T16:00:00.000Z" });
M.user("Summarise the ledger's posting rules.", { dt: 0 });
M.assistantSplit({ base: { input: 3, cacheRead: 31000, cacheCreation: 1200 }, blocks: [text("Reading the rules."), toolUse("Read", { file_path: `${cwd}/RULES.md` })] });
M.toolResult(M.requests.at(-1).entries[1].obj.message.content[0].id, "     1→Entries post once, in order.", {
  type: "text",
  file: { filePath: `${cwd}/RULES.md`, content: "Entries post once, in order.", numLines: 1, startLine: 1, totalLines: 1 },
});
// A sidechain request in the middle: 30,925 tokens smaller than the main chain's.
side.user("Quick check: is RULES.md up to date?", { dt: 0 });
for (const e of side.assistantSplit({ base: { input: 3, cacheRead: 0, cacheCreation: 1310 }, blocks: [text("It is.")] })) M.raw(e.text);
M.assistantSplit({ blocks: [text("Entries post once and in order.")] });
M.user("And the older notes?", { dt: 20000 });
// A resume copy: records of the session this one was resumed from, much larger.
copy.user("Earlier: list the posting rules.", { dt: 0 });
for (const e of copy.assistantSplit({ base: { input: 3, cacheRead: 88000, cacheCreation: 2400 }, blocks: [text("Rules listed.")] })) M.raw(e.text);
M.assistantSplit({ blocks: [text("The older notes say the same.")] });
M.write(join(proj, `${MIXED}.jsonl`));

// ---- an orphan subagent folder: the main file is gone
const orphan = subagent({ sessionId: ORPHAN, agentId: "a0c0ffe", prompt: promptA, start: "2026-02-12T08:00:00.000Z", base: { input: 3, cacheRead: 0, cacheCreation: 5990 }, lastOut: 2 });
writeText(join(proj, ORPHAN, "subagents", "agent-a0c0ffe.jsonl"), orphan.text());

writeText(
  join(dir, "README.md"),
  [
    "Shapes from complete 2.1.14-2.1.39 sessions (FORMATS.md section 11), in the config dir `claude/`:",
    "",
    `* \`${PARENT}\`: a parent whose Task (agentId \`${agentA}\`) and Agent (no agentId: joined by its prompt, chain \`${agentB}\`) results carry the subagent's final \`usage\` (output 1,545 and 938); each subagent file's last request keeps the placeholder (1 and 4, stop_reason null).`,
    `* \`${MIXED}\`: one main file with a sidechain record (\`isSidechain:true\`, agentId \`a5e6f70\`) and a resume copy of session \`${RESUMED}\` between its own requests: three chains.`,
    `* \`${ORPHAN}\`: an orphan subagent folder (\`${ORPHAN}/subagents/agent-a0c0ffe.jsonl\`, no \`${ORPHAN}.jsonl\`).`,
    "",
    `Generated by \`${GEN}\`; do not edit by hand.`,
    "",
  ].join("\n"),
);
