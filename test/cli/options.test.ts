import { test } from "node:test";
import assert from "node:assert/strict";
import { runCli, sample } from "../helpers.js";

const SESSION = ["c0ffee00", "--claude-dir", sample("claude-home")];

test("the probe and wrapper-token flags mean the same in instructions and report: one definition", async () => {
  for (const command of ["instructions", "report"]) {
    const abc = await runCli([command, ...SESSION, "--baseline", "c0ffee00", "--wrapper-tokens", "abc"]);
    assert.equal(abc.code, 2, `${command}: ${abc.stderr}`);
    assert.match(abc.stderr, /--wrapper-tokens needs a number/);
    const alone = await runCli([command, ...SESSION, "--wrapper-tokens", "51"]);
    assert.equal(alone.code, 2, command);
    assert.match(alone.stderr, /--wrapper-tokens needs --baseline/);
    const regex = await runCli([command, ...SESSION, "--probe-begin", "("]);
    assert.equal(regex.code, 2, command);
  }
});
