import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, closeSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveLinks } from "../../src/sources/guard.js";
import { configDirHolding } from "../../src/sources/discover.js";
import { checkWritable, openForWrite, protectedConfigDirs } from "../../src/output/write-guard.js";

const scratch = () => realpathSync(mkdtempSync(join(tmpdir(), "ccf-wg-")));

test("resolveLinks follows links as open(2) would: dangling ones, chains, relative targets, `..` after a link", () => {
  const d = scratch();
  mkdirSync(join(d, "real", "sub"), { recursive: true });
  symlinkSync(join(d, "nowhere", "file"), join(d, "dangle"));
  symlinkSync("dangle", join(d, "rel"));
  symlinkSync(join(d, "real", "sub"), join(d, "tosub"));
  assert.equal(resolveLinks(join(d, "real", "x")), join(d, "real", "x"));
  assert.equal(resolveLinks(join(d, "dangle")), join(d, "nowhere", "file"));
  assert.equal(resolveLinks(join(d, "rel")), join(d, "nowhere", "file"));
  assert.equal(resolveLinks("rel", d), join(d, "nowhere", "file"));
  assert.equal(resolveLinks(join(d, "tosub") + "/../y"), join(d, "real", "y"));
  symlinkSync(join(d, "b"), join(d, "a"));
  symlinkSync(join(d, "a"), join(d, "b"));
  assert.equal(resolveLinks(join(d, "a")), undefined);
});

test("protectedConfigDirs: every --claude-dir, every CLAUDE_CONFIG_DIR entry, both defaults, each input's dir", () => {
  const dirs = protectedConfigDirs({
    env: { HOME: "/h", CLAUDE_CONFIG_DIR: "/e1, rel" },
    cwd: "/w",
    claudeDir: ["/c1", "c2"],
    inputPaths: ["/x/cfg/projects/-p/s.jsonl", "/y/loose.jsonl"],
  });
  for (const d of ["/c1", "/w/c2", "/e1", "/w/rel", "/h/.claude", "/h/.config/claude", "/x/cfg"]) assert.ok(dirs.includes(d), d);
  assert.ok(!dirs.includes("/y"));
});

test("openForWrite will not follow a link put in place of a checked path", () => {
  const d = scratch();
  const home = join(d, "home");
  mkdirSync(join(home, ".claude"), { recursive: true });
  const target = checkWritable("--output", join(d, "doc.txt"), "file", { env: { HOME: home }, cwd: d, inputPaths: [] });
  symlinkSync(join(home, ".claude", "swapped.txt"), target);
  assert.throws(() => closeSync(openForWrite(target)), /symlink/);
  assert.equal(existsSync(join(home, ".claude", "swapped.txt")), false);
});

test("configDirHolding: a case-variant of a config dir is that dir where the file system ignores case, and not where it tells them apart", () => {
  const d = scratch();
  const claude = join(d, ".claude");
  mkdirSync(claude);
  mkdirSync(join(d, ".CLAUDE"));
  // Simulated case-insensitive file system: every variant stats as the config dir itself.
  const oneFolder = () => true;
  for (const p of [
    join(d, ".CLAUDE", "x.json"),
    join(d, ".Claude"),
    join(d, ".cLaUdE", "a", "b.txt"),
    join(d.toUpperCase(), ".CLAUDE", "x"),
  ])
    assert.equal(configDirHolding(p, [claude], oneFolder), claude, p);
  // Not a variant of the name at all: a sibling folder whose name only starts the same.
  assert.equal(configDirHolding(join(d, ".CLAUDE-backup", "x.json"), [claude], oneFolder), undefined);
  assert.equal(configDirHolding(join(d, ".claude-backup", "x.json"), [claude], oneFolder), undefined);
  // This file system (Linux's) tells case apart: two real folders, two dirs.
  assert.equal(configDirHolding(join(d, ".CLAUDE", "x.json"), [claude]), undefined);
  assert.equal(configDirHolding(join(d, ".claude", "x.json"), [claude]), claude);
  // The config dir there, its variant not: a file system that ignored case would have found it.
  assert.equal(configDirHolding(join(d, ".Claude", "x.json"), [claude]), undefined);
  // The config dir not there: which folder a variant is cannot be told, so it is refused.
  assert.equal(configDirHolding(join(d, ".CONFIG", "claude", "x"), [join(d, ".config", "claude")]), join(d, ".config", "claude"));
});
