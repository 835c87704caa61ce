import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderMcpInstructionsDelta } from "../../src/records/attachments.js";
import { assistant, jsonl, userText } from "../builders.js";
import { parseEnvelope, runCli } from "../helpers.js";

const dir = mkdtempSync(join(tmpdir(), "ccf-inner-headings-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

test("the inner-heading warning names the first 10 headings, each cut, and counts the rest (JSON keeps all)", async () => {
  // A server text of 2,000 own `## ` headings, one of them 190 chars long, in a rendered reminder: no server
  // of those names is known, so each stays inside lab's text. Before, the warning listed every one.
  const long = "L".repeat(190);
  const headings = Array.from({ length: 2000 }, (_, i) => (i === 3 ? long : `Part ${i}`));
  const text = `Parts desk.\n\n${headings.map((h) => `## ${h}\nSee above.`).join("\n\n")}`;
  const reminder = renderMcpInstructionsDelta({ addedBlocks: [`## lab\n${text}`] }).text;
  const file = join(dir, "5a5e0000-0000-4000-8000-000000000005.jsonl");
  writeFileSync(file, jsonl(userText("a"), userText(reminder, { isMeta: true }), assistant()));
  const r = await runCli(["instructions", file, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(parseEnvelope(r, "instructions").instructions[0].innerHeadings.length, 2000);
  const lines = r.stderr.split("\n").filter((l) => l.includes("inside its text"));
  assert.equal(lines.length, 1, r.stderr);
  const w = lines[0]!;
  assert.match(w, /: lab: kept "## Part 0", "## Part 1", "## Part 2", "## L{120}…", "## Part 4", /);
  assert.match(w, /"## Part 9" … and 1,990 more \(see innerHeadings in --json\) inside its text: no server of that name is known/);
  assert.doesNotMatch(w, /Part 10"/);
  assert.ok(w.length < 2000, `warning is ${w.length} chars`);
});
