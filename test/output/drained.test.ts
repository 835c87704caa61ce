import { test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { drained } from "../../src/io.js";

test("drained: a thousand waits on one stream leave no listener behind, and an error rejects the wait", async () => {
  let release: (() => void) | undefined;
  const slow = new Writable({
    highWaterMark: 4,
    write(_chunk, _enc, cb) {
      release = cb;
    },
  });
  for (let i = 0; i < 1000; i++) {
    assert.equal(slow.write("12345"), false);
    const wait = drained(slow);
    release!();
    await wait;
  }
  // The lab server's and export's waits raced two `once` promises: each left an "error" listener (1,000 here).
  assert.equal(slow.listenerCount("error"), 0);
  assert.equal(slow.listenerCount("drain"), 0);
  const failing = new Writable({ highWaterMark: 1, write: (_c, _e, cb) => cb(new Error("disk full")) });
  failing.on("error", () => undefined);
  failing.write("xy");
  await assert.rejects(drained(failing), /disk full/);
});
