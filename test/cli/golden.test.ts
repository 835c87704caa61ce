import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT, golden } from "../helpers.js";

test("a missing golden fails, CI or not; it is never written by the check itself", () => {
  const saved = { update: process.env.UPDATE_GOLDEN, ci: process.env.CI };
  delete process.env.UPDATE_GOLDEN;
  delete process.env.CI;
  try {
    assert.throws(() => golden("no-such/never-written.txt", "anything"), /golden file missing: test\/golden\/no-such\/never-written\.txt/);
    assert.equal(existsSync(join(ROOT, "test", "golden", "no-such")), false);
    assert.throws(() => golden("basic/requests.json", "not the golden"), /output differs from test\/golden\/basic\/requests\.json/);
  } finally {
    if (saved.update !== undefined) process.env.UPDATE_GOLDEN = saved.update;
    if (saved.ci !== undefined) process.env.CI = saved.ci;
  }
});
