import { test } from "node:test";
import assert from "node:assert/strict";
import { renderMcpInstructionsDelta } from "../../src/records/attachments.js";
import { findRenderedSection, measureText, parseBlock, TRUNCATION_MARKER } from "../../src/records/mcp-instructions.js";

test("the truncation marker is the 13 chars of FORMATS.md 2.2", () => {
  assert.equal(TRUNCATION_MARKER.length, 13);
  assert.equal(TRUNCATION_MARKER.codePointAt(0), 0x2026);
});

test("blocks: the addedNames entry wins over the heading; a block without heading keeps the name", () => {
  assert.deepEqual(parseBlock("## lab\nBEGIN codeword: X-1.", "lab"), {
    server: "lab",
    text: "BEGIN codeword: X-1.",
    block: "## lab\nBEGIN codeword: X-1.",
    headed: true,
  });
  assert.equal(parseBlock("## claude.ai Shop Docs\nuse it", "claude.ai Shop Docs").text, "use it");
  assert.equal(parseBlock("## lab\nx").server, "lab");
  const bare = parseBlock("no heading here", "lab");
  assert.equal(bare.server, "lab");
  assert.equal(bare.headed, false);
  assert.equal(bare.text, "no heading here");
});

test("sizes: Japanese with astral characters differs in chars, code points and bytes; a cut pair is flagged", () => {
  // 部 (3 bytes) ×2048 units would be trivial; use 𠮷 (2 units, 4 bytes) so the 2,048-unit cut lands inside a pair.
  const kept = "あ".repeat(2047) + "𠮷".slice(0, 1);
  const t = kept + TRUNCATION_MARKER;
  const m = measureText(t);
  assert.equal(m.chars, 2061);
  assert.equal(m.truncated, true);
  assert.equal(m.keptChars, 2048);
  assert.equal(m.splitSurrogate, true);
  assert.equal(m.keptCodePoints, 2048, "a lone surrogate counts as one code point");
  assert.equal(m.keptUtf8Bytes, 2047 * 3 + 3, "a lone surrogate is written as U+FFFD (3 bytes)");
  const whole = measureText("𠮷野家の𩸽");
  assert.deepEqual([whole.chars, whole.codePoints, whole.utf8Bytes, whole.truncated, whole.keptChars], [7, 5, 17, false, null]);
});

test("a text that merely contains the marker is not truncated", () => {
  assert.equal(measureText(`see ${TRUNCATION_MARKER} above.`).truncated, false);
});

test("rendered section: two servers, display names with spaces, the reminder is what the model saw", () => {
  const r = renderMcpInstructionsDelta({
    addedBlocks: ["## claude.ai Docs\nsearch first", "## lab\nBEGIN codeword: A-1."],
    removedNames: [],
  }).text;
  const sec = findRenderedSection(`prefix text\n${r}\ntrailing`, new Set(["lab"]))!;
  assert.deepEqual(
    sec.blocks.map((b) => [b.server, b.text]),
    [
      ["claude.ai Docs", "search first"],
      ["lab", "BEGIN codeword: A-1."],
    ],
    "the first block needs no known name; a later one does",
  );
  assert.equal(sec.reminder, r);
  assert.deepEqual(sec.removed, []);
});

test("rendered section: removals after the blocks, and a removal-only reminder", () => {
  const both = renderMcpInstructionsDelta({ addedBlocks: ["## lab\nnew text"], removedNames: ["old", "gone"] }).text;
  const s1 = findRenderedSection(both)!;
  assert.deepEqual(
    s1.blocks.map((b) => b.text),
    ["new text"],
  );
  assert.deepEqual(s1.removed, ["old", "gone"]);
  const only = renderMcpInstructionsDelta({ addedBlocks: [], removedNames: ["lab"] }).text;
  const s2 = findRenderedSection(only)!;
  assert.deepEqual(s2.blocks, []);
  assert.deepEqual(s2.removed, ["lab"]);
  assert.equal(s2.reminder, only);
});

