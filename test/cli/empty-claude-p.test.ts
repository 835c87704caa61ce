import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers.js";

// A `claude -p` output with no message: an empty file printed nothing, a `[]` (json output, no element) printed an array.
const dir = mkdtempSync(join(tmpdir(), "ccf-empty-claude-p-"));
const none = join(dir, "no-config");
mkdirSync(none);
const put = (name: string, body: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
};
const EMPTY = "the output is empty (claude -p printed nothing)";
const ARRAY = "the output is an empty JSON array (claude -p printed no message)";

test("an empty JSON array is said to be one, not an output that printed nothing (report, requests, instructions, debug)", async () => {
  const debug = put("debug.txt", "2026-09-30T05:02:11.208Z [DEBUG] started\n");
  const cases: Array<[string, string]> = [
    [put("array.json", "[]"), ARRAY],
    [put("array-lines.json", "\n[\n]\n"), ARRAY],
    [put("bom-array.json", Buffer.from("\uFEFF[ ]\n")), ARRAY],
    [put("empty.json", ""), EMPTY],
    [put("blank.json", "\n  \n"), EMPTY],
    [put("bom.json", Buffer.from("\uFEFF")), EMPTY],
  ];
  for (const [file, said] of cases) {
    for (const command of ["report", "requests", "instructions"]) {
      const r = await runCli([command, "--stream-json", file, "--claude-dir", none]);
      assert.equal(r.code, 0, `${command} ${file}: ${r.stderr}`);
      assert.ok(r.stderr.includes(`${file}: ${said}`), `${command} ${file}: ${r.stderr}`);
    }
    const d = await runCli(["debug", debug, "--stream-json", file]);
    assert.ok(d.stderr.includes(`${file}: ${said}`), `debug ${file}: ${d.stderr}`);
  }
  const piped = await runCli(["requests", "--stream-json", "-", "--claude-dir", none], { stdin: "[]" });
  assert.ok(piped.stderr.includes(`-: ${ARRAY}`), piped.stderr);
});
