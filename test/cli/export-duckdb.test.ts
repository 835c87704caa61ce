import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { parseEnvelope, ROOT, runCli, sample } from "../helpers.js";
import { writeResumedHome } from "../resume-home.js";

const DUCK_TYPE: Record<string, string> = { string: "VARCHAR", int: "BIGINT", double: "DOUBLE", bool: "BOOLEAN", timestamp: "TIMESTAMP" };

/** Views over an export folder: Parquet read as it is, NDJSON with the column types schema.json gives (an empty file has none to guess). */
async function load(dir: string): Promise<DuckDBConnection> {
  const db = await (await DuckDBInstance.create(":memory:")).connect();
  const schema = JSON.parse(readFileSync(join(dir, "schema.json"), "utf8"));
  for (const t of schema.tables) {
    const file = join(dir, t.file).replace(/'/g, "''");
    const cols = t.columns.map((c: { name: string; type: string }) => `'${c.name}': '${DUCK_TYPE[c.type]}'`).join(", ");
    const from =
      schema.format === "parquet" ? `read_parquet('${file}')` : `read_json('${file}', format = 'newline_delimited', columns = {${cols}})`;
    await db.run(`CREATE VIEW ${t.name} AS SELECT * FROM ${from}`);
  }
  return db;
}

async function rows(db: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  const r = await db.runAndReadAll(sql);
  return r.getRowObjects().map((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])));
}

async function exportTo(args: string[], as: "parquet" | "ndjson", env?: NodeJS.ProcessEnv) {
  const dir = mkdtempSync(join(tmpdir(), `ccf-export-${as}-`));
  const r = await runCli(["export", ...args, "--to", dir, "--as", as, "--json"], { env });
  return { dir, j: parseEnvelope(r, "export") };
}

/** A listed session as a target: its main file, or for an orphan subagent folder its id. */
const one = (s: { path: string; sessionId: string; mainFileMissing?: boolean }, dir: string) =>
  s.mainFileMissing ? [s.sessionId, "--claude-dir", dir] : [s.path];

/** The same figures from the JSON of the single commands, session by session. */
async function fromJson(configDir: string) {
  const list = parseEnvelope(await runCli(["sessions", "--claude-dir", configDir, "--json"]), "sessions");
  const want = { requests: 0, totalInput: 0, delta: 0, results: 0, resultChars: 0, checks: {} as Record<string, number>, instructions: 0 };
  for (const s of list.sessions) {
    const req = parseEnvelope(await runCli(["requests", ...one(s, configDir), "--json"]), "requests");
    for (const q of req.requests) {
      want.requests++;
      want.totalInput += q.totalInputTokens ?? 0;
      want.delta += q.deltaTokens ?? 0;
    }
    const out = parseEnvelope(await runCli(["outputs", ...one(s, configDir), "--json"]), "outputs");
    for (const r of out.toolResults) {
      want.results++;
      want.resultChars += r.resultChars ?? 0;
      want.checks[r.check] = (want.checks[r.check] ?? 0) + 1;
    }
  }
  const servers = parseEnvelope(await runCli(["servers", "--claude-dir", configDir, "--json"]), "servers");
  return { sessions: list.sessions.length, want, servers: servers.servers };
}

