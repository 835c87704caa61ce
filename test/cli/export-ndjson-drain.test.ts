import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assistant, jsonl, userText } from "../builders.js";
import { runCli } from "../helpers.js";

// export --as ndjson waits for "drain" every 64 KB. Each wait once left an "error" listener behind on the
// file's stream, so an export of a few MB printed Node's MaxListenersExceededWarning (and kept every listener).
test("export --as ndjson: a requests table of several MB is written without leaking a listener per wait", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-ndjson-drain-"));
  try {
    const f = join(dir, "c0ffee00-2222-4222-8333-444444444444.jsonl");
    const recs: unknown[] = [userText("hi")];
    for (let i = 0; i < 4000; i++)
      recs.push(assistant({ usage: { input_tokens: 3, cache_read_input_tokens: 1000 + i, output_tokens: 2 } }));
    writeFileSync(f, jsonl(...recs));
    const out = join(dir, "out");
    // The CLI runs in this process: Node's warning is a process event, not text on the run's stderr.
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    const r = await runCli(["export", f, "--as", "ndjson", "--to", out]);
    await new Promise((res) => setImmediate(res));
    process.off("warning", onWarning);
    assert.equal(r.code, 0, r.stderr);
    const rows = readFileSync(join(out, "requests.ndjson"), "utf8");
    assert.ok(rows.length > 11 * (1 << 16), `requests.ndjson is ${rows.length} bytes: more than 11 waits`);
    assert.equal(rows.trimEnd().split("\n").length, 4000);
    assert.deepEqual(
      warnings.filter((w) => /MaxListeners/.test(w)),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
