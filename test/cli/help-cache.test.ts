import { test } from "node:test";
import assert from "node:assert/strict";
import { commandSpecs } from "../../src/commands/catalog.js";
import { cachedHelp, HELP_WIDTHS, helpLines } from "../../src/commands/help-cache.js";
import { parseWords } from "../../src/commands/parser.js";
import { runCli, runCliSpawned } from "../helpers.js";

const commands = await commandSpecs();
const names = commands.map((c) => c.command.split(" ")[0]!);

test("help rendered at build time is what yargs prints, for every --help/-h line at every width served", async () => {
  for (const width of HELP_WIDTHS)
    for (const words of helpLines(names)) {
      const cached = cachedHelp(words, width);
      assert.ok(cached, `no cached help for ${width} ${words.join(" ")}`);
      // Every line at the width of a pipe; the top help and a command's at the terminal widths (yargs renders slowly).
      if (width !== 100 && !["--help", "requests --help"].includes(words.join(" "))) continue;
      assert.equal(cached, (await parseWords({ columns: width }, words, commands)).shown, `${width} ${words.join(" ")}`);
    }
});

test("other widths and other command lines are left to yargs", async () => {
  assert.equal(cachedHelp(["--help"], 90), undefined);
  assert.equal(cachedHelp(["requests", "x", "--help"], 100), undefined);
  assert.equal(cachedHelp(["requests"], 100), undefined);
  assert.equal(cachedHelp(["frobnicate", "--help"], 100), undefined);
  // A 90-column terminal gets yargs' own rendering at that width.
  const narrow = await runCli(["requests", "--help"], { tty: { stdout: true, columns: 90 } });
  assert.equal(narrow.code, 0);
  assert.equal(narrow.stdout, `${(await parseWords({ columns: 90 }, ["requests", "--help"], commands)).shown}\n`);
  assert.ok(narrow.stdout.split("\n").every((l) => l.length <= 90));
});

test("the process answers --help and -h alone before loading main(), with what main() prints", async () => {
  for (const flag of ["--help", "-h"]) {
    const inProcess = await runCli([flag]);
    const spawned = await runCliSpawned([flag]);
    assert.equal(spawned.code, 0);
    assert.equal(spawned.stderr, "");
    assert.ok(spawned.stdout.includes("requests"), "the top-level help lists the commands");
    assert.equal(spawned.stdout, inProcess.stdout);
    assert.equal(spawned.stdout, `${cachedHelp([flag], 100)}\n`);
  }
});
