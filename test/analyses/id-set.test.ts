import { test } from "node:test";
import assert from "node:assert/strict";
import { IdSet } from "../../src/analyses/id-set.js";

test("IdSet keeps the first value per id through growth, and tells ids apart", () => {
  const s = new IdSet();
  const n = 50_000;
  for (let i = 0; i < n; i++) assert.equal(s.getOrAdd(`msg_${i.toString(36)}`, i), undefined);
  assert.equal(s.size, n);
  for (let i = 0; i < n; i += 997) assert.equal(s.getOrAdd(`msg_${i.toString(36)}`, 7), i);
  // Ids that differ only in length, case or a lone surrogate are different ids.
  for (const id of ["", "a", "A", "aa", "\ud800", "\udc00", "msg_0 "]) assert.equal(s.getOrAdd(id, 1), undefined, JSON.stringify(id));
  assert.equal(s.size, n + 7);
  assert.equal(s.getOrAdd("\ud800", 2), 1);
});
