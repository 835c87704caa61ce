import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lineChunks } from "../../src/sources/line-chunks.js";
import { readTuning } from "../../src/sources/reused-buffers.js";

/** Every byte `lineChunks` hands out for `path`, copied (its chunks are valid only until the next one). */
function readAll(path: string, sizeAtOpen: number, onFirst?: () => void): Buffer {
  const fd = openSync(path, "r");
  const parts: Buffer[] = [];
  try {
    for (const c of lineChunks(fd, sizeAtOpen)) {
      parts.push(Buffer.from(c));
      if (parts.length === 1) onFirst?.();
    }
  } finally {
    closeSync(fd);
  }
  return Buffer.concat(parts);
}

function withDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "ccf-chunks-"));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a file that grew after its size was taken is read to its end, not to the old size", () => {
  withDir((dir) => {
    const p = join(dir, "t.jsonl");
    writeFileSync(p, '{"a":1}\n{"b":2}\n');
    appendFileSync(p, '{"c":3}\n');
    // Sized at open before the append: the short read the end test trusts must not come from the old size.
    assert.equal(readAll(p, 16).toString(), '{"a":1}\n{"b":2}\n{"c":3}\n');
    assert.equal(readAll(p, 0).toString(), '{"a":1}\n{"b":2}\n{"c":3}\n');
  });
});

test("growth between reads of a long file is read on, and a file without a final newline keeps its last line", () => {
  const saved = { ...readTuning };
  readTuning.chunk = 64;
  try {
    withDir((dir) => {
      const p = join(dir, "t.jsonl");
      const first = `${"x".repeat(40)}\n`.repeat(10);
      writeFileSync(p, first);
      const got = readAll(p, first.length, () => appendFileSync(p, '{"late":true}\n{"no-newline":1}'));
      assert.equal(got.toString(), `${first}{"late":true}\n{"no-newline":1}`);
    });
  } finally {
    Object.assign(readTuning, saved);
  }
});

test("an empty file yields nothing", () => {
  withDir((dir) => {
    const p = join(dir, "e.jsonl");
    writeFileSync(p, "");
    assert.equal(readAll(p, 0).length, 0);
  });
});
