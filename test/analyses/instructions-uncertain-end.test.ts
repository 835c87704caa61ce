import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findRenderedSection } from "../../src/records/mcp-instructions.js";
import { MCP_INSTRUCTIONS_HEADING } from "../../src/records/attachments.js";
import { parseEnvelope, runCli, sample } from "../helpers.js";

// Without the server's sent text, a line of its own that looks like a Claude Code section (`# Environment`)
// or like another known server's block (`## docs`) used to cut its text there silently: the size was wrong and
// nothing said so. Such an end is now flagged (endUncertain, with the line and why), and a warning names both.

const ENV_LAB = "BEGIN codeword: HERON-4821. Parts desk.\n\n# Environment\nSet LAB_HOME first. END codeword: OSPREY-3094.";
const WITH_ENV = "You are a coding agent.\n\n# Environment\nWorking directory: /tmp/lab\n\n";
const PLAIN = "You are a coding agent.\n\n";
const SCRATCH = "\n\n# Scratchpad Directory\n\nIMPORTANT: Always use this scratchpad directory for temporary files.";
const prompt = (head: string, servers: Array<[string, string]>, after = "") =>
  head + MCP_INSTRUCTIONS_HEADING + servers.map(([n, t]) => `## ${n}\n${t}`).join("\n\n") + after;
const view = (sec: ReturnType<typeof findRenderedSection>) =>
  sec!.blocks.map((b) => [b.server, b.text, b.uncertain ?? null]).concat([[sec!.end, sec!.uncertainHeading, sec!.uncertainWhy]]);

test("system prompt, no sent text: a server's own `# Environment` line after the prompt's own is read past, flagged", () => {
  // The prompt's `# Environment` stood before the section: the one in lab's text is lab's; Scratchpad ends it.
  assert.deepEqual(view(findRenderedSection(prompt(WITH_ENV, [["lab", ENV_LAB]], SCRATCH))), [
    ["lab", ENV_LAB, null],
    ["next-section", "# Environment", "past-section-heading"],
  ]);
  // Nothing after the section: read to the block's end, flagged the same way.
  assert.deepEqual(view(findRenderedSection(prompt(WITH_ENV, [["lab", ENV_LAB]]))), [
    ["lab", ENV_LAB, null],
    ["text-end", "# Environment", "past-section-heading"],
  ]);
});

test("system prompt, no sent text: ending at a `# Environment` that may be the server's own says the end is uncertain", () => {
  const cut = ENV_LAB.slice(0, ENV_LAB.indexOf("\n\n# Environment"));
  // No `# Environment` before the section (a prompt held block by block): the end may be there, or not.
  assert.deepEqual(view(findRenderedSection(prompt(PLAIN, [["lab", ENV_LAB]]))), [
    ["lab", cut, null],
    ["next-section", "# Environment", "section-heading"],
  ]);
  // A later section that is in no doubt wins: lab's line was its own.
  assert.deepEqual(view(findRenderedSection(prompt(PLAIN, [["lab", ENV_LAB]], SCRATCH))), [
    ["lab", ENV_LAB, null],
    ["next-section", "# Environment", "past-section-heading"],
  ]);
  // A plain prompt whose section is followed by Scratchpad only: certain, as before.
  assert.deepEqual(view(findRenderedSection(prompt(PLAIN, [["lab", "hello"]], SCRATCH))), [
    ["lab", "hello", null],
    ["next-section", null, null],
  ]);
});

test("system prompt with the sent text: the sent text places the end, `# Environment` in it or not", () => {
  const sent = (name: string) => (name === "lab" ? [ENV_LAB] : []);
  const appended = "\n\n# Team conventions\nUse tabs.";
  for (const head of [WITH_ENV, PLAIN])
    for (const after of ["", SCRATCH, appended])
      assert.deepEqual(view(findRenderedSection(prompt(head, [["lab", ENV_LAB]], after), new Set(), sent)), [
        ["lab", ENV_LAB, null],
        ["sent-text", null, null],
      ]);
});

