import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { mayHoldSection } from "../../src/analyses/instructions.js";
import { MCP_INSTRUCTIONS_HEADING, MCP_INSTRUCTIONS_REMOVED } from "../../src/records/attachments.js";
import { findRenderedSection } from "../../src/records/mcp-instructions.js";
import { filesUnder, ROOT } from "../helpers.js";

// The instructions scan skips a decoded user text or tool result without "MCP " before searching it for a
// rendered section (instructions.ts mayHoldSection). The guard may let through texts with no section, but
// must never turn one away that findRenderedSection reads a section from.

const KNOWN = new Set(["lab", "alpha", "my server"]);

/** Every text the guard rejected reads no section; returns how many texts held one and how many were turned away. */
function check(texts: Iterable<string>, where: string): { found: number; rejected: number } {
  let found = 0;
  let rejected = 0;
  for (const t of texts) {
    const sec = findRenderedSection(t, KNOWN);
    if (sec !== undefined) found++;
    if (!mayHoldSection(t)) {
      rejected++;
      assert.equal(sec, undefined, `${where}: the guard turned away a text holding a section: ${JSON.stringify(t.slice(0, 200))}`);
    }
  }
  return { found, rejected };
}

function* stringsOf(v: unknown, depth = 0): Generator<string> {
  if (depth > 64) return;
  if (typeof v === "string") yield v;
  else if (Array.isArray(v)) for (const x of v) yield* stringsOf(x, depth + 1);
  else if (v !== null && typeof v === "object") for (const x of Object.values(v)) yield* stringsOf(x, depth + 1);
}

function* lineStrings(text: string): Generator<string> {
  for (const line of text.split(/\r?\n/)) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      yield line;
      continue;
    }
    yield* stringsOf(v);
  }
}

test("every string of every sample: no text the guard turns away holds a section", () => {
  let found = 0;
  for (const f of filesUnder(join(ROOT, "samples"))) {
    if (!/\.(jsonl|json|txt)$/.test(f)) continue;
    found += check(lineStrings(readFileSync(f, "utf8")), f).found;
  }
  assert.ok(found > 0, "no sample string held a section: the guard went untested");
});

test("generated data (the bench generator, 3 MB): no text the guard turns away holds a section", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-instg-"));
  try {
    const out = join(dir, "t.jsonl");
    execFileSync(process.execPath, [join(ROOT, "bench", "shared", "gen.mjs"), "--out", out, "--size", "3MB", "--seed", "5"]);
    const r = check(lineStrings(readFileSync(out, "utf8")), "gen");
    assert.ok(r.rejected > 1000, "few texts turned away: the guard went untested");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const SECTION = `<system-reminder>\n${MCP_INSTRUCTIONS_HEADING}## lab\nUse the lab.\n</system-reminder>`;
const REMOVED = `<system-reminder>\n${MCP_INSTRUCTIONS_REMOVED}\nlab\n</system-reminder>`;

test("hostile texts: near-misses of both openings, lone surrogates, BOM, CRLF, long texts", () => {
  const cases = [
    SECTION,
    REMOVED,
    `${"x".repeat(100_000)}${SECTION}`,
    `\ufeff${SECTION}`,
    SECTION.replace(/\n/g, "\r\n"),
    SECTION.replace(/MCP /g, "MCP\u00a0"),
    SECTION.replace(/MCP /g, "MCP\t"),
    SECTION.replace(/MCP /g, "MCP"),
    SECTION.replace(/MCP /g, "mcp "),
    REMOVED.replace(/MCP /g, "MCP\u2009"),
    `\ud83d${SECTION}\ude00`,
    `${SECTION.slice(0, 30)}\ud800${SECTION.slice(30)}`,
    MCP_INSTRUCTIONS_HEADING.trimEnd(),
    MCP_INSTRUCTIONS_REMOVED,
    "MCP ",
    "",
    "\u0000MCP \u0000",
  ];
  const r = check(cases, "hostile");
  assert.ok(r.found >= 6 && r.rejected >= 5, `found ${r.found}, rejected ${r.rejected}`);
});

test("property: texts built from pieces of both openings never read a section past the guard", () => {
  const piece = fc.oneof(
    fc.constantFrom(
      "MCP ",
      "MCP",
      " ",
      "\n",
      "\r\n",
      "<system-reminder>",
      "</system-reminder>",
      MCP_INSTRUCTIONS_HEADING,
      MCP_INSTRUCTIONS_HEADING.trimEnd(),
      MCP_INSTRUCTIONS_REMOVED,
      "# MCP",
      " Server Instructions",
      "## lab\nUse it.\n",
      "\ud83d",
      "\ufeff",
    ),
    fc.string({ maxLength: 8 }),
    // A heading with one character changed: what a near-miss looks like.
    fc
      .tuple(fc.constantFrom(MCP_INSTRUCTIONS_HEADING, MCP_INSTRUCTIONS_REMOVED), fc.nat(), fc.string({ minLength: 1, maxLength: 1 }))
      .map(([h, at, c]) => h.slice(0, at % h.length) + c + h.slice((at % h.length) + 1)),
  );
  let found = 0;
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
      const t = parts.join("");
      found += check([t], "property").found;
    }),
    { numRuns: 5000, seed: 14 },
  );
  assert.ok(found > 100, `only ${found} generated texts held a section`);
});
