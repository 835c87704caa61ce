import { test } from "node:test";
import assert from "node:assert/strict";
import { readmeReproductions, reproduce } from "./reproduce-commands.js";

// A file of its own: each run waits 8 s for the lab server's delayed initialize, as the write-up's late
// server did, and the wait is better spent beside the other test files than after them.
test("the late-server matrix as README gives it, with the stand-in claude: no wait, nothing carries the instructions", async () => {
  const r = readmeReproductions().find((x) => x.matrix === "samples/matrices/late-single-request.json");
  assert.ok(r, "README reproduces late-single-request.json");
  const { run, then } = await reproduce(r, ["late-no-wait"]);
  assert.equal(run.code, 0, run.stderr);
  const [out] = then;
  assert.equal(out!.code, 0, out!.stderr);
  const text = out!.stdout;
  // No wait for a server that answers initialize after 8 s: request 1 goes without its instructions and,
  // with one turn, nothing carries them (instr. request blank); the model finds no codeword.
  assert.match(
    text,
    /^\| late-no-wait \| late-no-wait-a \| CLAUDE_CODE_MCP_STARTUP_WAIT_MS=0 \| — \| [\d,]+ \| lab \| BEGIN=NONE END=NONE LAST=NONE \|$/m,
  );
});
