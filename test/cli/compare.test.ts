import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { golden, parseEnvelope, runCli, sample } from "../helpers.js";

const EXPECTED = JSON.parse(readFileSync(sample("runs", "EXPECTED.json"), "utf8"));

test("compare a runs dir: the seed's per-run figures, computed from each run's own files", async () => {
  const j = parseEnvelope(await runCli(["compare", "samples/runs", "--json"]), "compare");
  assert.equal(j.baseline, "none");
  assert.equal(j.runs.length, 12);
  const by = Object.fromEntries(j.runs.map((r: any) => [r.run, r]));
  const want: Record<string, [number, number, number | null, boolean | null, number | null]> = {
    "none-a": [20138, 0, null, null, null],
    "en-1000-a": [20515, 377, 1000, false, 763],
    "en-5000-b": [20859, 721, 2061, true, 2009],
    "ja-3000-a": [21865, 1727, 2061, true, 2026],
    "en-20000-limit25000-a": [26716, 6578, 20000, false, 19808],
    "dual-era-b": [20519, 381, 1000, false, 763],
  };
  for (const [run, [first, delta, chars, truncated, last]] of Object.entries(want)) {
    const r = by[run];
    assert.deepEqual(
      [r.firstRequestTokens, r.deltaVsBaseline, r.instructionChars, r.truncated, r.probeLast],
      [first, delta, chars, truncated, last],
      run,
    );
    // A run with nothing delivered has nothing to match: its NONE answer is neither right nor wrong.
    assert.equal(r.answerMatches, run.startsWith("none") ? null : true, `${run}: answer held against what was delivered`);
  }
  assert.equal(by["ja-3000-a"].utf8Bytes, 5467);
  assert.equal(by["dual-era-a"].era, "modern");
  assert.equal(by["dual-era-a"].debugEra, "modern");
  assert.equal(by["en-5000-a"].era, "legacy");
  assert.equal(by["en-5000-a"].firstMethod, "server/discover");
  assert.ok(Math.abs(by["en-5000-a"].tokensPerChar - 721 / 2061) < 1e-9);
  // Every run against the generator's own figures (samples/runs/EXPECTED.json).
  for (const e of EXPECTED.runs) {
    const r = by[e.folder];
    assert.equal(r.session, e.session, e.folder);
    assert.equal(r.deltaVsBaseline, e.deltaVsBaseline, `${e.folder}: delta`);
    assert.equal(r.costUsd, e.cost.total, `${e.folder}: cost`);
    assert.equal(r.instructionChars, e.instructions?.chars ?? null, `${e.folder}: chars`);
    assert.equal(r.utf8Bytes, e.instructions?.utf8Bytes ?? null, `${e.folder}: bytes`);
    assert.equal(r.sourceChars, e.instructions?.truncated ? e.sourceChars : r.sourceChars, `${e.folder}: source`);
    assert.equal(r.firstMethod, e.rpc.firstMethod);
    assert.equal(r.era, e.rpc.era, `${e.folder}: era`);
    assert.equal(r.initializeMsAfterProbe, e.rpc.initializeMsAfterProbe ?? null, `${e.folder}: init after probe`);
    assert.equal(r.answer, e.answer, `${e.folder}: answer`);
  }
});

test("compare groups repeats of a label and shows their spread", async () => {
  const j = parseEnvelope(await runCli(["compare", "samples/runs", "--json"]), "compare");
  const g = Object.fromEntries(j.groups.map((x: any) => [x.label, x]));
  assert.deepEqual([g["dual-era"].runs, g["dual-era"].spread, g["dual-era"].deltaVsBaseline], [2, 4, 379]);
  assert.deepEqual([g["en-5000"].spread, g["en-5000"].answersAgree, g["en-5000"].truncated], [0, true, true]);
});

