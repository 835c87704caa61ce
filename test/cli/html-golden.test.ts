import { test } from "node:test";
import assert from "node:assert/strict";
import { golden, runCli } from "../helpers.js";
import { HTML_CASES } from "../html-cases.js";

for (const c of HTML_CASES) {
  test(`golden: ${c.args[0]} as html (${c.golden})`, async () => {
    const r = await runCli([...c.args, "--format", "html"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^<!DOCTYPE html>\n/);
    golden(c.golden, r.stdout);
  });
}
