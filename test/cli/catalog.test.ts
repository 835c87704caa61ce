import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS } from "../../src/commands/index.js";
import { CATALOG_FILE, commandSpecs, loaderNames } from "../../src/commands/catalog.js";
import { ROOT } from "../helpers.js";

// The parser reads command metadata from the built catalog and loads a command's code only to run it
// (src/commands/catalog.ts): the catalog must say exactly what the specs say, for every command.
test("the built catalog is the specs' metadata, in help order, and every command has a loader", async () => {
  const meta = COMMANDS.map(({ run: _run, ...m }) => m);
  for (const dir of ["build-test/src", "dist"]) {
    const built = JSON.parse(readFileSync(join(ROOT, dir, "commands", CATALOG_FILE), "utf8"));
    assert.deepStrictEqual(built, JSON.parse(JSON.stringify(meta)), `${dir}/commands/${CATALOG_FILE}`);
  }
  assert.deepStrictEqual(loaderNames().sort(), COMMANDS.map((c) => c.command.split(" ")[0]).sort());
  const lazy = await commandSpecs();
  assert.deepStrictEqual(
    lazy.map((c) => c.command),
    COMMANDS.map((c) => c.command),
  );
});
