import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "../helpers.js";
import { DEMO_SESSION } from "./corpus.js";
import { runOnce } from "./run.js";
import { assertExit, assertHumanOutput, assertSaneNumbers, parseJson } from "./checks.js";

/**
 * Minimal inputs for failures the fuzz suite found, replayed with the same checks. A `todo` names
 * the issue-9 fix that turns the case green; drop it when that fix is merged.
 */
interface Regression {
  file: string;
  command: string;
  /** How the file is given, when not as the target (a side input beside a clean session). */
  args?: (path: string) => string[];
  format: "json" | "table" | "markdown" | "csv";
  todo?: string;
  /** Text the JSON health section must contain (a value the tool refused must be named there). */
  health?: string[];
}

function besideDemo(flag: string): (path: string) => string[] {
  return (path) => ["report", join(ROOT, DEMO_SESSION), flag, path];
}

const CASES: Regression[] = [
  { file: "md-image-note.jsonl", command: "requests", format: "markdown" },
  { file: "md-backtick-html.jsonl", command: "requests", format: "markdown" },
  { file: "md-autolink.jsonl", command: "requests", format: "markdown" },
  { file: "csv-formula.jsonl", command: "inventory", format: "csv" },
  { file: "invisible-chars.jsonl", command: "requests", format: "table" },
  { file: "invisible-chars.jsonl", command: "inventory", format: "markdown" },
  { file: "usage-huge.jsonl", command: "requests", format: "json" },
  { file: "usage-huge.jsonl", command: "report", format: "json" },
  { file: "usage-negative.jsonl", command: "requests", format: "json", health: ["input_tokens", "cache_read_input_tokens"] },
  { file: "rpc-huge-time.jsonl", command: "rpc", format: "json" },
  { file: "rpc-huge-time.jsonl", command: "rpc", format: "table" },
  { file: "rpc-deep-nesting.jsonl", command: "rpc", format: "json" },
  { file: "rpc-deep-nesting.jsonl", command: "report", format: "json", args: besideDemo("--rpc-log") },
  { file: "rpc-huge-time.jsonl", command: "report", format: "markdown", args: besideDemo("--rpc-log") },
];

for (const c of CASES) {
  const name = `fuzz regression ${c.file}: ${c.command}${c.args ? " (side input)" : ""} --format ${c.format}`;
  test(name, c.todo ? { todo: c.todo } : {}, async () => {
    const path = join(ROOT, "test", "fuzz", "regressions", c.file);
    const r = await runOnce([...(c.args ? c.args(path) : [c.command, path]), "--format", c.format]);
    assertExit(r, 0, name);
    if (c.format === "json") {
      const j = parseJson(r, c.command, name);
      assertSaneNumbers(j, name);
      for (const h of c.health ?? []) assert.ok(JSON.stringify(j.health).includes(h), `${name}: health does not name ${h}`);
    } else assertHumanOutput(c.format, r.stdout, name, true);
  });
}
