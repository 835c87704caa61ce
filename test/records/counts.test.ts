import { test } from "node:test";
import assert from "node:assert/strict";
import {
  bump,
  countOf,
  MAX_NAMES,
  MAX_OTHER_KEYS,
  mergeCounts,
  newCounts,
  otherLabel,
  otherNames,
  totalOf,
} from "../../src/records/counts.js";
import { countParsed, emptyHealth, mergeHealth } from "../../src/records/health.js";
import { healthTable, healthWarnings } from "../../src/report/health-table.js";

const pos = { file: "a.jsonl", line: 1 };

test("bump: prototype names are own keys, JSON writes them (`__proto__` too) in first-seen order", () => {
  const c = newCounts();
  for (const k of ["constructor", "__proto__", "toString", "constructor", "valueOf", "hasOwnProperty"]) bump(c, k);
  assert.equal(JSON.stringify(c), '{"constructor":2,"__proto__":1,"toString":1,"valueOf":1,"hasOwnProperty":1}');
  assert.equal(countOf(c, "__proto__"), 1);
  assert.equal(countOf(c, "isPrototypeOf"), 0);
  assert.equal(totalOf(c), 6);
  // A plain object handed in gets own keys too (never its prototype set, never an inherited count).
  const plain: Record<string, number> = {};
  bump(plain, "__proto__");
  bump(plain, "constructor");
  assert.equal(JSON.stringify(plain), '{"__proto__":1,"constructor":1}');
  assert.equal(Object.getPrototypeOf(plain), Object.prototype);
});

test("bump: past MAX_NAMES names, new names count in otherNames (names, records), listed ones still count", () => {
  const c = newCounts();
  assert.equal(otherNames(c), undefined);
  for (let i = 0; i < MAX_NAMES; i++) bump(c, `t${i}`);
  assert.equal(otherNames(c), undefined, "exactly at the cap nothing is left out");
  bump(c, "t0", 4);
  bump(c, "late");
  bump(c, "late");
  bump(c, "later", 3);
  assert.equal(Object.keys(c).length, MAX_NAMES);
  assert.equal(c.t0, 5);
  assert.equal(Object.hasOwn(c, "late"), false);
  assert.deepEqual(otherNames(c), { names: 2, records: 5 });
  assert.equal(totalOf(c), MAX_NAMES + 4 + 5);
  const into = newCounts();
  bump(into, "x");
  mergeCounts(into, c);
  assert.equal(Object.keys(into).length, MAX_NAMES, "x and 999 of c's names");
  assert.deepEqual(otherNames(into), { names: 3, records: 6 }, "t999 and c's two names past the cap");
  // Read back from a document (no names to merge by): counted as distinct names.
  const back = newCounts();
  mergeCounts(back, JSON.parse("{}"), { names: 7, records: 9 });
  assert.deepEqual(otherNames(back), { names: 7, records: 9 });
});

test("health: __proto__ and constructor unknown types counted and merged; past the cap unknownTypesOther, in table notes and warnings", () => {
  const a = emptyHealth();
  countParsed(a, pos, { unknownType: "__proto__" });
  countParsed(a, pos, { unknownType: "constructor" });
  const b = emptyHealth();
  countParsed(b, pos, { unknownType: "constructor" });
  const m = mergeHealth(emptyHealth(), a);
  mergeHealth(m, b);
  assert.equal(JSON.stringify(m.unknownTypes), '{"__proto__":1,"constructor":2}');
  assert.equal(m.unknownTypesOther, undefined);
  assert.match(healthWarnings(m).join("\n"), /unknown record types passed over: __proto__ ×1, constructor ×2$/m);

  const big = emptyHealth();
  for (let i = 0; i < MAX_NAMES + 250; i++) countParsed(big, pos, { unknownType: `t${i}` });
  countParsed(big, pos, { unknownType: `t${MAX_NAMES + 3}` });
  assert.equal(Object.keys(big.unknownTypes).length, MAX_NAMES);
  assert.deepEqual(big.unknownTypesOther, { names: 250, records: 251 });
  const doc = JSON.parse(JSON.stringify(mergeHealth(emptyHealth(), big)));
  assert.deepEqual(doc.unknownTypesOther, { names: 250, records: 251 });
  // Ten names are listed; the other 990 kept ones and the 250 past the cap are counted together.
  assert.match(
    healthTable(big).notes!.join("\n"),
    /t106 ×1, … 1,240 more names \(1,241 records\) \(see health\.unknownTypes in --json\)$/m,
  );
  assert.match(healthWarnings(big).join("\n"), /… 1,240 more names \(1,241 records\) \(see health\.unknownTypes in --json\)$/m);
});

test("bump: past MAX_OTHER_KEYS names beyond the cap, new names count their records and the names say at least", () => {
  const c = newCounts();
  for (let i = 0; i < MAX_NAMES; i++) bump(c, `t${i}`);
  for (let i = 0; i < MAX_OTHER_KEYS; i++) bump(c, `late${i}`);
  // Told apart by digest: a name seen again, and names differing only in a lone surrogate, count as they are.
  bump(c, "late0", 2);
  assert.deepEqual(otherNames(c), { names: MAX_OTHER_KEYS, records: MAX_OTHER_KEYS + 2 });
  bump(c, "more", 5);
  bump(c, "late1");
  assert.deepEqual(otherNames(c), { names: MAX_OTHER_KEYS, records: MAX_OTHER_KEYS + 8, namesAtLeast: true });
  assert.equal(otherLabel(otherNames(c)!), `… at least 100,000 more names (${(MAX_OTHER_KEYS + 8).toLocaleString("en-US")} records)`);
  assert.equal(totalOf(c), MAX_NAMES + MAX_OTHER_KEYS + 8);
  // Merged, and read back from a document: still a lower bound.
  const into = newCounts();
  mergeCounts(into, c);
  assert.equal(otherNames(into)!.namesAtLeast, true);
  const back = newCounts();
  mergeCounts(back, {}, JSON.parse(JSON.stringify(otherNames(c))));
  assert.deepEqual(otherNames(back), otherNames(c));
});

test("bump: names past the cap differing only in a lone surrogate are two names", () => {
  const c = newCounts();
  for (let i = 0; i < MAX_NAMES; i++) bump(c, `t${i}`);
  for (const k of ["a\uD800", "a\uDC00", "a\uFFFD", "a\uD800"]) bump(c, k);
  assert.deepEqual(otherNames(c), { names: 3, records: 4 });
});
