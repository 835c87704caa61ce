import { test } from "node:test";
import assert from "node:assert/strict";
import { noSessionError } from "../../src/sources/newest.js";
import { CANNOT_LIST, skip, takeSkipped } from "../../src/sources/guard.js";

test("no newest session: the folders that could not be listed and the files passed over are named, as a lookup by id names them", () => {
  takeSkipped();
  skip("/cfg/projects/-b", `${CANNOT_LIST}: EACCES: permission denied`);
  skip("/cfg/projects/-a/s.jsonl", "not read to find the newest session: EACCES: permission denied");
  const e = noSessionError(["/cfg"], {});
  takeSkipped();
  assert.equal(
    e.message,
    "no target, and no session under /cfg: give a session id, a transcript path, or pipe JSONL into stdin (-)\n" +
      "  not searched /cfg/projects/-b: cannot list folder: EACCES: permission denied\n" +
      "  skipped /cfg/projects/-a/s.jsonl: not read to find the newest session: EACCES: permission denied",
  );
  assert.equal(noSessionError(["/cfg"], {}).message.includes("\n"), false, "nothing passed over, nothing more said");
});
