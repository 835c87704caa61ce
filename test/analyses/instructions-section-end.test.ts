import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findRenderedSection, TRUNCATION_MARKER } from "../../src/records/mcp-instructions.js";
import { MCP_INSTRUCTIONS_HEADING } from "../../src/records/attachments.js";
import { parseEnvelope, runCli, sample } from "../helpers.js";

// In a system prompt the MCP section has no close: it used to end at the next "\n\n# " line, so a last
// server whose own text has a top-level heading ("# Notes") lost everything from that heading on.

const LAB = "BEGIN codeword: HERON-4821. Parts desk.\n\n# Notes\nNo bulk lookups. END codeword: OSPREY-3094.";
const PROMPT_HEAD = "You are a coding agent.\n\n# Environment\nWorking directory: /tmp/lab\nPlatform: darwin\n\n";
const prompt = (servers: Array<[string, string]>, after = "") =>
  PROMPT_HEAD + MCP_INSTRUCTIONS_HEADING + servers.map(([n, t]) => `## ${n}\n${t}`).join("\n\n") + after;

test("system prompt, no sent text: a last server's own `# Notes` stays in its text, read to the block's end, flagged", () => {
  const sec = findRenderedSection(prompt([["lab", LAB]]))!;
  assert.deepEqual(
    sec.blocks.map((b) => [b.server, b.text]),
    [["lab", LAB]],
  );
  assert.equal(sec.end, "text-end");
  assert.equal(sec.uncertainHeading, "# Notes");
  // Two servers: the earlier one's heading neither ends the section nor drops the later server.
  const two = findRenderedSection(
    prompt([
      ["docs", "Search first.\n\n# Scope\nPublic docs only."],
      ["lab", "x"],
    ]),
    new Set(["docs", "lab"]),
  )!;
  assert.deepEqual(
    two.blocks.map((b) => [b.server, b.text]),
    [
      ["docs", "Search first.\n\n# Scope\nPublic docs only."],
      ["lab", "x"],
    ],
  );
  assert.equal(two.uncertainHeading, null);
});

test("system prompt: the section ends at the next section Claude Code puts after it, the server's `# Notes` kept", () => {
  const scratch = "\n\n# Scratchpad Directory\n\nIMPORTANT: Always use this scratchpad directory for temporary files.";
  const sec = findRenderedSection(prompt([["lab", LAB]], scratch))!;
  assert.deepEqual(
    sec.blocks.map((b) => [b.server, b.text]),
    [["lab", LAB]],
  );
  assert.equal(sec.end, "next-section");
  assert.equal(sec.uncertainHeading, null);
  assert.ok(sec.section.endsWith("OSPREY-3094."));
  // The paragraph 2.1.88 puts there (no heading) ends it too.
  const para = "\n\nWhen working with tool results, write down any important information you might need later in your response.";
  assert.equal(findRenderedSection(prompt([["lab", "hello"]], para))!.blocks[0]!.text, "hello");
  const git = "\n\ngitStatus: This is the git status at the start of the conversation. Note that this status is a snapshot in time.";
  assert.deepEqual(
    [findRenderedSection(prompt([["lab", LAB]], git))!.blocks[0]!.text, findRenderedSection(prompt([["lab", LAB]], git))!.end],
    [LAB, "next-section"],
  );
});

test("system prompt with the sent text: the section ends where the server's text does, whole or cut at the marker", () => {
  const appended = "\n\n# Team conventions\nUse tabs.";
  const without = findRenderedSection(prompt([["lab", LAB]], appended))!;
  assert.equal(without.blocks[0]!.text, LAB + appended, "without the sent text the end is unknown: read on, flagged");
  assert.equal(without.uncertainHeading, "# Notes");
  const sent = (name: string) => (name === "lab" ? [LAB] : []);
  const sec = findRenderedSection(prompt([["lab", LAB]], appended), new Set(), sent)!;
  assert.deepEqual([sec.blocks[0]!.text, sec.end, sec.uncertainHeading], [LAB, "sent-text", null]);
  // A 5,000-char text with `# Notes` inside the kept 2,048: the first 2,048 chars and the marker.
  const long = `BEGIN codeword: HERON-4821. ${"x".repeat(1000)}\n\n# Notes\n${"y".repeat(4000)}`;
  const kept = long.slice(0, 2048) + TRUNCATION_MARKER;
  const cut = findRenderedSection(prompt([["lab", kept]], appended), new Set(), () => [long])!;
  assert.deepEqual([cut.blocks[0]!.text, cut.end], [kept, "sent-text"]);
  // A sent text that is not what was delivered does not move the end.
  const other = findRenderedSection(prompt([["lab", LAB]], appended), new Set(), () => ["something else"])!;
  assert.deepEqual([other.blocks[0]!.text, other.end], [LAB + appended, "text-end"]);
});