test("a `## <known server>` line inside another server's text, no sent text: both sizes are flagged; the sent text settles it", () => {
  const docs = "Search the docs first.";
  const lab = "Parts desk.\n\n## docs\nThe docs server covers public manuals only.\n\nQuote part numbers.";
  const text = `<system-reminder>\n${MCP_INSTRUCTIONS_HEADING}## lab\n${lab}\n\n## docs\n${docs}\n</system-reminder>`;
  const known = new Set(["lab", "docs"]);
  const sec = findRenderedSection(text, known)!;
  const doubt = { heading: "## docs", why: "server-heading" };
  assert.deepEqual(
    sec.blocks.map((b) => [b.server, b.uncertain ?? null]),
    [
      ["lab", doubt],
      ["docs", doubt],
    ],
  );
  // Once docs's sent text is known, its block opens at the right line: nothing in doubt.
  const settled = findRenderedSection(text, known, (n) => (n === "docs" ? [docs] : []))!;
  assert.deepEqual(
    settled.blocks.map((b) => [b.server, b.text, b.uncertain ?? null]),
    [
      ["lab", lab, null],
      ["docs", docs, null],
    ],
  );
  // One `## docs` line only: nothing says it is in doubt (the usual section).
  const one = `<system-reminder>\n${MCP_INSTRUCTIONS_HEADING}## lab\nParts desk.\n\n## docs\n${docs}\n</system-reminder>`;
  assert.deepEqual(
    findRenderedSection(one, known)!.blocks.map((b) => b.uncertain ?? null),
    [null, null],
  );
});

// The same through `instructions`, on the system-prompt sample (its prompt has `# Environment` before the section).
const dir = mkdtempSync(join(tmpdir(), "ccf-uncertain-end-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const SRC = sample("instructions", "system-prompt", "projects", "-Users-lab-runs-empty", "5a5e0000-0000-4000-8000-000000000005.jsonl");
const SENT =
  "BEGIN codeword: PENGUIN-3300. The lab server tracks spare parts.\n\n# Environment\nSet LAB_HOME first. END codeword: OSTRICH-3301.";

function tree(): string {
  const home = join(dir, `h${Math.random().toString(36).slice(2)}`);
  const proj = join(home, "projects", "-Users-lab-runs-empty");
  mkdirSync(proj, { recursive: true });
  const out = readFileSync(SRC, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => {
      const o = JSON.parse(l);
      if (o.type !== "prompt_snapshot") return l;
      const sp: string = o.systemPrompt;
      o.systemPrompt = `${sp.slice(0, sp.indexOf("## lab\n"))}## lab\n${SENT}`;
      return JSON.stringify(o);
    });
  writeFileSync(join(proj, "5a5e0000-0000-4000-8000-000000000005.jsonl"), out.join("\n") + "\n");
  return home;
}

function rpcLog(): string {
  const file = join(dir, "rpc-log.jsonl");
  const msgs = [
    {
      dir: "in",
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code" } },
    },
    {
      dir: "out",
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "lab", version: "0.0.1" }, instructions: SENT },
    },
  ];
  writeFileSync(file, msgs.map((m) => JSON.stringify(m)).join("\n") + "\n");
  return file;
}

test("instructions: a last server's own `# Environment` line is kept in its size, flagged, and the warning names both", async () => {
  const home = tree();
  const r = await runCli(["instructions", "5a5e0000", "--claude-dir", home, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const lab = parseEnvelope(r, "instructions").instructions[0];
  assert.deepEqual(
    [lab.server, lab.chars, lab.probe?.end, lab.endUncertain, lab.uncertainHeading, lab.uncertainWhy],
    ["lab", SENT.length, "OSTRICH-3301", true, "# Environment", "past-section-heading"],
  );
  assert.match(r.stderr, /lab: its text was read past "# Environment", a heading a Claude Code section has/);
  // The message log's sent text says where lab's text ends: nothing uncertain, no warning.
  const w = await runCli(["instructions", "5a5e0000", "--claude-dir", home, "--rpc-log", rpcLog(), "--json"]);
  assert.equal(w.code, 0, w.stderr);
  const l2 = parseEnvelope(w, "instructions").instructions[0];
  assert.deepEqual([l2.chars, l2.sectionEnd, l2.endUncertain, l2.verbatimPrefix], [SENT.length, "sent-text", false, true]);
  assert.doesNotMatch(w.stderr, /# Environment/);
});
