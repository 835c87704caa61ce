import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { under } from "../../src/sources/discover.js";

test("a listed name put under its folder is join's path, for normal folders and odd ones", () => {
  const dirs = ["/a/b", "/", ".", "..", "", "a", "a/", "a//b", "./a", "a/./b", "a/../b", "/x/y/", "/x/../y", "/é/\ud800", "C:\\x"];
  const names = [
    "agent-1.jsonl",
    "00005e55-0000-4000-8000-000000000000.jsonl",
    "a b",
    "é.jsonl",
    "\ud83d\ude00",
    "...jsonl",
    "x\\y",
    "-",
    " ",
  ];
  let fast = 0;
  for (const d of dirs)
    for (const n of names) {
      assert.equal(under(d, n), join(d, n), `${JSON.stringify(d)} ${JSON.stringify(n)}`);
      if (under(d, n) === `${d}/${n}`) fast += 1;
    }
  // Written down: the normal folders take the direct path, the odd ones are joined (and normalised).
  assert.equal(under(".", "agent-1.jsonl"), "agent-1.jsonl");
  assert.equal(under("a/../b", "s.jsonl"), "b/s.jsonl");
  assert.equal(under("/a/b", "s.jsonl"), "/a/b/s.jsonl");
  assert.ok(fast > 40, `${fast} direct`);
});