async function checkExport(configDir: string, as: "parquet" | "ndjson") {
  const { dir, j } = await exportTo(["--claude-dir", configDir], as);
  const { sessions, want, servers } = await fromJson(configDir);
  const db = await load(dir);
  const counted = Object.fromEntries(j.tables.map((t: { name: string; rows: number }) => [t.name, t.rows]));
  const [s] = await rows(db, "SELECT count(*) AS n FROM sessions");
  assert.equal(s!.n, sessions);
  assert.equal(counted.sessions, sessions);
  const [q] = await rows(db, "SELECT count(*) AS n, sum(total_input_tokens) AS total, sum(delta_tokens) AS delta FROM requests");
  assert.deepEqual([q!.n, q!.total ?? 0, q!.delta ?? 0], [want.requests, want.totalInput, want.delta]);
  assert.equal(counted.requests, want.requests);
  const [r] = await rows(db, "SELECT count(*) AS n, sum(result_chars) AS chars FROM tool_results");
  assert.deepEqual([r!.n, r!.chars ?? 0], [want.results, want.resultChars]);
  const checks = await rows(db, 'SELECT "check" AS c, count(*) AS n FROM tool_results GROUP BY 1');
  assert.deepEqual(Object.fromEntries(checks.map((x) => [x.c, x.n])), want.checks);
  // The servers table and a GROUP BY over the rows both agree with `servers --json`.
  const table = await rows(
    db,
    "SELECT server, sessions, results, result_chars, delta_tokens, instruction_deliveries FROM servers ORDER BY server",
  );
  assert.deepEqual(
    table,
    [...servers]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((x) => ({
        server: x.name,
        sessions: x.sessions,
        results: x.results,
        result_chars: x.resultChars,
        delta_tokens: x.deltaTokens,
        instruction_deliveries: x.instructions.deliveries,
      })),
  );
  const grouped = await rows(
    db,
    `SELECT server, count(*) AS results, sum(coalesce(result_chars, 0)) AS chars,
            sum(CASE WHEN "check" = 'token' THEN 1 ELSE 0 END) AS token
     FROM tool_results WHERE server IS NOT NULL GROUP BY server ORDER BY server`,
  );
  for (const g of grouped) {
    const x = servers.find((y: { name: string }) => y.name === g.server);
    assert.deepEqual([g.results, g.chars, g.token], [x.results, x.resultChars, x.checks.token], String(g.server));
  }
  // Each request's growth once per (session, chain, request) carrying a server's results: the servers figure, in SQL.
  const cost = await rows(
    db,
    `SELECT server, sum(delta_tokens) AS delta FROM (
       SELECT DISTINCT server, session_id, chain, request_index, delta_tokens FROM tool_results
       WHERE server IS NOT NULL AND delta_tokens IS NOT NULL AND request_index IS NOT NULL) GROUP BY server`,
  );
  for (const c of cost) assert.equal(c.delta, servers.find((y: { name: string }) => y.name === c.server).deltaTokens, String(c.server));
  return { db, j };
}

for (const as of ["parquet", "ndjson"] as const) {
  for (const d of [
    ["claude-home"],
    ["outputs", "staircase", "claude"],
    ["subagents", "claude"],
    ["outputs", "reads", "claude"],
    ["instructions", "two-servers"],
    ["rewind", "claude"],
  ]) {
    test(`export --as ${as} of samples/${d.join("/")}: DuckDB totals equal requests, outputs and servers JSON`, async () => {
      await checkExport(sample(...d), as);
    });
  }
}

test("export of a generated 120-session config dir (bench/gen-fleet.mjs), row groups of 7: DuckDB agrees with servers JSON", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-fleet-"));
  const { genFleet } = (await import(join(ROOT, "bench", "gen-fleet.mjs"))) as { genFleet(dir: string, n: number): void };
  genFleet(dir, 120);
  const { dir: out } = await exportTo(["--claude-dir", dir], "parquet", { CCFORENSICS_EXPORT_ROW_GROUP: "7" });
  const servers = parseEnvelope(await runCli(["servers", "--claude-dir", dir, "--json"]), "servers");
  const db = await load(out);
  const [n] = await rows(db, "SELECT count(*) AS sessions, count(DISTINCT project) AS projects FROM sessions");
  assert.deepEqual([n!.sessions, n!.projects], [120, 10]);
  const [q] = await rows(db, "SELECT count(*) AS n FROM requests");
  assert.equal(q!.n, 120 * 2 + 80);
  // Written as it went: 320 rows in row groups of 7.
  const [g] = await rows(db, `SELECT count(DISTINCT row_group_id) AS groups FROM parquet_metadata('${join(out, "requests.parquet")}')`);
  assert.equal(g!.groups, Math.ceil(320 / 7));
  const sql = await rows(
    db,
    `SELECT server, count(*) AS results, sum(CASE WHEN "check" = 'size' THEN 1 ELSE 0 END) AS size,
            sum(follow_up_read_count) AS reads FROM tool_results WHERE server IS NOT NULL GROUP BY 1 ORDER BY 1`,
  );
  assert.deepEqual(
    sql,
    [...servers.servers]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((x: { name: string; results: number; checks: { size: number }; followUpReads: number }) => ({
        server: x.name,
        results: x.results,
        size: x.checks.size,
        reads: x.followUpReads,
      })),
  );
  const trunc = await rows(db, "SELECT server, sum(CASE WHEN truncated THEN 1 ELSE 0 END) AS cut FROM instructions GROUP BY 1 ORDER BY 1");
  assert.deepEqual(
    trunc.map((t) => t.cut),
    [...servers.servers]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((x: { instructions: { truncated: number } }) => x.instructions.truncated),
  );
});

