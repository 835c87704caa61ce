import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli } from "../helpers.js";

/**
 * 1,500 records, each of its own unknown type and attachment kind (a fuzzed or hostile file): the counts
 * keep the first 1,000 names (MAX_NAMES) and count the rest as `<facet>Other` {names, records}, in JSON and
 * in the tables, so memory and output stay bounded however many names a file makes up.
 */
const N = 1500;
let root: string;
let file: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), "ccf-many-names-"));
  file = join(root, "many.jsonl");
  const lines: string[] = [];
  for (let i = 0; i < N; i++) lines.push(JSON.stringify({ type: `t${i}`, uuid: `u${i}`, attachment: { type: `k${i}` } }));
  // One more record of a listed type and one of a type past the cap: listed names keep counting.
  lines.push(JSON.stringify({ type: "t0", uuid: "x0" }), JSON.stringify({ type: "t1400", uuid: "x1" }));
  writeFileSync(file, lines.join("\n") + "\n");
});
after(() => rmSync(root, { recursive: true, force: true }));

test("inventory --json: 1,000 names listed, the rest in unknownTypesOther / recordTypesOther and health.unknownTypesOther", async () => {
  const j = parseEnvelope(await runCli(["inventory", file, "--json"]), "inventory");
  const inv = j.inventory;
  assert.equal(Object.keys(inv.unknownTypes).length, 1000);
  assert.equal(inv.unknownTypes.t0, 2);
  assert.equal(inv.unknownTypes.t999, 1);
  assert.equal(Object.hasOwn(inv.unknownTypes, "t1000"), false);
  assert.deepEqual(inv.unknownTypesOther, { names: 500, records: 501 });
  assert.deepEqual(inv.recordTypesOther, { names: 500, records: 501 });
  assert.equal(Object.keys(j.health.unknownTypes).length, 1000);
  assert.deepEqual(j.health.unknownTypesOther, { names: 500, records: 501 });
  assert.equal(j.health.records, N + 2);
  assert.equal(inv.attachmentKindsOther, undefined, "these records are of unknown types, not attachments");
  assert.equal(inv.versionsOther, undefined);
});

test("inventory and requests tables: one row / note item for the names past the cap", async () => {
  const r = await runCli(["inventory", file]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /│ … 500 more names \(501 records\)\s+│\s+501 │/);
  // The notes and warnings list 10 names; the 990 other listed ones join the 500 past the cap (JSON lists 1,000).
  assert.match(r.stderr, /: t0 ×2, t1 ×1, .*t9 ×1, … 1,490 more names \(1,491 records\) \(see health.unknownTypes in --json\)\n/);
  const q = await runCli(["requests", file]);
  assert.equal(q.code, 0, q.stderr);
  assert.match(
    q.stdout,
    /unknown record types \(passed over\): t0 ×2, t1 ×1, t10 ×1, t100 ×1, .*t106 ×1, … 1,490 more names \(1,491 records\)/,
  );
  assert.doesNotMatch(q.stdout, /t107 ×|t999 ×|t1000 ×/);
});

test("unknown types of 5,000 characters each: warnings and the health note list 10, each cut to 120 characters", async () => {
  const long = join(root, "long-types.jsonl");
  const lines: string[] = [];
  for (let i = 0; i < 1000; i++) lines.push(JSON.stringify({ type: `T${i}`.padEnd(5000, "x"), uuid: `u${i}` }));
  writeFileSync(long, lines.join("\n") + "\n");
  const r = await runCli(["requests", long]);
  assert.equal(r.code, 0, r.stderr);
  for (const out of [r.stderr, r.stdout]) {
    const line = out.split("\n").find((l) => l.includes("unknown record types"))!;
    assert.ok(line.length < 2000, `${line.length} characters`);
    assert.match(line, new RegExp(`T0${"x".repeat(118)}… ×1, `));
    assert.match(line, /… 990 more names \(990 records\)/);
    assert.equal(line.match(/×1/g)!.length, 10);
  }
  const j = parseEnvelope(await runCli(["requests", long, "--json"]), "requests");
  assert.equal(Object.keys(j.health.unknownTypes).length, 1000);
  assert.equal(Object.keys(j.health.unknownTypes)[0]!.length, 5000);
});
