import { test } from "node:test";
import assert from "node:assert/strict";
import { EXACT_IDS, IdSet } from "../../src/analyses/id-set.js";

// Run with ids kept whole (the default, past EXACT_IDS hashed), all hashed (0) and a few kept whole (3).
for (const exact of [undefined, 0, 3]) {
  test(`IdSet keeps the first value per id through growth, and tells ids apart (ids kept whole: ${exact ?? EXACT_IDS})`, () => {
    const s = new IdSet(exact);
    const n = 50_000;
    for (let i = 0; i < n; i++) assert.equal(s.getOrAdd(`msg_${i.toString(36)}`, i), undefined);
    assert.equal(s.size, n);
    for (let i = 0; i < n; i += 997) assert.equal(s.getOrAdd(`msg_${i.toString(36)}`, 7), i);
    // Ids that differ only in length, case or a lone surrogate are different ids.
    for (const id of ["", "a", "A", "aa", "\ud800", "\udc00", "msg_0 "]) assert.equal(s.getOrAdd(id, 1), undefined, JSON.stringify(id));
    assert.equal(s.size, n + 7);
    assert.equal(s.getOrAdd("\ud800", 2), 1);
  });

  test(`IdSet.has answers without storing (ids kept whole: ${exact ?? EXACT_IDS})`, () => {
    const s = new IdSet(exact);
    assert.equal(s.has("a"), false);
    for (let i = 0; i < 200; i++) s.getOrAdd(`id_${i}`, i);
    assert.equal(s.has("id_0"), true);
    assert.equal(s.has("id_199"), true);
    assert.equal(s.has("id_200"), false);
    assert.equal(s.size, 200);
    assert.equal(s.getOrAdd("id_200", 5), undefined);
  });

  test(`IdSet tells apart ids that UTF-8 would make equal (lone surrogates) and ids whose bytes would match across encodings (ids kept whole: ${exact ?? EXACT_IDS})`, () => {
    const s = new IdSet(exact);
    // Each lone surrogate is its own id although UTF-8 writes every one of them as U+FFFD.
    const ids = ["\ud800", "\udbff", "\udc00", "\udfff", "\ufffd", "x\ud800", "x\udc00", "x\ufffd", "\ud800\ud800", "\udc00\ud800"];
    // A well-formed id whose UTF-8 bytes equal another id's UTF-16LE bytes ("a\u0000" is 61 00, as "a" is in UTF-16LE).
    ids.push("a", "a\u0000", "\u0000\ud800", Buffer.from("\ud800", "utf16le").toString("latin1"));
    ids.forEach((id, i) => assert.equal(s.getOrAdd(id, i), undefined, JSON.stringify(id)));
    ids.forEach((id, i) => assert.equal(s.getOrAdd(id, 99), i, JSON.stringify(id)));
    assert.equal(s.size, ids.length);
  });
}