test("a manifest gives the same rows as the runs dir; --baseline picks another label", async () => {
  const dir = parseEnvelope(await runCli(["compare", "samples/runs", "--json"]), "compare");
  const man = parseEnvelope(await runCli(["compare", "samples/runs/manifest.json", "--json"]), "compare");
  const key = (r: any) => `${r.label}:${r.session}:${r.firstRequestTokens}:${r.instructionChars}`;
  assert.deepEqual(man.runs.map(key).sort(), dir.runs.map(key).sort());
  const vs = parseEnvelope(await runCli(["compare", "samples/runs/manifest.json", "--baseline", "en-1000", "--json"]), "compare");
  assert.equal(vs.runs.find((r: any) => r.label === "en-5000").deltaVsBaseline, 344);
  const bad = await runCli(["compare", "samples/runs", "--baseline", "nope"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /no run has that label/);
});

test("--columns chooses from the documented set; an unknown column is a usage error", async () => {
  const r = await runCli([
    "compare",
    "samples/runs",
    "--columns",
    "label,run,firstRequestTokens,deltaVsBaseline,probeLast",
    "--format",
    "csv",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.split("\r\n")[0], "table,label,run,firstRequestTokens,deltaVsBaseline,probeLast");
  const bad = await runCli(["compare", "samples/runs", "--columns", "label,bogus"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown bogus; choose from label, run,/);
});

test("a run that cannot be read keeps its row with the error, the others still come out, exit 1", async () => {
  const d = mkdtempSync(join(tmpdir(), "ccf-man-"));
  const f = join(d, "m.json");
  const runs = join(process.cwd(), "samples", "runs");
  writeFileSync(
    f,
    JSON.stringify([
      { label: "none", session: "a54c88de-f9ed-48a4-b281-c72647816283", claudeDir: join(runs, "none-a", "claude") },
      { label: "broken", session: "deadbeefdead", claudeDir: join(runs, "none-a", "claude") },
    ]),
  );
  const r = await runCli(["compare", f, "--json"]);
  assert.equal(r.code, 1);
  const j = JSON.parse(r.stdout);
  assert.equal(j.runs[0].firstRequestTokens, 20138);
  assert.match(j.runs[1].error, /no session matches "deadbeefdead"/);
  // The whole error, on one line: where it looked is what mends the manifest; and the session it named.
  assert.ok(j.runs[1].error.includes(join(runs, "none-a", "claude", "projects")), j.runs[1].error);
  assert.doesNotMatch(j.runs[1].error, /\n/);
  assert.equal(j.runs[1].session, "deadbeefdead");
  assert.match(r.stderr, /1 of 2 run\(s\) could not be read/);
});

test("a manifest with an unknown key or no label is a usage error naming the place", async () => {
  const d = mkdtempSync(join(tmpdir(), "ccf-man-"));
  const f = join(d, "m.json");
  writeFileSync(f, JSON.stringify([{ label: "a", session: "x.jsonl", sesion: "typo" }]));
  const r = await runCli(["compare", f]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /m\.json: run 1: unknown key "sesion"/);
});

test("compare --chart draws one bar per run; markdown is the blog table", async () => {
  const out = join(mkdtempSync(join(tmpdir(), "ccf-cmp-")), "first.svg");
  const r = await runCli(["compare", "samples/runs", "--chart", out, "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((readFileSync(out, "utf8").match(/aria-roledescription="bar"/g) ?? []).length, 12);
  golden("runs/compare.md", r.stdout);
});

/** samples/runs copied to a temp dir, each named run.json changed by `edit` (its text, as JSON or raw). */
function editedRuns(edits: Record<string, (json: any, text: string) => unknown>): string {
  const runs = join(mkdtempSync(join(tmpdir(), "ccf-cmp-runs-")), "runs");
  cpSync(sample("runs"), runs, { recursive: true });
  for (const [run, edit] of Object.entries(edits)) {
    const f = join(runs, run, "run.json");
    const text = readFileSync(f, "utf8");
    const out = edit(JSON.parse(text), text);
    writeFileSync(f, typeof out === "string" ? out : JSON.stringify(out));
  }
  return runs;
}

test("a run whose claude timed out or exited non-zero: its row shows why, it is left out of the groups and the fit, exit 1", async () => {
  const runs = editedRuns({
    "en-1000-a": (j) => ({ ...j, exitCode: null, signal: "SIGTERM", timedOut: true, stderr: "stderr.txt" }),
    "en-5000-a": (j) => ({ ...j, exitCode: 3 }),
  });
  const r = await runCli(["compare", runs, "--json"]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /2 of 12 run\(s\) could not be read or did not finish/);
  assert.match(r.stderr, /en-1000-a \(.*run\.json\): claude did not finish: stopped by --timeout-ms \(see stderr\.txt\); left out of/);
  const j = JSON.parse(r.stdout);
  const by = Object.fromEntries(j.runs.map((x: any) => [x.run, x]));
  assert.equal(by["en-1000-a"].error, "claude did not finish: stopped by --timeout-ms (see stderr.txt)");
  assert.equal(by["en-5000-a"].error, "claude did not finish: claude exited 3");
  // What the transcript holds is still shown, but it is no measurement: no delta.
  assert.deepEqual([by["en-1000-a"].firstRequestTokens, by["en-1000-a"].deltaVsBaseline], [20515, null]);
  assert.equal(by["en-1000-b"].error, null);
  assert.equal(by["en-1000-b"].deltaVsBaseline, 377);
  const g = Object.fromEntries(j.groups.map((x: any) => [x.label, x]));
  assert.deepEqual([g["en-1000"].runs, g["en-5000"].runs, g["none"].runs], [1, 1, 2]);
  assert.ok(!j.fit.residuals.some((x: any) => x.run === "en-1000-a" || x.run === "en-5000-a"));
  assert.ok(j.fit.residuals.some((x: any) => x.run === "en-1000-b"));
  const md = await runCli(["compare", runs, "--format", "markdown"]);
  assert.equal(md.code, 1);
  assert.match(md.stdout, /left out of the groups, the baseline and the fit \(their error says why\): en-1000-a, en-5000-a/);
  assert.match(md.stdout, /\| en-1000 \| en-1000-a \| 20,515 \|.*\| claude did not finish: stopped by --timeout-ms \(see stderr\.txt\) \|/);
  // A baseline run that failed does not set the mean the others are measured against.
  const failedBase = await runCli(["compare", editedRuns({ "none-a": (j) => ({ ...j, exitCode: 1 }) }), "--json"]);
  assert.equal(failedBase.code, 1);
  const base = JSON.parse(failedBase.stdout);
  assert.equal(base.groups.find((x: any) => x.label === "none").runs, 1);
  assert.equal(base.runs.find((x: any) => x.run === "en-1000-a").deltaVsBaseline, 377);
  assert.doesNotMatch(failedBase.stderr, /none of its runs finished/);
  // Every run of the baseline failed: every Δ is unknown, and a warning says why instead of silent nulls.
  const noBase = await runCli([
    "compare",
    editedRuns({ "none-a": (j) => ({ ...j, exitCode: 1 }), "none-b": (j) => ({ ...j, exitCode: 1 }) }),
    "--json",
  ]);
  assert.equal(noBase.code, 1);
  assert.ok(JSON.parse(noBase.stdout).runs.every((x: any) => x.deltaVsBaseline === null));
  assert.match(noBase.stderr, /baseline none: none of its runs finished, so no run has a Δ vs baseline/);
});

test("a bad run.json is that run's row naming its folder, the others are compared, exit 1; an unknown run.json key is passed over", async () => {
  const runs = editedRuns({
    "en-1000-a": (_, text) => text.slice(0, 60),
    "en-5000-a": (j) => ({ ...j, session: 42 }),
    "ja-3000-a": (j) => ({ ...j, newField: 1 }),
  });
  const r = await runCli(["compare", runs, "--json"]);
  assert.equal(r.code, 1, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.runs.length, 12);
  const by = Object.fromEntries(j.runs.map((x: any) => [x.run, x]));
  assert.ok(
    by["en-1000-a"].error.startsWith(`bad run.json: ${join(runs, "en-1000-a", "run.json")}: not a valid JSON object`),
    by["en-1000-a"].error,
  );
  assert.match(by["en-5000-a"].error, /^bad run\.json: .*en-5000-a\/run\.json: "session" must be/);
  assert.equal(by["ja-3000-a"].error, null, "a newer run's extra key is not an error");
  assert.equal(by["ja-3000-a"].firstRequestTokens, 21865);
  assert.equal(by["en-1000-b"].deltaVsBaseline, 377);
  assert.match(r.stderr, /2 of 12 run\(s\) could not be read/);
});

test("several servers' logs named by server: a tool both list is told apart by its log's server, no 'server unknown' warning", async () => {
  const d = mkdtempSync(join(tmpdir(), "ccf-cmp-two-"));
  const t = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
  const rec = { sessionId: "s1", cwd: "/w", version: "1" };
  writeFileSync(
    join(d, "t.jsonl"),
    [
      { ...rec, type: "user", uuid: "u1", parentUuid: null, timestamp: t(0), message: { role: "user", content: "hi" } },
      {
        ...rec,
        type: "assistant",
        uuid: "a1",
        parentUuid: "u1",
        timestamp: t(1),
        message: {
          id: "msg_1",
          model: "claude-x",
          role: "assistant",
          content: ["alpha", "zeta"].map((s, i) => ({ type: "tool_use", id: `toolu_${i}`, name: `mcp__${s}__lookup_part`, input: {} })),
          usage: { input_tokens: 3, cache_creation_input_tokens: 100, cache_read_input_tokens: 0, output_tokens: 5 },
        },
      },
    ]
      .map((r) => JSON.stringify(r))
      .join("\n") + "\n",
  );
  const log = [
    {
      dir: "in",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    },
    { dir: "out", id: 1, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "lab", version: "1" } } },
    { dir: "in", id: 2, method: "tools/list" },
    { dir: "out", id: 2, result: { tools: [{ name: "lookup_part", description: "d", inputSchema: { type: "object" } }] } },
  ];
  for (const s of ["alpha", "zeta"])
    writeFileSync(join(d, `${s}.jsonl`), log.map((m, i) => JSON.stringify({ t: t(i), jsonrpc: "2.0", ...m })).join("\n") + "\n");
  // As run.json has them: the first log, and every log by the server it belongs to.
  writeFileSync(
    join(d, "m.json"),
    JSON.stringify([{ label: "two", session: "t.jsonl", rpcLog: "alpha.jsonl", rpcLogs: { alpha: "alpha.jsonl", zeta: "zeta.jsonl" } }]),
  );
  const r = await runCli(["compare", join(d, "m.json")]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /server unknown/);
});

test("hints say what a runs dir and --baseline are: no --claude-dir hint a runs dir ignores; --baseline a label; run's --claude-dir only protects", async () => {
  const runs = editedRuns({ "none-a": (j) => ({ ...j, session: "deadbeef-0000-4000-8000-000000000000" }) });
  const r = await runCli(["compare", runs, "--json"]);
  assert.equal(r.code, 1);
  const row = JSON.parse(r.stdout).runs.find((x: any) => x.run === "none-a");
  assert.match(row.error, /^no session matches "deadbeef-0000-4000-8000-000000000000"/);
  assert.doesNotMatch(row.error, /--claude-dir|CLAUDE_CONFIG_DIR/);
  assert.match(row.error, /looked up only in its run folder's own config dir/);
  const help = await runCli(["compare", "--help"]);
  assert.match(help.stdout, /--baseline\s+LABEL whose runs/);
  assert.doesNotMatch(help.stdout, /\(target\)/);
  const run = await runCli(["run", "--help"]);
  assert.match(run.stdout, /--claude-dir\s+a config dir --out must not be written into/);
});

test("a run.json with rpcLogs but no rpcLog (its first server wrote no log): the first log is the run's message log, read as rpcLog is", async () => {
  const root = mkdtempSync(join(tmpdir(), "ccf-cmp-plural-"));
  const read = async (form: "singular" | "plural") => {
    const runs = join(root, form);
    cpSync(sample("outputs", "staircase-runs", "words-52000-a"), join(runs, "r"), { recursive: true });
    const log = join(runs, "r", "rpc-log.jsonl");
    // The server gave no tools/list answer: the size-checked MCP result's annotations are unknown, and compare says so.
    const lines = readFileSync(log, "utf8").split("\n");
    writeFileSync(log, lines.filter((l) => !l.includes('"id":1')).join("\n"));
    const f = join(runs, "r", "run.json");
    const j = JSON.parse(readFileSync(f, "utf8"));
    if (form === "plural") delete j.rpcLog;
    writeFileSync(f, JSON.stringify(j));
    const r = await runCli(["compare", runs, "--json"]);
    return { code: r.code, stderr: r.stderr.replaceAll(runs, "<runs>"), stdout: r.stdout.replaceAll(runs, "<runs>") };
  };
  const singular = await read("singular");
  const plural = await read("plural");
  assert.equal(singular.code, 0, singular.stderr);
  assert.match(singular.stderr, /<runs>\/r\/rpc-log\.jsonl: no tools\/list response in the message log; tool annotations unknown/);
  assert.deepEqual(plural, singular);
  const j = JSON.parse(plural.stdout);
  assert.deepEqual(
    j.inputs.map((i: any) => i.kind),
    ["transcript", "debug-log", "stream-json", "rpc-log", "tool-result"],
  );
  assert.equal(j.runs[0].firstMethod, "server/discover");
});

test("\"rpcLogs\" that is one path as a string is said, not read as no log: a manifest's usage error, a run.json's error row", async () => {
  const d = mkdtempSync(join(tmpdir(), "ccf-man-logs-"));
  cpSync(sample("outputs", "staircase-runs", "words-30000-a"), join(d, "runs", "r"), { recursive: true });
  const f = join(d, "m.json");
  writeFileSync(
    f,
    JSON.stringify([
      { label: "a", session: "runs/r/claude/projects/x.jsonl", claudeDir: "runs/r/claude", rpcLogs: "runs/r/rpc-log.jsonl" },
    ]),
  );
  const r = await runCli(["compare", f]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /m\.json: run 1: "rpcLogs" must name paths: a list, or an object of server name: path/);
  const runJson = join(d, "runs", "r", "run.json");
  const j = JSON.parse(readFileSync(runJson, "utf8"));
  delete j.rpcLog;
  writeFileSync(runJson, JSON.stringify({ ...j, rpcLogs: "rpc-log.jsonl" }));
  const dir = await runCli(["compare", join(d, "runs"), "--json"]);
  assert.equal(dir.code, 1, dir.stderr);
  assert.match(JSON.parse(dir.stdout).runs[0].error, /^bad run\.json: .*"rpcLogs" must name paths/);
});

test("a run's damaged lines (read despite a NUL run) are its row's damaged count, apart from malformed", async () => {
  const runs = editedRuns({});
  const dir = join(runs, "en-1000-a", "claude", "projects", "-tmp-lab");
  const f = join(dir, "5e4ed3f9-f22b-4251-b240-026ff431363e.jsonl");
  // A crash remnant before a record that is still read, and one line that is not JSON at all.
  writeFileSync(f, `${readFileSync(f, "utf8")}${"\0".repeat(64)}{"type":"summary","summary":"s","leafUuid":"x"}\nnot json\n`);
  const r = await runCli(["compare", runs, "--json", "--columns", "run,malformed,damaged"]);
  const j = JSON.parse(r.stdout);
  const by = Object.fromEntries(j.runs.map((x: any) => [x.run, x]));
  assert.deepEqual([by["en-1000-a"].malformed, by["en-1000-a"].damaged], [1, 1]);
  assert.deepEqual([by["en-1000-b"].malformed, by["en-1000-b"].damaged], [0, 0]);
  const csv = await runCli(["compare", runs, "--format", "csv", "--columns", "run,malformed,damaged"]);
  assert.ok(
    csv.stdout.split("\r\n").some((l) => l.endsWith(",en-1000-a,1,1")),
    csv.stdout,
  );
});