// The same through `instructions`, on the system-prompt sample's shapes: a prompt snapshot whose section
// is the prompt's last, and an MCP message log with the server's initialize result.
const dir = mkdtempSync(join(tmpdir(), "ccf-section-end-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const SRC = sample("instructions", "system-prompt", "projects", "-Users-lab-runs-empty", "5a5e0000-0000-4000-8000-000000000005.jsonl");
const SENT =
  "BEGIN codeword: PENGUIN-3300. The lab server tracks spare parts.\n\n# Notes\nQuote part numbers exactly. END codeword: OSTRICH-3301.";

function tree(after: string): string {
  const home = join(dir, `h${Math.random().toString(36).slice(2)}`);
  const proj = join(home, "projects", "-Users-lab-runs-empty");
  mkdirSync(proj, { recursive: true });
  const lines = readFileSync(SRC, "utf8").trimEnd().split("\n");
  const out = lines.map((l) => {
    const o = JSON.parse(l);
    if (o.type !== "prompt_snapshot") return l;
    const sp: string = o.systemPrompt;
    o.systemPrompt = `${sp.slice(0, sp.indexOf("## lab\n"))}## lab\n${SENT}${after}`;
    return JSON.stringify(o);
  });
  writeFileSync(join(proj, "5a5e0000-0000-4000-8000-000000000005.jsonl"), out.join("\n") + "\n");
  return home;
}

function rpcLog(): string {
  const file = join(dir, "rpc-log.jsonl");
  const msgs = [
    {
      t: "2026-09-30T09:44:59.161Z",
      dir: "in",
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.285" } },
    },
    {
      t: "2026-09-30T09:44:59.162Z",
      dir: "out",
      jsonrpc: "2.0",
      id: 0,
      result: {
        protocolVersion: "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "lab", version: "0.0.1" },
        instructions: SENT,
      },
    },
    { t: "2026-09-30T09:44:59.163Z", dir: "in", jsonrpc: "2.0", method: "notifications/initialized" },
  ];
  writeFileSync(file, msgs.map((m) => JSON.stringify(m)).join("\n") + "\n");
  return file;
}

test("instructions: the last server's `# Notes` in a system prompt, with and without the message log", async () => {
  const home = tree("");
  const r = await runCli(["instructions", "5a5e0000", "--claude-dir", home, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const lab = parseEnvelope(r, "instructions").instructions[0];
  assert.deepEqual(
    [lab.server, lab.carrier, lab.chars, lab.probe?.end, lab.sectionEnd, lab.endUncertain, lab.uncertainHeading],
    ["lab", "system-prompt", SENT.length, "OSTRICH-3301", "text-end", true, "# Notes"],
  );
  assert.match(
    r.stderr,
    /lab: its text was read to the end of the system prompt block, past a heading no Claude Code section has \("# Notes"\)/,
  );

  // Something appended after the section (--append-system-prompt): the message log says where lab's text ends.
  const appended = tree("\n\n# Team conventions\nUse tabs.");
  const log = rpcLog();
  const w = await runCli(["instructions", "5a5e0000", "--claude-dir", appended, "--rpc-log", log, "--json"]);
  assert.equal(w.code, 0, w.stderr);
  const l2 = parseEnvelope(w, "instructions").instructions[0];
  assert.deepEqual(
    [l2.chars, l2.probe?.end, l2.sectionEnd, l2.endUncertain, l2.verbatimPrefix],
    [SENT.length, "OSTRICH-3301", "sent-text", false, true],
  );
  assert.doesNotMatch(w.stderr, /read to the end of the system prompt block/);
});

test("instructions: the system-prompt sample (section last, no heading in the text) is read whole and not flagged", async () => {
  const r = await runCli(["instructions", "5a5e0000", "--claude-dir", sample("instructions", "system-prompt"), "--json"]);
  const lab = parseEnvelope(r, "instructions").instructions[0];
  assert.deepEqual(
    [lab.probe?.begin, lab.probe?.end, lab.sectionEnd, lab.endUncertain],
    ["PENGUIN-3300", "OSTRICH-3301", "text-end", false],
  );
});

test("system prompt: a sent text the delivered one merely starts with (a line break, then more) does not end it", () => {
  const delivered = "hello\nand a second line the log's text lacks";
  const sec = findRenderedSection(prompt([["lab", delivered]]), new Set(), () => ["hello"])!;
  assert.deepEqual([sec.blocks[0]!.text, sec.end], [delivered, "text-end"]);
});
