import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localIsUtc, resolveZone } from "../../src/commands/tz.js";
import { runCli, runCliSpawned, sample } from "../helpers.js";

const BASIC = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");

test("the local zone is looked up only when something will show it; --tz and TZ are still checked", () => {
  const warned: string[] = [];
  const warn = (w: string) => void warned.push(w);
  assert.equal(resolveZone(undefined, {}, warn, false), "UTC");
  assert.equal(resolveZone(undefined, {}, warn, true), new Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
  assert.equal(resolveZone("Europe/Berlin", {}, warn, false), "Europe/Berlin");
  assert.throws(() => resolveZone("Mars/Base", {}, warn, false), /unknown time zone/);
  assert.equal(resolveZone(undefined, { TZ: "Nowhere/Land" }, warn, false), "UTC");
  // POSIX: an empty TZ (or a bare ":") is UTC, where ICU would say "Etc/Unknown".
  for (const TZ of ["", ":", " "]) assert.equal(resolveZone(undefined, { TZ }, warn, true), "UTC");
  assert.equal(warned.length, 1);
});

test("an empty TZ shows times in UTC (it was an internal error: ICU's answer, Etc/Unknown, cannot format a time)", async () => {
  for (const TZ of ["", ":"]) {
    // In a process of its own: the empty TZ must reach ICU, as it does from a shell.
    const r = await runCliSpawned(["report", BASIC], { env: { TZ } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /times are UTC on /);
  }
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
    // A host whose /etc/localtime links to a UTC zone is answered from the link, without Intl.
    assert.ok(newest.asked > 0 || localIsUtc());
    assert.match(newest.stderr, /newest/);
  } finally {
    proto.resolvedOptions = original;
  }
});

test("a localtime link into a zoneinfo tree at UTC is UTC without asking Intl; anything else is Intl's to answer", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-zone-"));
  try {
    const zoneinfo = join(dir, "usr", "share", "zoneinfo");
    for (const z of ["Etc/UTC", "Etc/GMT", "UTC", "posix/Etc/UTC", "right/UTC", "Europe/Berlin", "Etc/GMT+5", "UTC.bak"]) {
      mkdirSync(join(zoneinfo, z, ".."), { recursive: true });
      writeFileSync(join(zoneinfo, z), "TZif");
    }
    symlinkSync(join(zoneinfo, "Etc", "UTC"), join(zoneinfo, "Zulu"));
    const link = (to: string) => {
      const at = join(dir, `localtime-${Math.random().toString(36).slice(2)}`);
      symlinkSync(to, at);
      return at;
    };
    for (const z of ["Etc/UTC", "Etc/GMT", "UTC", "posix/Etc/UTC", "right/UTC", "Zulu"])
      assert.equal(localIsUtc(link(join(zoneinfo, z))), true, z);
    for (const z of ["Europe/Berlin", "Etc/GMT+5", "UTC.bak"]) assert.equal(localIsUtc(link(join(zoneinfo, z))), false, z);
    // A copy rather than a link, a dangling link, no file, a link outside any zoneinfo tree.
    writeFileSync(join(dir, "copied"), "TZif");
    assert.equal(localIsUtc(join(dir, "copied")), false);
    assert.equal(localIsUtc(link(join(zoneinfo, "Nowhere"))), false);
    assert.equal(localIsUtc(join(dir, "missing")), false);
    writeFileSync(join(dir, "UTC"), "TZif");
    assert.equal(localIsUtc(link(join(dir, "UTC"))), false);
    // Where the host's own link says UTC, Intl agrees.
    if (localIsUtc()) assert.equal(new Intl.DateTimeFormat().resolvedOptions().timeZone, "UTC");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