test("export of a resumed session: copies are marked across sessions, so WHERE duplicate_of IS NULL gives the servers figures, in either order", async () => {
  for (const as of ["parquet", "ndjson"] as const)
    for (const swap of [false, true]) {
      const home = mkdtempSync(join(tmpdir(), "ccf-export-resumed-"));
      const { first, resumed } = writeResumedHome(home, swap);
      const { dir } = await exportTo(["--claude-dir", home], as);
      const [db] = parseEnvelope(await runCli(["servers", "--claude-dir", home, "--json"]), "servers").servers;
      const sql = await load(dir);
      const what = `${as}, resumed file read ${swap ? "first" : "second"}`;
      // Each request once: A1 10,003 + A2 11,203 + B1 13,203 + B2 13,903; the resumed file's two copies are marked.
      const [q] = await rows(
        sql,
        "SELECT sum(total_input_tokens) AS all_rows, sum(total_input_tokens) FILTER (WHERE duplicate_of IS NULL) AS once, count(*) FILTER (WHERE duplicate_of IS NOT NULL) AS copies FROM requests",
      );
      assert.deepEqual(q, { all_rows: 69_518, once: 48_312, copies: 2 }, what);
      const [r] = await rows(
        sql,
        "SELECT count(*) AS results, sum(result_chars) AS chars FROM tool_results WHERE server = 'db' AND duplicate_of IS NULL",
      );
      assert.deepEqual([r!.results, r!.chars], [db.results, db.resultChars], what);
      const [i] = await rows(
        sql,
        "SELECT count(*) AS n, sum(chars) AS chars, count(*) FILTER (WHERE truncated) AS cut FROM instructions WHERE duplicate_of IS NULL AND NOT removed",
      );
      assert.deepEqual({ deliveries: i!.n, chars: i!.chars, truncated: i!.cut }, db.instructions, what);
      assert.deepEqual(db.instructions, { deliveries: 2, chars: 3_061, truncated: 1 }, what);
      const [t] = await rows(sql, "SELECT sum(calls - copied_calls) AS calls FROM tools WHERE server = 'db'");
      assert.equal(t!.calls, db.toolCalls, what);
      assert.equal(db.toolCalls, 3, what);
      // The first copy is named as duplicate_of names it within a session, with its session before it.
      const marks = await rows(
        sql,
        "SELECT session_id, duplicate_of, saved_exists FROM tool_results WHERE tool_use_id = 'toolu_A1' ORDER BY duplicate_of NULLS FIRST",
      );
      const reader = swap ? resumed : first;
      const other = swap ? first : resumed;
      assert.equal(marks.length, 2, what);
      assert.equal(marks[0]!.session_id, reader, what);
      assert.equal(marks[1]!.session_id, other, what);
      assert.match(String(marks[1]!.duplicate_of), new RegExp(`^${reader}/(main|${first})/result#\\d+$`), what);
      // A SQL join on it finds the first copy of the same result; on the requests' notation it finds no row
      // (it once found request N of the chain: the same `session/chain#N` meant a result index here).
      const joined = await rows(
        sql,
        "SELECT c.tool_use_id AS copy, f.tool_use_id AS first FROM tool_results c JOIN tool_results f ON c.duplicate_of = f.session_id || '/' || f.chain || '/result#' || f.result_index",
      );
      assert.deepEqual(
        joined.map((j) => [j.copy, j.first]).filter(([c]) => c === "toolu_A1"),
        [["toolu_A1", "toolu_A1"]],
        what,
      );
      assert.ok(
        joined.every((j) => j.copy === j.first),
        what,
      );
      const [wrong] = await rows(
        sql,
        "SELECT count(*) AS n FROM tool_results c JOIN requests q ON c.duplicate_of = q.session_id || '/' || q.chain || '#' || q.request_index",
      );
      assert.equal(wrong!.n, 0, what);
      // The saved file is the first session's: found from its own folder, and the copy claims nothing about it.
      assert.deepEqual(
        marks.map((m) => m.saved_exists),
        swap ? [null, true] : [true, null],
        what,
      );
    }
});

