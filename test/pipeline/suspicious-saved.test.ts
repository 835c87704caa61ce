import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cappedWarnings } from "../../src/pipeline/gather.js";
import { parseEnvelope, runCli } from "../helpers.js";

const SID = "5e1c0a52-0e0b-4000-8000-00000000a002";

test("saved outputs passed over: one warning with the count and three names with why; verbose names all", () => {
  const items = [1, 2, 3, 4, 5].map((i) => ({ path: `../x${i}`, why: "climbs" }));
  assert.deepStrictEqual(cappedWarnings("one", "many", [], false), []);
  assert.deepStrictEqual(cappedWarnings("one", "many", items.slice(0, 1), false), ["one: ../x1 (climbs)"]);
  assert.deepStrictEqual(cappedWarnings("one", "many", items.slice(0, 3), false), [
    "3 many: ../x1 (climbs), ../x2 (climbs), ../x3 (climbs)",
  ]);
  assert.deepStrictEqual(cappedWarnings("one", "many", items, false), [
    "5 many: ../x1 (climbs), ../x2 (climbs), ../x3 (climbs) … and 2 more (--verbose lists them)",
  ]);
  assert.deepStrictEqual(cappedWarnings("one", "many", items, true), ["5 many:", ...items.map((x) => `  ${x.path} (climbs)`)]);
  const [w] = cappedWarnings("one", "many", [{ path: `x${" ".repeat(200_000)}y`, why: "climbs" }], false);
  assert.ok(w!.length < 600, "a hostile printed path is abridged");
});

/** A session whose `n` results print saved paths that climb out of tool-results/. */
function session(n: number): { dir: string; transcript: string } {
  const dir = mkdtempSync(join(tmpdir(), "ccf-passed-over-"));
  const project = join(dir, "projects", "-tmp-x");
  mkdirSync(join(project, SID, "tool-results"), { recursive: true });
  const lines: string[] = [];
  for (let i = 1; i <= n; i++) {
    const id = `toolu_${String(i).padStart(6, "0")}`;
    const ts = "2026-11-02T09:00:00.000Z";
    const content = [{ type: "tool_use", id, name: "Bash", input: { command: "x" } }];
    lines.push(
      JSON.stringify({
        type: "assistant",
        sessionId: SID,
        timestamp: ts,
        message: { id: `msg_${i}`, role: "assistant", model: "m", content },
      }),
      JSON.stringify({
        type: "user",
        sessionId: SID,
        timestamp: ts,
        message: {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: id,
              content: `<persisted-output>\nOutput too large (51.7KB). Full output saved to: tool-results/../../${id}.txt\n\nPreview (first 2KB):\nabc\n...\n</persisted-output>`,
            },
          ],
        },
      }),
    );
  }
  const transcript = join(project, `${SID}.jsonl`);
  writeFileSync(transcript, `${lines.join("\n")}\n`);
  return { dir, transcript };
}

test("outputs on a session printing 2,000 suspicious saved names: one stderr line, every one with --verbose, all in the rows", async () => {
  const { dir, transcript } = session(2000);
  try {
    const r = await runCli(["outputs", transcript, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const warned = r.stderr.split("\n").filter((l) => l.includes("saved output"));
    assert.equal(warned.length, 1, r.stderr.slice(0, 2000));
    assert.match(
      warned[0]!,
      /2000 saved outputs not looked up, suspicious: .*toolu_000001\.txt \(.*\), .* … and 1997 more \(--verbose lists them\)$/,
    );
    const rows = parseEnvelope(r, "outputs").toolResults as Array<{ savedSuspicious: string | null }>;
    assert.equal(rows.length, 2000);
    assert.ok(rows.every((x) => typeof x.savedSuspicious === "string"));
    const v = await runCli(["outputs", transcript, "--json", "--verbose"]);
    assert.equal(v.code, 0, v.stderr);
    assert.equal(v.stderr.split("\n").filter((l) => /toolu_\d{6}\.txt \(/.test(l)).length, 2000);
    assert.equal(v.stdout, r.stdout, "--verbose changes stderr only");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
