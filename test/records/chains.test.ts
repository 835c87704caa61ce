import { test } from "node:test";
import assert from "node:assert/strict";
import { ChainSplitter, chainKind, ownSessionChain } from "../../src/records/chains.js";

const rec = (sessionId: string | undefined, agentId?: string, isSidechain = agentId !== undefined) => ({
  sessionId,
  agentId,
  isSidechain,
  uuid: undefined,
  parentUuid: undefined,
});
/** A sidechain record with no agent id (older Claude Code, inline in the main file). */
const side = (uuid: string | undefined, parentUuid?: string) => ({
  sessionId: "S",
  agentId: undefined,
  isSidechain: true,
  uuid,
  parentUuid,
});

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

test("main file: sidechain records with no agent id follow their parent, a root starts a chain labelled from its uuid, one hanging off the main chain joins the last", () => {
  const s = new ChainSplitter({ chain: "main", sessionId: "S" });
  const main = (uuid: string, parentUuid?: string) => ({ ...side(uuid, parentUuid), isSidechain: false });
  const got = [
    main("m-1"),
    side("1234abcd-0000-4000-8000-000000000001"),
    side("u-2", "1234abcd-0000-4000-8000-000000000001"),
    main("m-2", "m-1"),
    side("u-3", "u-2"),
    // Hanging off a main record (or a parent never seen): the last sidechain's, not a chain of its own.
    side("u-5", "m-2"),
    side("u-6", "never-seen"),
    // A second root (no parent).
    side("9999eeee-0000-4000-8000-000000000001"),
    side("u-4", "9999eeee-0000-4000-8000-000000000001"),
    // A root whose short label is taken gets its full uuid.
    side("1234abcd-0000-4000-8000-000000000002"),
    // No uuid and no known parent; a record written again stays where it was.
    side(undefined),
    side("u-3", "elsewhere"),
    // A short uuid whose full label is taken too is numbered.
    side("1234abcd"),
    rec("S"),
  ].map((r) => s.chainOf(r));
  assert.deepEqual(got, [
    "main",
    "sidechain-1234abcd",
    "sidechain-1234abcd",
    "main",
    "sidechain-1234abcd",
    "sidechain-1234abcd",
    "sidechain-1234abcd",
    "sidechain-9999eeee",
    "sidechain-9999eeee",
    "sidechain-1234abcd-0000-4000-8000-000000000002",
    "sidechain",
    "sidechain-1234abcd",
    "sidechain-1234abcd-2",
    "main",
  ]);
  for (const c of new Set(got)) if (c !== "main") assert.equal(chainKind(c), "subagent", c);
});

test("subagent file: a sidechain record with no agent id is the file's own", () => {
  const s = new ChainSplitter({ chain: "a1", sessionId: "S", agentId: "a1" });
  assert.deepEqual(
    [side("x"), side("y", "x")].map((r) => s.chainOf(r)),
    ["a1", "a1"],
  );
});

test("chain kinds: main, another session (a uuid), else a subagent", () => {
  assert.equal(chainKind("main"), "main");
  assert.equal(chainKind("c4a1c4a1-0000-4000-8000-0000000000f0"), "session");
  assert.equal(chainKind("a7be2f0"), "subagent");
  assert.equal(chainKind("a7be2f0@c4a1c4a1-0000-4000-8000-0000000000f0"), "subagent");
});

test("main file: a sidechain uuid of other characters than letters, digits and dashes is numbered, never read as agent@session", () => {
  const s = new ChainSplitter({ chain: "main", sessionId: "S" });
  const got = [side("main@x"), side("a<b>"), side("ok-1234")].map((r) => s.chainOf(r));
  assert.deepEqual(got, ["sidechain-1", "sidechain-2", "sidechain-ok-1234"]);
  for (const c of got) {
    assert.equal(chainKind(c), "subagent", c);
    assert.equal(ownSessionChain(c), true, c);
  }
});
