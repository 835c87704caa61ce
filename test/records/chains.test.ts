import { test } from "node:test";
import assert from "node:assert/strict";
import { ChainSplitter, chainKind } from "../../src/records/chains.js";

const rec = (sessionId: string | undefined, agentId?: string, isSidechain = agentId !== undefined) => ({ sessionId, agentId, isSidechain });

test("main file: a sidechain record with an agent id, and a record of another session, get chains of their own", () => {
  const s = new ChainSplitter({ chain: "main", sessionId: "S" });
  assert.deepEqual(
    [rec("S"), rec("S", "a1"), rec("T"), rec(undefined), rec("S", "a2", false), rec("S")].map((r) => s.chainOf(r)),
    ["main", "a1", "T", "main", "main", "main"],
  );
});

test("a file whose name says no session: the first session its own records name is the file's", () => {
  const s = new ChainSplitter({ chain: "main" });
  // A sidechain record first does not decide: it is another chain whatever its session.
  assert.deepEqual(
    [rec("S", "a1"), rec("S"), rec("T"), rec("S")].map((r) => s.chainOf(r)),
    ["a1", "main", "T", "main"],
  );
});

test("subagent file: another agent's records split off; its own, with or without agent id, stay", () => {
  const s = new ChainSplitter({ chain: "a1", sessionId: "S", agentId: "a1" });
  assert.deepEqual(
    [rec("S", "a1"), rec("S"), rec("S", "a9"), rec("T", "a1")].map((r) => s.chainOf(r)),
    ["a1", "a1", "a9", "a1@T"],
  );
});

test("chain kinds: main, another session (a uuid), else a subagent", () => {
  assert.equal(chainKind("main"), "main");
  assert.equal(chainKind("c4a1c4a1-0000-4000-8000-0000000000f0"), "session");
  assert.equal(chainKind("a7be2f0"), "subagent");
  assert.equal(chainKind("a7be2f0@c4a1c4a1-0000-4000-8000-0000000000f0"), "subagent");
});
