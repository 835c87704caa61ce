import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { parseEnvelope, runCli, sample } from "../helpers.js";

// `export --redact`: every text cell of every table goes through the one redaction the other commands use
// (src/report/redact.ts), collected over the whole export first, so an id has one short form in every file.

const TABLES = ["sessions", "requests", "tool_results", "instructions", "tools", "servers"];
const HOMES = [sample("claude-home"), sample("subagents", "claude")];

/** Identifying values in a text: ids, saved-file names and their stamps, home dirs and project keys naming a user. */
function identifying(s: string): string[] {
  const res = [
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi,
    /\b(?:msg|req|toolu|srvtoolu)_[A-Za-z0-9]{8,}/g,
    /\bb[0-9a-z]{8}\.txt/g,
    /\d{13}(?=\.[a-z])/g,
    /\/home\/[^/"\s]+/g,
    /-home-dev\b/g,
  ];
  return res.flatMap((re) => [...s.matchAll(re)].map((m) => m[0]));
}

async function exported(as: "ndjson" | "parquet", redact: boolean) {
  const dir = mkdtempSync(join(tmpdir(), `ccf-export-redact-${as}-`));
  const args = ["export", ...HOMES.flatMap((h) => ["--claude-dir", h]), "--to", dir, "--as", as, "--json"];
  const j = parseEnvelope(await runCli(redact ? [...args, "--redact"] : args), "export");
  return { dir, j };
}

/** Every cell of every table, as text (Parquet read back by DuckDB). */
async function cells(dir: string, as: "ndjson" | "parquet"): Promise<Record<string, Record<string, unknown>[]>> {
  const db = await (await DuckDBInstance.create(":memory:")).connect();
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const t of TABLES) {
    const file = join(dir, `${t}.${as}`);
    if (as === "ndjson")
      out[t] = readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l));
    else {
      const r = await db.runAndReadAll(`SELECT * FROM read_parquet('${file.replace(/'/g, "''")}')`);
      out[t] = r
        .getRowObjects()
        .map((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])));
    }
  }
  return out;
}

const strings = (rows: Record<string, unknown>[]) =>
  rows.flatMap((r) => Object.values(r).filter((v): v is string => typeof v === "string"));

for (const as of ["ndjson", "parquet"] as const)
  test(`export --redact (${as}): no id, saved-file name, home dir or user's project key of the plain export is in any file or on stdout`, async () => {
    const plain = await exported(as, false);
    const red = await exported(as, true);
    const before = await cells(plain.dir, as);
    const after = await cells(red.dir, as);
    const originals = new Set(TABLES.flatMap((t) => strings(before[t]!).flatMap(identifying)));
    // The samples hold each kind: session and message ids, tool-use ids, saved names, a home dir.
    for (const re of [/^[0-9a-f]{8}-/, /^msg_/, /^toolu_/, /^\d{13}$/, /^\/home\/dev$/, /^-home-dev$/])
      assert.ok(
        [...originals].some((v) => re.test(v)),
        `the plain export has a value like ${re}`,
      );
    const files = TABLES.map((t) => readFileSync(join(red.dir, `${t}.${as}`)).toString("latin1"));
    const stdout = JSON.stringify(red.j);
    for (const v of originals) {
      for (const t of TABLES) assert.ok(!strings(after[t]!).some((s) => s.includes(v)), `${t}: ${v} survived`);
      // The raw bytes too (NDJSON as written; Parquet's pages, where a plain string would show).
      for (const f of files) assert.ok(!f.includes(v), `${v} survived in a file's bytes`);
      assert.ok(!stdout.includes(v), `${v} survived on stdout`);
    }
    // Same rows, same numbers: only texts changed.
    for (const t of TABLES) {
      assert.equal(after[t]!.length, before[t]!.length, t);
      after[t]!.forEach((row, i) => {
        for (const [k, v] of Object.entries(row)) if (typeof v !== "string") assert.deepEqual(v, before[t]![i]![k], `${t}.${k}`);
      });
    }
    // One id, one text in every table and in the document: the session ids of sessions are the ones requests and stdout name.
    const ids = new Set(after.sessions!.map((r) => r.session_id as string));
    assert.ok(
      [...ids].every((id) => id.includes("…")),
      [...ids].join(" "),
    );
    for (const r of after.requests!) assert.ok(ids.has(r.session_id as string), `requests: ${r.session_id}`);
    for (const i of red.j.inputs.filter((x: any) => x.kind === "transcript"))
      assert.ok(
        [...ids].some((id) => i.path.endsWith(`${id}.jsonl`)),
        i.path,
      );
    assert.ok(after.sessions!.some((r) => r.transcript && String(r.transcript).includes("/projects/~-my-app/")));
  });

test("export --redact refuses stdin, which cannot be read twice, before any folder is made", async () => {
  const to = join(mkdtempSync(join(tmpdir(), "ccf-export-redact-")), "out");
  const r = await runCli(["export", "-", "--to", to, "--redact"], { stdin: "" });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /export --redact reads the evidence twice .* stdin \(-\) can be read once/);
  assert.throws(() => readFileSync(join(to, "schema.json")));
});
