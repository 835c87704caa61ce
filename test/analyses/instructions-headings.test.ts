import { test } from "node:test";
import assert from "node:assert/strict";
import { Fanout } from "../../src/analyses/analysis.js";
import { joinRows } from "../../src/analyses/instructions-join.js";
import { instructionsAnalysis, resplitSections } from "../../src/analyses/instructions.js";
import { compileProbe } from "../../src/analyses/probe.js";
import { requestsAnalysis } from "../../src/analyses/requests.js";
import { MCP_INSTRUCTIONS_HEADING, renderMcpInstructionsDelta } from "../../src/records/attachments.js";
import { toRecord } from "../../src/records/transcript.js";
import { assistant, attachment, userText } from "../builders.js";

function scan(recs: Array<Record<string, unknown>>) {
  const fan = new Fanout({ requests: requestsAnalysis, instructions: instructionsAnalysis });
  recs.forEach((r, i) => fan.step(toRecord(r, { file: "t.jsonl", line: i + 1 }, "main")));
  return fan.finish();
}
function run(recs: Array<Record<string, unknown>>) {
  const res = scan(recs);
  return joinRows(res.instructions, res.requests, { probe: compileProbe(), debug: null, init: null });
}
const brief = (rows: ReturnType<typeof run>) => rows.map((r) => [r.server, r.chars, r.probe?.begin ?? null, r.probe?.end ?? null]);

/** A server's text with its own markdown headings, as MCP servers write them. */
const LAB =
  "BEGIN codeword: HERON-4821. Parts desk.\n\n## Usage\nCall lookup_part with a PN-1234 number.\n\n## Limits\nNo bulk lookups. END codeword: OSPREY-3094.";
const deferred = (...tools: string[]) =>
  attachment({ type: "deferred_tools_delta", addedNames: tools, addedLines: tools, removedNames: [] });

test("a server's own `## Usage` heading in a rendered reminder is its text, not a phantom server (no names known)", () => {
  const reminder = renderMcpInstructionsDelta({ addedBlocks: [`## lab\n${LAB}`] }).text;
  const rows = run([userText("a"), userText(reminder, { isMeta: true }), assistant()]);
  // Before: lab (39 chars, END lost), "Usage" (39) and "Limits" (43, with lab's END codeword).
  assert.deepEqual(brief(rows), [["lab", LAB.length, "HERON-4821", "OSPREY-3094"]]);
  assert.deepEqual(rows[0]!.innerHeadings, ["Usage", "Limits"]);
  assert.deepEqual(rows[0]!.serversInCarrier, ["lab"]);
});

test("with two known servers, `## ` lines split only at their names; names learned after the section count too", () => {
  const docs = "Search first.\n\n## Usage\nCite the section.";
  const reminder = renderMcpInstructionsDelta({ addedBlocks: [`## docs\n${docs}`, `## lab\n${LAB}`] }).text;
  const early = run([
    userText("a"),
    deferred("mcp__docs__search", "mcp__lab__lookup_part"),
    userText(reminder, { isMeta: true }),
    assistant(),
  ]);
  assert.deepEqual(brief(early), [
    ["docs", docs.length, null, null],
    ["lab", LAB.length, "HERON-4821", "OSPREY-3094"],
  ]);
  // The tool call naming lab comes after the reminder: the section is split again at the end.
  const call = [{ type: "tool_use", id: "toolu_1", name: "mcp__lab__lookup_part", input: {} }];
  const late = run([userText("a"), userText(reminder, { isMeta: true }), assistant({ blocks: call })]);
  assert.deepEqual(
    late.map((r) => [r.server, r.chars, r.requestIndex, r.position?.before]),
    [
      ["docs", docs.length, 1, ["prompt"]],
      ["lab", LAB.length, 1, ["prompt"]],
    ],
  );
});

test("system-prompt carrier: tool definitions of the snapshot name the server; names from the logs split a section the transcript cannot", () => {
  const snap = {
    type: "prompt_snapshot",
    systemPrompt: `You are a tool.\n\n${MCP_INSTRUCTIONS_HEADING}## lab\n${LAB}`,
    tools: [{ name: "mcp__lab__lookup_part", description: "Look up a part." }],
  };
  assert.deepEqual(brief(run([userText("a"), snap, assistant()])), [["lab", LAB.length, "HERON-4821", "OSPREY-3094"]]);

  const two = {
    type: "prompt_snapshot",
    systemPrompt: `You are a tool.\n\n${MCP_INSTRUCTIONS_HEADING}## docs\nSearch first.\n\n## lab\n${LAB}`,
    tools: [],
  };
  const res = scan([userText("a"), two, assistant()]);
  const alone = joinRows(res.instructions, res.requests, { probe: compileProbe(), debug: null, init: null });
  assert.deepEqual(
    alone.map((r) => r.server),
    ["docs"],
    "no name known: the later heading stays in the first server's text",
  );
  const split = resplitSections(res.instructions, ["lab", "docs"]);
  const rows = joinRows(split, res.requests, { probe: compileProbe(), debug: null, init: null });
  assert.deepEqual(brief(rows), [
    ["docs", "Search first.".length, null, null],
    ["lab", LAB.length, "HERON-4821", "OSPREY-3094"],
  ]);
  assert.deepEqual(rows[1]!.innerHeadings, ["Usage", "Limits"]);
  assert.equal(resplitSections(split, ["lab"]), split, "no new name: the scan is returned as it is");
});

test("a system prompt given as text blocks: the section is measured in its own block, no separator added", () => {
  const section = `${MCP_INSTRUCTIONS_HEADING}## lab\nBEGIN codeword: HERON-4821. END codeword: OSPREY-3094.`;
  const snap = {
    type: "prompt_snapshot",
    systemPrompt: [
      { type: "text", text: "You are a tool." },
      { type: "text", text: section },
      { type: "text", text: "# Environment\ncwd" },
    ],
    tools: [],
  };
  const rows = run([userText("a"), snap, assistant()]);
  assert.deepEqual(
    rows.map((r) => [r.server, r.carrier, r.chars, r.renderedChars]),
    [["lab", "system-prompt", "BEGIN codeword: HERON-4821. END codeword: OSPREY-3094.".length, section.length]],
  );
});
