import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli, sample } from "../helpers.js";

// Session identity and time across the fleet commands (sessions, servers, export): review findings F4-F10.

const HOME = sample("claude-home");
const tmp = (name: string) => mkdtempSync(join(tmpdir(), `ccf-${name}-`));

// ---- F10: an export in one format into a folder holding the other's tables

test("export --as ndjson over a Parquet export removes the Parquet tables it wrote, and nothing else", async () => {
  const dir = tmp("fmt");
  parseEnvelope(await runCli(["export", "--claude-dir", HOME, "--to", dir, "--json"]), "export");
  assert.ok(existsSync(join(dir, "sessions.parquet")));
  // What is not a table of ours stays: another parquet file, a backup, a folder of a table's name, a link's target.
  writeFileSync(join(dir, "mine.parquet"), "x");
  writeFileSync(join(dir, "sessions.parquet.bak"), "x");
  const outside = join(tmp("fmt-out"), "target.parquet");
  writeFileSync(outside, "keep");
  writeFileSync(join(dir, "requests.parquet"), "");
  const linkDir = tmp("fmt-link");
  symlinkSync(outside, join(linkDir, "requests.parquet"));
  const j = parseEnvelope(await runCli(["export", "--claude-dir", HOME, "--to", dir, "--as", "ndjson", "--json"]), "export");
  const left = readdirSync(dir).sort();
  assert.deepEqual(
    left.filter((f) => f.endsWith(".parquet")),
    ["mine.parquet"],
    "the six tables of the earlier format are gone",
  );
  assert.ok(left.includes("sessions.parquet.bak"));
  assert.equal(JSON.parse(readFileSync(join(dir, "schema.json"), "utf8")).format, "ndjson");
  assert.equal(j.removed.length, 6);
  // A link with a table's name is removed as a link, its target untouched.
  parseEnvelope(await runCli(["export", "--claude-dir", HOME, "--to", linkDir, "--as", "ndjson", "--json"]), "export");
  assert.equal(existsSync(join(linkDir, "requests.parquet")), false);
  assert.equal(readFileSync(outside, "utf8"), "keep");
  // A folder with a table's name is not a file of ours: left.
  const withFolder = tmp("fmt-folder");
  mkdirSync(join(withFolder, "tools.parquet"));
  parseEnvelope(await runCli(["export", "--claude-dir", HOME, "--to", withFolder, "--as", "ndjson", "--json"]), "export");
  assert.ok(existsSync(join(withFolder, "tools.parquet")));
});
