import { test } from "node:test";
import { TRANSCRIPTS } from "./corpus.js";
import { asTarget, fileEqualsStdin, humanFormats, jsonHealth, saneTotals, strictExit, type Command } from "./props.js";

const COMMANDS: Command[] = ["requests", "outputs", "instructions", "inventory", "report"];
const targets = COMMANDS.map((c) => asTarget(c));

for (const t of targets) {
  test(`fuzz ${t.command}: mutated transcripts give valid JSON, no crash, every bad line by number`, () => jsonHealth(`${t.command}-json`, t, TRANSCRIPTS));
  test(`fuzz ${t.command}: table, markdown and csv stay inert on hostile text`, () => humanFormats(`${t.command}-human`, t, TRANSCRIPTS, true));
}

for (const t of targets.filter((x) => x.command === "requests" || x.command === "report")) {
  test(`fuzz ${t.command}: totals are finite non-negative integers whatever usage holds`, () => saneTotals(`${t.command}-totals`, t, TRANSCRIPTS));
}

test("fuzz transcripts: a file and stdin give the same document", () => fileEqualsStdin("transcripts-stdin", targets, TRANSCRIPTS));
test("fuzz transcripts: --strict exits 1 exactly when a line is malformed", () => strictExit("transcripts-strict", targets, TRANSCRIPTS));