test("known names keep a server's own `## ` headings inside its text", () => {
  const r = renderMcpInstructionsDelta({ addedBlocks: ["## docs\nIntro\n\n## Usage\nCall search.", "## lab\nx"], removedNames: [] }).text;
  assert.deepEqual(
    findRenderedSection(r)!.blocks.map((b) => [b.server, b.text]),
    [["docs", "Intro\n\n## Usage\nCall search.\n\n## lab\nx"]],
    "without names no later heading splits: a phantom `Usage` server would cut docs short",
  );
  const sec = findRenderedSection(r, new Set(["docs", "lab"]))!;
  assert.deepEqual(
    sec.blocks.map((b) => [b.server, b.text]),
    [
      ["docs", "Intro\n\n## Usage\nCall search."],
      ["lab", "x"],
    ],
  );
});

test("system prompt: the section ends at the next top-level heading and has no wrapper", () => {
  const sp =
    "You are a tool.\n\n# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n## lab\nhello\n\n# Environment\ncwd";
  const sec = findRenderedSection(sp)!;
  assert.equal(sec.reminder, null);
  assert.deepEqual(
    sec.blocks.map((b) => [b.server, b.text]),
    [["lab", "hello"]],
  );
  assert.ok(sec.section.endsWith("hello"));
  assert.equal(findRenderedSection("nothing about servers"), undefined);
});

const SHOP_AND_LAB_HEAD =
  "<system-reminder>\n# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n";

test("rendered section: a server's own `## <other server>` line opens no block where that server's sent text does not follow", () => {
  const lab = "BEGIN codeword: AAAAAA-1111. Lab text. END codeword: BBBBBB-2222.";
  const shop = "Shop text.\n\n## lab\nthis is shop's own section about lab";
  const text = `${SHOP_AND_LAB_HEAD}## claude.ai Shop Docs\n${shop}\n\n## lab\n${lab}\n</system-reminder>`;
  const known = new Set(["claude.ai Shop Docs", "lab"]);
  const sent = (s: string) => (s === "lab" ? [lab] : []);
  assert.deepEqual(
    findRenderedSection(text, known, sent)!.blocks.map((b) => [b.server, b.text]),
    [
      ["claude.ai Shop Docs", shop],
      ["lab", lab],
    ],
  );
  // A cut text (its first chars and the marker) places the block too.
  const cut = `${lab.slice(0, 20)}${TRUNCATION_MARKER}`;
  const cutText = `${SHOP_AND_LAB_HEAD}## claude.ai Shop Docs\n${shop}\n\n## lab\n${cut}\n</system-reminder>`;
  assert.deepEqual(
    findRenderedSection(cutText, known, sent)!.blocks.map((b) => [b.server, b.text.length]),
    [
      ["claude.ai Shop Docs", shop.length],
      ["lab", 33],
    ],
  );
  // Without the sent text a name still opens one block only: the later line stays in its text.
  assert.deepEqual(
    findRenderedSection(text, known)!.blocks.map((b) => [b.server, b.text]),
    [
      ["claude.ai Shop Docs", "Shop text."],
      ["lab", `this is shop's own section about lab\n\n## lab\n${lab}`],
    ],
  );
});

test("rendered section: a sent text holding `\\n</system-reminder>` ends the reminder after it, not at that line", () => {
  const lab = "BEGIN codeword: AAAAAA-1111. Lab text. END codeword: BBBBBB-2222.\n</system-reminder>\nafter";
  const text = `${SHOP_AND_LAB_HEAD}## claude.ai Shop Docs\nShop text.\n\n## lab\n${lab}\n</system-reminder>`;
  const known = new Set(["claude.ai Shop Docs", "lab"]);
  const sec = findRenderedSection(text, known, (s) => (s === "lab" ? [lab] : []))!;
  assert.deepEqual(
    sec.blocks.map((b) => [b.server, b.text.length]),
    [
      ["claude.ai Shop Docs", 10],
      ["lab", 90],
    ],
  );
  assert.equal(sec.blocks[1]!.text, lab);
  assert.equal(sec.reminder, text);
  assert.equal(sec.end, "reminder");
  // Without it the first close stands.
  const plain = findRenderedSection(text, known)!;
  assert.equal(plain.blocks[1]!.text.length, 65);
  assert.equal(plain.reminder!.length, text.indexOf("\n</system-reminder>") + 19);
});
