import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, ROOT, runCli, sample } from "../helpers.js";

// Session identity and time across the fleet commands (sessions, servers, export): review findings F4-F10.

const HOME = sample("claude-home");
const tmp = (name: string) => mkdtempSync(join(tmpdir(), `ccf-${name}-`));

const A = "a1a1a1a1-0000-4000-8000-000000000001";
const B = "b2b2b2b2-0000-4000-8000-000000000002";
const D = "d4d4d4d4-0000-4000-8000-000000000004";

/**
 * One exchange as Claude Code 2.1.x writes it: the user's prompt, an assistant record calling an MCP tool,
 * the tool_result, and the assistant's answer; envelope fields as on disk (parentUuid chain, cwd, version).
 * `tag` makes the uuids, message ids and tool_use ids distinct; times are `at` plus seconds.
 */
function exchange(o: { session: string; cwd: string; tag: string; at: string; agentId?: string; version?: string }): object[] {
  const env = (i: number, parent: string | null) => ({
    parentUuid: parent,
    isSidechain: o.agentId !== undefined,
    userType: "external",
    cwd: o.cwd,
    sessionId: o.session,
    version: o.version ?? "2.1.30",
    gitBranch: "main",
    ...(o.agentId !== undefined ? { agentId: o.agentId } : {}),
    uuid: `${o.tag}-u${i}`,
    timestamp: new Date(Date.parse(o.at) + i * 1000).toISOString(),
  });
  const usage = (cc: number, cr: number) => ({
    input_tokens: 3,
    cache_creation_input_tokens: cc,
    cache_read_input_tokens: cr,
    output_tokens: 12,
  });
  return [
    { ...env(1, null), type: "user", message: { role: "user", content: `look it up (${o.tag})` } },
    {
      ...env(2, `${o.tag}-u1`),
      type: "assistant",
      requestId: `req_${o.tag}1`,
      message: {
        id: `msg_${o.tag}1`,
        type: "message",
        role: "assistant",
        model: "claude-opus-4-6",
        content: [{ type: "tool_use", id: `toolu_${o.tag}`, name: "mcp__db__query", input: { q: o.tag } }],
        stop_reason: "tool_use",
        usage: usage(1000, 0),
      },
    },
    {
      ...env(3, `${o.tag}-u2`),
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${o.tag}`, content: `rows for ${o.tag}` }] },
      toolUseResult: [{ type: "text", text: `rows for ${o.tag}` }],
    },
    {
      ...env(4, `${o.tag}-u3`),
      type: "assistant",
      requestId: `req_${o.tag}2`,
      message: {
        id: `msg_${o.tag}2`,
        type: "message",
        role: "assistant",
        model: "claude-opus-4-6",
        content: [{ type: "text", text: "done" }],
        stop_reason: "end_turn",
        usage: usage(40, 1000),
      },
    },
  ];
}

const lines = (recs: object[]) => recs.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** A config dir: `projects/<key>/<id>.jsonl` per session, `<id>/subagents/agent-<agent>.jsonl` per subagent. */
function configDir(
  sessions: Array<{ key: string; id: string; recs: object[] | null; subagents?: Record<string, object[]> }>,
  dir = tmp("home"),
) {
  for (const s of sessions) {
    const p = join(dir, "projects", s.key);
    mkdirSync(p, { recursive: true });
    if (s.recs) writeFileSync(join(p, `${s.id}.jsonl`), lines(s.recs));
    for (const [agent, recs] of Object.entries(s.subagents ?? {})) {
      mkdirSync(join(p, s.id, "subagents"), { recursive: true });
      writeFileSync(join(p, s.id, "subagents", `agent-${agent}.jsonl`), lines(recs));
    }
  }
  return dir;
}

const ALPHA = "/home/dev/alpha";
/** A of Nov 1; B resumed from it on Nov 2 (its file starts with A's records, sessionId A); D with a subagent that outlives its main file. */
function resumedHome(): string {
  const a = exchange({ session: A, cwd: ALPHA, tag: "A", at: "2026-11-01T10:00:00Z" });
  const b = [...a, ...exchange({ session: B, cwd: ALPHA, tag: "B", at: "2026-11-02T09:00:00Z" })];
  const d = exchange({ session: D, cwd: ALPHA, tag: "D", at: "2026-11-10T12:00:00Z" });
  const sub = exchange({ session: D, cwd: ALPHA, tag: "DS", at: "2026-11-10T12:00:30Z", agentId: "a1b2c3d" });
  return configDir([
    { key: "-home-dev-alpha", id: A, recs: a },
    { key: "-home-dev-alpha", id: B, recs: b },
    { key: "-home-dev-alpha", id: D, recs: d, subagents: { a1b2c3d: sub } },
  ]);
}

const ndjson = (dir: string, table: string) =>
  readFileSync(join(dir, `${table}.ndjson`), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

// ---- F5: a resumed session's times are its own records', not the copies it starts with

test("a resumed session starts at its own first record: --until the original's day does not select it", async () => {
  const home = resumedHome();
  const all = parseEnvelope(await runCli(["sessions", "--claude-dir", home, "--json"]), "sessions");
  const b = all.sessions.find((s: any) => s.sessionId === B);
  assert.equal(b.firstTimestamp, "2026-11-02T09:00:01.000Z", "B's own first record, not A's copy");
  const until = ["--claude-dir", home, "--until", "2026-11-01", "--tz", "UTC", "--json"];
  const listed = parseEnvelope(await runCli(["sessions", ...until]), "sessions");
  assert.deepEqual(
    listed.sessions.map((s: any) => s.sessionId),
    [A],
  );
  // The fleet commands filter by the same rule (their listing glances at the file's ends).
  const servers = parseEnvelope(await runCli(["servers", ...until]), "servers");
  assert.deepEqual(
    servers.sessions.map((s: any) => s.sessionId),
    [A],
  );
  const since = parseEnvelope(
    await runCli(["servers", "--claude-dir", home, "--since", "2026-11-02T00:00Z", "--until", "2026-11-03", "--tz", "UTC", "--json"]),
    "servers",
  );
  assert.deepEqual(
    since.sessions.map((s: any) => s.sessionId),
    [B],
  );
  const out = tmp("span");
  parseEnvelope(await runCli(["export", "--claude-dir", home, "--to", out, "--as", "ndjson", "--json"]), "export");
  const row = ndjson(out, "sessions").find((r) => r.session_id === B);
  assert.equal(row.first_timestamp, "2026-11-02T09:00:01.000Z");
});

// ---- F6: one time span for the listing, the filters and the export

test("sessions, --since and export's sessions table give a session one time span (its main file's own records)", async () => {
  const home = resumedHome();
  const listed = parseEnvelope(await runCli(["sessions", "--claude-dir", home, "--json"]), "sessions");
  const out = tmp("span6");
  parseEnvelope(await runCli(["export", "--claude-dir", home, "--to", out, "--as", "ndjson", "--json"]), "export");
  const rows = ndjson(out, "sessions");
  for (const s of listed.sessions) {
    const r = rows.find((x) => x.session_id === s.sessionId);
    assert.deepEqual([r.first_timestamp, r.last_timestamp], [s.firstTimestamp, s.lastTimestamp], s.sessionId);
  }
  const d = rows.find((x) => x.session_id === D);
  assert.equal(d.last_timestamp, "2026-11-10T12:00:04.000Z", "the subagent's later records are not the session's span");
  // --since past that last record exports nothing, and no table says the session ended later.
  const late = tmp("span6-late");
  const j = parseEnvelope(
    await runCli(["export", "--claude-dir", home, "--since", "2026-11-10T12:00:05Z", "--to", late, "--as", "ndjson", "--json"]),
    "export",
  );
  assert.equal(j.sessions, 0);
});

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
  // A folder with no schema.json of an earlier export: a file (or link) with a table's name is the user's, kept.
  const k = parseEnvelope(await runCli(["export", "--claude-dir", HOME, "--to", linkDir, "--as", "ndjson", "--json"]), "export");
  assert.equal(lstatSync(join(linkDir, "requests.parquet")).isSymbolicLink(), true);
  assert.equal(readFileSync(outside, "utf8"), "keep");
  assert.deepEqual(k.removed, []);
  const own = tmp("fmt-own");
  writeFileSync(join(own, "requests.parquet"), "my own data");
  const r = await runCli(["export", "--claude-dir", HOME, "--to", own, "--as", "ndjson", "--json"]);
  assert.equal(readFileSync(join(own, "requests.parquet"), "utf8"), "my own data");
  assert.match(r.stderr, /left 1 file\(s\) named as parquet tables that no earlier export's schema\.json claims/);
  // A schema.json that is a link (to a schema that would claim the file) is not trusted.
  const linked = tmp("fmt-linked");
  writeFileSync(join(linked, "requests.parquet"), "mine too");
  symlinkSync(join(dir, "schema.json"), join(linked, "schema.json"));
  parseEnvelope(await runCli(["export", "--claude-dir", HOME, "--to", linked, "--as", "parquet", "--json"]), "export");
  writeFileSync(join(linked, "requests.ndjson"), "mine as well");
  rmSync(join(linked, "schema.json"));
  symlinkSync(join(dir, "schema.json"), join(linked, "schema.json"));
  parseEnvelope(await runCli(["export", "--claude-dir", HOME, "--to", linked, "--as", "parquet", "--json"]), "export");
  assert.equal(readFileSync(join(linked, "requests.ndjson"), "utf8"), "mine as well");
  // A folder with a table's name is not a file of ours: left.
  const withFolder = tmp("fmt-folder");
  mkdirSync(join(withFolder, "tools.parquet"));
  parseEnvelope(await runCli(["export", "--claude-dir", HOME, "--to", withFolder, "--as", "ndjson", "--json"]), "export");
  assert.ok(existsSync(join(withFolder, "tools.parquet")));
});

// ---- F9: an old-layout agent file of no session is said, never silently dropped; review F5: when the
// session it names could be one (a uuid), it is that session, "main file missing", as an orphan subagents/ folder is

test("an old-layout agent-<8hex>.jsonl whose session has no main file is that session (main file missing) in every listing and lookup", async () => {
  const OLD = "e5e5e5e5-0000-4000-8000-000000000005";
  const LOST = "99999999-0000-4000-8000-000000000099";
  const cwd = "/home/dev/legacy";
  const main = exchange({ session: OLD, cwd, tag: "O", at: "2025-10-20T07:00:00Z", version: "2.0.64" });
  const home = configDir([{ key: "-home-dev-legacy", id: OLD, recs: main }]);
  const dir = join(home, "projects", "-home-dev-legacy");
  // 2.0.x: subagent files beside the sessions, agentId of 8 hex, the parent's sessionId on every record.
  writeFileSync(
    join(dir, "agent-1a2b3c4d.jsonl"),
    lines(exchange({ session: OLD, cwd, tag: "O1", at: "2025-10-20T07:00:10Z", agentId: "1a2b3c4d", version: "2.0.64" })),
  );
  writeFileSync(
    join(dir, "agent-9f9f9f9f.jsonl"),
    lines(exchange({ session: LOST, cwd, tag: "O2", at: "2025-10-21T07:00:00Z", agentId: "9f9f9f9f", version: "2.0.64" })),
  );
  // A session id that is no uuid names no session a lookup could find: that file is still said, not read.
  writeFileSync(
    join(dir, "agent-5e5e5e5e.jsonl"),
    lines(exchange({ session: "not-a-uuid", cwd, tag: "O3", at: "2025-10-22T07:00:00Z", agentId: "5e5e5e5e", version: "2.0.64" })),
  );
  const lost = join(dir, "agent-9f9f9f9f.jsonl");
  const odd = join(dir, "agent-5e5e5e5e.jsonl");
  const said = (j: any, p = lost) => (j.health.skipped ?? []).filter((s: any) => s.path === p);
  const sessions = parseEnvelope(await runCli(["sessions", "--claude-dir", home, "--json"]), "sessions");
  assert.deepEqual(
    sessions.sessions.map((s: any) => [s.sessionId, s.subagents, s.mainFileMissing, s.requests, s.firstTimestamp]),
    [
      [LOST, 1, true, 0, "2025-10-21T07:00:01.000Z"],
      [OLD, 1, false, 2, "2025-10-20T07:00:01.000Z"],
    ],
  );
  assert.equal(said(sessions).length, 0);
  assert.match(said(sessions, odd)[0].reason, /old-layout subagent file of session not-a-uuid/);
  const table = await runCli(["sessions", "--claude-dir", home, "--wide"]);
  assert.match(table.stdout, new RegExp(`${LOST} \\(main file missing\\)`));
  const servers = parseEnvelope(await runCli(["servers", "--claude-dir", home, "--json"]), "servers");
  assert.equal(said(servers).length, 0);
  assert.equal(said(servers, odd).length, 1);
  assert.equal(servers.servers.find((s: any) => s.name === "db").toolCalls, 3, "both agent files of a uuid session are read");
  const out = tmp("old");
  const r = await runCli(["export", "--claude-dir", home, "--to", out, "--as", "ndjson", "--json"]);
  assert.equal(said(parseEnvelope(r, "export")).length, 0);
  const exported = readFileSync(join(out, "sessions.ndjson"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(exported.map((x: any) => x.session_id).sort(), [LOST, OLD].sort());
  // Looked up by id (exact, a prefix, or as evidence names it) it reads its agent file, as an orphan folder is read.
  for (const id of [LOST, LOST.slice(0, 12)]) {
    const one = await runCli(["requests", id, "--claude-dir", home, "--json"]);
    assert.equal(one.code, 0, one.stderr);
    const j = parseEnvelope(one, "requests");
    assert.deepEqual(
      j.totals.map((t: any) => [t.chain, t.requests]),
      [["9f9f9f9f", 2]],
    );
    assert.deepEqual(
      j.inputs.map((i: any) => [i.kind, i.path]),
      [["subagent-transcript", lost]],
    );
  }
  const text = await runCli(["requests", LOST, "--claude-dir", home]);
  assert.match(
    text.stdout,
    new RegExp(`main file missing: ${LOST}\\.jsonl is not beside its old-layout agent-\\*\\.jsonl files; read its 1 subagent file`),
  );
  const rep = parseEnvelope(await runCli(["report", LOST, "--claude-dir", home, "--json"]), "report");
  assert.deepEqual([rep.summary.mainFileMissing, rep.summary.requestsAllChains], [true, 2]);
  // A lookup of the session that owns its agent file names nothing skipped.
  const own = parseEnvelope(await runCli(["requests", OLD, "--claude-dir", home, "--json"]), "requests");
  assert.equal(said(own).length, 0);
});

// ---- F4: one session id read twice never gives two rows one key

const dupKeys = (rows: any[], key: string[]) => rows.length - new Set(rows.map((r) => JSON.stringify(key.map((k) => r[k])))).size;
const TABLE_KEYS: Record<string, string[]> = {
  sessions: ["session_id"],
  requests: ["session_id", "chain", "request_index"],
  tool_results: ["session_id", "chain", "result_index"],
  instructions: ["session_id", "chain", "delivery_index"],
  tools: ["session_id", "tool"],
};

test("the same transcript given twice (an id twice, or an id and its path) is read once", async () => {
  const home = resumedHome();
  const path = join(home, "projects", "-home-dev-alpha", `${A}.jsonl`);
  const out = tmp("twice");
  const r = await runCli(["export", A.slice(0, 8), path, "--claude-dir", home, "--to", out, "--as", "ndjson", "--json"]);
  parseEnvelope(r, "export");
  assert.match(r.stderr, /the same transcript as a1a1a1a1, read once/);
  for (const [t, key] of Object.entries(TABLE_KEYS)) assert.equal(dupKeys(ndjson(out, t), key), 0, t);
  assert.equal(ndjson(out, "sessions").length, 1);
  const servers = parseEnvelope(await runCli(["servers", A, A, "--claude-dir", home, "--json"]), "servers");
  assert.equal(servers.sessions.length, 1);
  assert.equal(servers.servers.find((s: any) => s.name === "db").toolCalls, 1);
});

test("one session id in two files (two config dirs, two projects): both kept, the later keyed <id>~2, and said", async () => {
  const a = exchange({ session: A, cwd: ALPHA, tag: "A", at: "2026-11-01T10:00:00Z" });
  // A config dir copied to a second place (not a link), and the same id under another project with other records.
  const one = configDir([{ key: "-home-dev-alpha", id: A, recs: a }]);
  const two = configDir([
    { key: "-home-dev-alpha", id: A, recs: a },
    { key: "-home-dev-zeta", id: A, recs: exchange({ session: A, cwd: "/home/dev/zeta", tag: "Z", at: "2026-11-03T10:00:00Z" }) },
  ]);
  const listed = await runCli(["sessions", "--claude-dir", one, "--claude-dir", two, "--json"]);
  const j = parseEnvelope(listed, "sessions");
  assert.equal(j.sessions.length, 3, "each file is a row");
  assert.match(listed.stderr, new RegExp(`session id ${A} is in 3 different files: ${A}: .*${A}~2: .*${A}~3: `));
  const out = tmp("dup");
  const r = await runCli(["export", "--claude-dir", one, "--claude-dir", two, "--to", out, "--as", "ndjson", "--json"]);
  parseEnvelope(r, "export");
  for (const [t, key] of Object.entries(TABLE_KEYS)) assert.equal(dupKeys(ndjson(out, t), key), 0, t);
  // Keyed in the order the listing reads them (by path): the first keeps the id.
  const paths = [
    join(one, "projects", "-home-dev-alpha", `${A}.jsonl`),
    join(two, "projects", "-home-dev-alpha", `${A}.jsonl`),
    join(two, "projects", "-home-dev-zeta", `${A}.jsonl`),
  ].sort((x, y) => x.localeCompare(y));
  assert.deepEqual(
    ndjson(out, "sessions").map((s) => [s.session_id, s.transcript]),
    paths.map((p, i) => [i === 0 ? A : `${A}~${i + 1}`, p]),
  );
  assert.match(r.stderr, new RegExp(`session id ${A} is in 2 different files: .* is keyed ${A}~2`));
  assert.match(r.stderr, new RegExp(`session id ${A} is in 3 different files: .* is keyed ${A}~3`));
  // The rows of each file carry its key, so a join on session_id stays within one file.
  assert.deepEqual([...new Set(ndjson(out, "requests").map((x) => x.session_id))].sort(), [A, `${A}~2`, `${A}~3`]);
});

// ---- F8: the reference says what sharedRequests and deltaTokensUnknown count

test("servers: sharedRequests counts a request shared with a built-in's result, deltaTokensUnknown counts results; the reference says so", async () => {
  const cwd = "/home/dev/shared";
  const env = (i: number) => ({
    parentUuid: i === 1 ? null : `S-u${i - 1}`,
    isSidechain: false,
    userType: "external",
    cwd,
    sessionId: A,
    version: "2.1.30",
    uuid: `S-u${i}`,
    timestamp: new Date(Date.UTC(2026, 10, 1, 10, 0, i)).toISOString(),
  });
  const asst = (i: number, id: string, content: object[], cc: number, cr: number) => ({
    ...env(i),
    type: "assistant",
    requestId: `req_${id}`,
    message: {
      id,
      type: "message",
      role: "assistant",
      model: "claude-opus-4-6",
      content,
      stop_reason: "tool_use",
      usage: { input_tokens: 3, cache_creation_input_tokens: cc, cache_read_input_tokens: cr, output_tokens: 9 },
    },
  });
  const result = (i: number, id: string, text: string) => ({
    ...env(i),
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: text }] },
  });
  const recs = [
    { ...env(1), type: "user", message: { role: "user", content: "go" } },
    // One request calls db and Bash in parallel; the next carries both results: db's only carrying request is shared with a built-in.
    asst(
      2,
      "msg_1",
      [
        { type: "tool_use", id: "toolu_db1", name: "mcp__db__query", input: {} },
        { type: "tool_use", id: "toolu_sh1", name: "Bash", input: { command: "ls" } },
      ],
      1000,
      0,
    ),
    result(3, "toolu_db1", "x".repeat(500)),
    result(4, "toolu_sh1", "y".repeat(100)),
    asst(5, "msg_2", [{ type: "tool_use", id: "toolu_db2", name: "mcp__db__query", input: {} }], 300, 1000),
    result(6, "toolu_db2", "z".repeat(200)),
    // Two db results written before a compaction boundary: no request's growth is theirs.
    asst(7, "msg_3", [{ type: "tool_use", id: "toolu_db3", name: "mcp__db__query", input: {} }], 0, 1600),
    result(8, "toolu_db3", "w".repeat(50)),
    {
      ...env(9),
      type: "system",
      subtype: "compact_boundary",
      content: "Conversation compacted",
      compactMetadata: { trigger: "auto", preTokens: 1700 },
    },
    asst(10, "msg_4", [{ type: "text", text: "ok" }], 400, 0),
  ];
  const home = configDir([{ key: "-home-dev-shared", id: A, recs }]);
  const j = parseEnvelope(await runCli(["servers", "--claude-dir", home, "--json"]), "servers");
  const db = j.servers.find((s: any) => s.name === "db");
  assert.equal(db.results, 3);
  assert.equal(db.sharedRequests, 1, "the request that carried db's and Bash's results");
  assert.equal(db.deltaTokensUnknown, 1, "the one result before the boundary");
  const ref = readFileSync(join(ROOT, "docs", "REFERENCE.md"), "utf8");
  assert.doesNotMatch(ref, /a request that carried results of two servers counts for both/);
  assert.match(ref, /`deltaTokensUnknown`, one per result, not per request/);
  assert.match(ref, /of a built-in tool such as Bash/);
});