test("export of samples/rewind: rewound and rewound_from tell a rewound request and its base, as requests --json does", async () => {
  const home = sample("rewind", "claude");
  const [s] = parseEnvelope(await runCli(["sessions", "--claude-dir", home, "--json"]), "sessions").sessions;
  const want = (parseEnvelope(await runCli(["requests", s.path, "--json"]), "requests").requests as any[]).map((q) => ({
    request_index: q.index,
    rewound: q.compaction?.kind === "rewind",
    rewound_from: q.compaction?.kind === "rewind" ? q.compaction.baseIndex : null,
    delta_tokens: q.deltaTokens,
  }));
  assert.deepEqual(
    want.filter((w) => w.rewound).map((w) => [w.request_index, w.rewound_from]),
    [
      [5, 3],
      [7, null],
    ],
  );
  for (const as of ["parquet", "ndjson"] as const) {
    const { dir } = await exportTo(["--claude-dir", home], as);
    const schema = JSON.parse(readFileSync(join(dir, "schema.json"), "utf8"));
    const cols = schema.tables.find((t: { name: string }) => t.name === "requests").columns as Array<{
      name: string;
      type: string;
      description: string;
    }>;
    assert.deepEqual(
      cols.filter((c) => c.name.startsWith("rewound")).map((c) => [c.name, c.type]),
      [
        ["rewound", "bool"],
        ["rewound_from", "int"],
      ],
    );
    assert.ok(cols.every((c) => c.description.length > 0));
    const db = await load(dir);
    const got = await rows(db, "SELECT request_index, rewound, rewound_from, delta_tokens FROM requests ORDER BY request_index");
    assert.deepEqual(got, want, as);
    // A rewound request's delta is its growth from its base, found by a self-join on rewound_from.
    const joined = await rows(
      db,
      "SELECT q.request_index AS i, q.delta_tokens AS delta, q.total_input_tokens - b.total_input_tokens AS from_base FROM requests q JOIN requests b ON b.session_id = q.session_id AND b.chain = q.chain AND b.request_index = q.rewound_from",
    );
    assert.deepEqual(joined, [{ i: 5, delta: want[4]!.delta_tokens, from_base: want[4]!.delta_tokens }], as);
  }
});

test("export: result_index and delivery_index count over the whole session, not per chain; schema.json's keys say so", async () => {
  const home = sample("subagents", "claude");
  for (const as of ["parquet", "ndjson"] as const) {
    const { dir } = await exportTo(["--claude-dir", home], as);
    const schema = JSON.parse(readFileSync(join(dir, "schema.json"), "utf8"));
    const table = (n: string) => schema.tables.find((t: { name: string }) => t.name === n);
    assert.deepEqual(table("tool_results").key, ["session_id", "result_index"]);
    assert.deepEqual(table("instructions").key, ["session_id", "delivery_index"]);
    for (const [t, c] of [
      ["tool_results", "result_index"],
      ["instructions", "delivery_index"],
    ] as const)
      assert.match(table(t).columns.find((x: { name: string }) => x.name === c).description, /in its session.*not per chain/);
    const db = await load(dir);
    // The numbering: 1..n over each session's rows, whatever chain each row is of.
    const per = await rows(
      db,
      "SELECT session_id, count(*) AS n, count(DISTINCT result_index) AS distinct_n, min(result_index) AS lo, max(result_index) AS hi, count(DISTINCT chain) AS chains FROM tool_results GROUP BY 1",
    );
    assert.ok(
      per.some((p) => (p.chains as number) > 1),
      "a session with results in several chains",
    );
    for (const p of per) assert.deepEqual([p.distinct_n, p.lo, p.hi], [p.n, 1, p.n], as);
  }
});

test("export refuses --to inside a Claude config dir and needs --to", async () => {
  const home = sample("claude-home");
  const inside = await runCli(["export", "--claude-dir", home, "--to", join(home, "out")]);
  assert.equal(inside.code, 2);
  assert.match(inside.stderr, /refusing to write inside the Claude config dir/);
  const none = await runCli(["export", "--claude-dir", home]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /needs --to DIR/);
});

test("a failed export leaves the folder as it was: no empty or half-written table beside an earlier export", async () => {
  const demo = join(sample("claude-home"), "projects", "-tmp-lab-demo", "c0ffee00-1111-4222-8333-444444444444.jsonl");
  const { dir } = await exportTo([demo], "ndjson");
  const before = readdirSync(dir).sort();
  const requests = readFileSync(join(dir, "requests.ndjson"), "utf8");
  assert.ok(requests.length > 0);
  // A usage error found while the sessions are listed (stdin twice), then a runtime one half way (a missing file after a good one).
  const twice = await runCli(["export", "-", "-", "--to", dir, "--as", "ndjson"], { stdin: "" });
  assert.equal(twice.code, 2, twice.stderr);
  const missing = await runCli(["export", demo, join(dir, "gone.jsonl"), "--to", dir, "--as", "ndjson"]);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /gone\.jsonl/);
  assert.deepEqual(readdirSync(dir).sort(), before, "no .partial file and no new table left behind");
  assert.equal(readFileSync(join(dir, "requests.ndjson"), "utf8"), requests, "the earlier export is untouched");
  const fresh = mkdtempSync(join(tmpdir(), "ccf-export-fail-"));
  assert.equal((await runCli(["export", demo, join(fresh, "gone.jsonl"), "--to", fresh])).code !== 0, true);
  assert.deepEqual(readdirSync(fresh), [], "a fresh folder stays empty");
});
