import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveZone } from "../../src/commands/tz.js";
import { runCli, sample } from "../helpers.js";

const BASIC = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");

test("the local zone is looked up only when something will show it; --tz and TZ are still checked", () => {
  const warned: string[] = [];
  const warn = (w: string) => void warned.push(w);
  assert.equal(resolveZone(undefined, {}, warn, false), "UTC");
  assert.equal(resolveZone(undefined, {}, warn, true), new Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
  assert.equal(resolveZone("Europe/Berlin", {}, warn, false), "Europe/Berlin");
  assert.throws(() => resolveZone("Mars/Base", {}, warn, false), /unknown time zone/);
  assert.equal(resolveZone(undefined, { TZ: "Nowhere/Land" }, warn, false), "UTC");
  assert.equal(warned.length, 1);
});

test("JSON is the same whatever the zone, TZ or none", async () => {
  const plain = await runCli(["requests", BASIC, "--json"], { env: { TZ: undefined } });
  assert.equal(plain.code, 0, plain.stderr);
  for (const env of [{ TZ: "Asia/Tokyo" }, { TZ: "UTC" }])
    assert.equal((await runCli(["requests", BASIC, "--json"], { env })).stdout, plain.stdout);
  assert.equal((await runCli(["requests", BASIC, "--json", "--tz", "America/New_York"])).stdout, plain.stdout);
});

test("with stdin on a terminal and no target, the local zone is looked up for the newest-session note only where a command has one", async () => {
  const proto = Intl.DateTimeFormat.prototype;
  const original = proto.resolvedOptions;
  let asked = 0;
  proto.resolvedOptions = function (this: Intl.DateTimeFormat) {
    asked++;
    return original.call(this);
  };
  try {
    const home = sample("claude-home");
    const run = async (args: string[]) => {
      asked = 0;
      const r = await runCli(args, { env: { TZ: undefined }, tty: { stdin: true } });
      assert.equal(r.code, 0, r.stderr);
      return { asked, stderr: r.stderr };
    };
    // `sessions` takes no target: no note, nothing shown in the local zone.
    assert.equal((await run(["sessions", "--claude-dir", home, "--json"])).asked, 0);
    // `requests` with no target reads the newest session and says so, at its local time.
    const newest = await run(["requests", "--claude-dir", home, "--json"]);
    assert.ok(newest.asked > 0);
    assert.match(newest.stderr, /newest/);
  } finally {
    proto.resolvedOptions = original;
  }
});
