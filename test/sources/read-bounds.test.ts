import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileChunks, type InputFile } from "../../src/sources/input.js";
import { ReadBounds, withReadBounds } from "../../src/sources/read-bounds.js";
import { readTuning } from "../../src/sources/reused-buffers.js";

/** Every byte a read of `path` hands out, copied, and the input's bytes and sha256 afterwards. */
async function readAll(path: string, reused: boolean): Promise<{ text: string; input: InputFile }> {
  const input: InputFile = { path, kind: "transcript", bytes: 0, sha256: "" };
  const file = readFileChunks(input);
  const parts: Buffer[] = [];
  for (const c of file.chunks(reused)) parts.push(Buffer.from(c));
  await file.finish();
  return { text: Buffer.concat(parts).toString(), input };
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

for (const reused of [true, false])
  test(`read bounds (${reused ? "line chunks" : "fresh chunks"}): the second pass reads each file exactly as far as the first, hashed as far, and says which grew`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccf-bounds-"));
    const saved = readTuning.chunk;
    try {
      // A small read buffer: the file takes many reads, so the cap falls inside one, not at a chunk's end.
      readTuning.chunk = 7;
      const p = join(dir, "t.jsonl");
      const q = join(dir, "still.jsonl");
      const first = '{"a":1}\n{"bb":22}\n{"ccc":333}\n';
      writeFileSync(p, first);
      writeFileSync(q, '{"z":0}\n');
      const b = new ReadBounds();
      const one = await withReadBounds(b, () => readAll(p, reused));
      await withReadBounds(b, () => readAll(q, reused));
      assert.equal(one.text, first);
      b.cap();
      appendFileSync(p, '{"d":4}\n{"tail":"half');
      const two = await withReadBounds(b, () => readAll(p, reused));
      assert.equal(two.text, first, "nothing past the first pass's length");
      assert.equal(two.input.bytes, first.length);
      assert.equal(two.input.sha256, sha(first));
      assert.equal((await withReadBounds(b, () => readAll(q, reused))).text, '{"z":0}\n');
      // A file the first pass never read is empty to the second.
      const r = join(dir, "new.jsonl");
      writeFileSync(r, '{"new":1}\n');
      assert.equal((await withReadBounds(b, () => readAll(r, reused))).text, "");
      const notes = b.notes();
      assert.equal(notes.length, 2, notes.join("\n"));
      assert.match(notes[0]!, /^1 file\(s\) grew between .*: .*t\.jsonl$/);
      assert.doesNotMatch(notes[0]!, /still\.jsonl|new\.jsonl/);
      assert.match(notes[1]!, /^1 file\(s\) appeared between .*: .*new\.jsonl$/);
      // Outside the bounds, the same file reads to its end as always.
      assert.match((await readAll(p, reused)).text, /"tail":"half$/);
    } finally {
      readTuning.chunk = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });

test("read bounds: past ten files a note names ten and counts the rest", () => {
  const b = new ReadBounds();
  for (let i = 0; i < 25; i++) b.took(`f${i}`, 10);
  b.cap();
  for (let i = 0; i < 25; i++) b.grown(`f${i}`);
  const [note] = b.notes();
  assert.match(note!, /^25 file\(s\) grew .*: f0, f1, .*, f9 and 15 more$/);
});
