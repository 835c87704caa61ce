import { test } from "node:test";
import assert from "node:assert/strict";
import { SHARED_SHOWN, sharedIds } from "../../src/commands/sessions.js";

const id = (i: number) => `a1a1a1a1-0000-4000-8000-${String(i).padStart(12, "0")}`;

test("sessions: a copied config dir sharing 5,000 ids is a few stderr lines, the first ids named, the rest counted", () => {
  const rows = Array.from({ length: 5000 }, (_, i) => [
    { sessionId: id(i), path: `/b/${id(i)}.jsonl` },
    { sessionId: id(i), path: `/a/${id(i)}.jsonl` },
  ]).flat();
  rows.push({ sessionId: "solo", path: "/a/solo.jsonl" });
  const w = sharedIds(rows);
  assert.equal(w.length, SHARED_SHOWN + 1);
  assert.equal(w[0], `session id ${id(0)} is in 2 different files: ${id(0)}: /a/${id(0)}.jsonl, ${id(0)}~2: /b/${id(0)}.jsonl`);
  assert.equal(w.at(-1), `… and ${5000 - SHARED_SHOWN} more session ids in several files (each file is its own row)`);
});

test("sessions: one id in 1,000 files names the first files and counts the rest", () => {
  const rows = Array.from({ length: 1000 }, (_, i) => ({ sessionId: "s", path: `/d${String(i).padStart(4, "0")}/s.jsonl` }));
  const [w, ...rest] = sharedIds(rows);
  assert.deepEqual(rest, []);
  assert.ok(w!.startsWith("session id s is in 1000 different files: s: /d0000/s.jsonl, s~2: /d0001/s.jsonl, "), w);
  assert.ok(w!.endsWith(` … and ${1000 - SHARED_SHOWN} more`), w);
  assert.ok(w!.length < 400, w);
});
