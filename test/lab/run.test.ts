import { test } from "node:test";
import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseMatrix, repeatLetter } from "../../src/lab/matrix.js";
import { absoluteArgs, planRuns } from "../../src/lab/run-plan.js";
import { codewordsFor } from "../../src/lab/instructions-text.js";
import { CLI, parseEnvelope, runCli } from "../helpers.js";
import { writeFakeClaude } from "./fake-claude.js";

const tmp = () => mkdtempSync(join(tmpdir(), "ccf-run-"));
const PROMPT = "Reply with BEGIN=… END=… LAST=…";

function matrixFile(dir: string, m: unknown): string {
  const f = join(dir, "matrix.json");
  writeFileSync(f, JSON.stringify(m));
  return f;
}

test("matrix: every mistake names the file and the place", () => {
  const bad: Array<[string, RegExp]> = [
    ["{", /m\.json: not valid JSON/],
    ["[]", /expected a JSON object/],
    ['{"prompt":"p"}', /configs: must be a non-empty array/],
    ['{"prompt":"p","configs":[{"label":"a"}],"repeats":2}', /top level: unknown key "repeats"/],
    ['{"prompt":"p","configs":[{"label":"a b"}]}', /configs\[0\]\.label: must be a folder-safe name/],
    ['{"prompt":"p","configs":[{"label":"a"},{"label":"a"}]}', /configs\[1\]\.label: "a" is used twice/],
    ['{"prompt":"p","configs":[{"label":"a","server":"big"}]}', /configs\[0\]\.server: must be one of instructions, output, none/],
    ['{"prompt":"p","configs":[{"label":"a","serverArgs":["--log","x"]}]}', /run sets --log itself/],
    ['{"prompt":"p","configs":[{"label":"a","serverArg":[]}]}', /configs\[0\]: unknown key "serverArg"/],
    ['{"configs":[{"label":"a"}]}', /configs\[0\]: no prompt/],
    ['{"prompt":"p","repeat":0,"configs":[{"label":"a"}]}', /repeat: must be a whole number/],
    ['{"prompt":"p","configs":[{"label":"a","env":{"X":{}}}]}', /configs\[0\]\.env\.X: must be a string/],
    ['{"prompt":"p","configs":[{"label":"a","serverEntry":{"command":"x"}}]}', /serverEntry\.command: is set by run/],
  ];
  for (const [text, rx] of bad)
    assert.throws(
      () => parseMatrix(text, "m.json"),
      (e: Error) => e.name === "UsageError" && rx.test(e.message),
      text,
    );
  assert.deepEqual([0, 1, 25, 26, 27, 51, 52].map(repeatLetter), ["a", "b", "z", "aa", "ab", "az", "ba"]);
});

test("plan: folders, the seed's claude -p command line, env cleaned of the enclosing session, config env and prompt/args overrides", () => {
  const m = parseMatrix(
    JSON.stringify({
      prompt: PROMPT,
      repeat: 2,
      args: ["--max-turns", "1"],
      env: { A: "1" },
      configs: [
        { label: "en-5000", serverArgs: ["--chars", "5000"] },
        {
          label: "late",
          serverArgs: ["--init-delay-ms", "8000"],
          env: { CLAUDE_CODE_MCP_STARTUP_WAIT_MS: 0 },
          args: ["--max-turns", "3"],
          prompt: "sleep first",
        },
        { label: "big", server: "output", serverEntry: { alwaysLoad: true } },
        { label: "base", server: "none", args: ["--settings", "{}"] },
      ],
    }),
    "m.json",
  );
  const env = { PATH: "/bin", CLAUDECODE: "1", CLAUDE_CODE_ENTRYPOINT: "cli", CLAUDE_CODE_USE_BEDROCK: "1", MAX_MCP_OUTPUT_TOKENS: "5000" };
  const plans = planRuns(m, { outDir: "/r", cliPath: "/x/dist/cli.js", nodePath: "/usr/bin/node", matrixDir: "/m", env });
  assert.deepEqual(
    plans.map((p) => p.folder),
    ["en-5000-a", "en-5000-b", "late-a", "late-b", "big-a", "big-b", "base-a", "base-b"],
  );
  const p = plans[0]!;
  assert.deepEqual(
    [p.claude, ...p.args],
    [
      "claude",
      "-p",
      PROMPT,
      "--output-format",
      "stream-json",
      "--verbose",
      "--strict-mcp-config",
      "--mcp-config",
      "/r/en-5000-a/mcp.json",
      "--debug-file",
      "/r/en-5000-a/debug.txt",
      "--settings",
      '{"disableAllHooks": true}',
      "--max-turns",
      "1",
    ],
  );
  assert.deepEqual(p.mcpConfig, {
    mcpServers: {
      lab: {
        type: "stdio",
        command: "/usr/bin/node",
        args: ["/x/dist/cli.js", "lab", "instructions", "--chars", "5000", "--log", "/r/en-5000-a/rpc-log.jsonl"],
      },
    },
  });
  assert.deepEqual(p.envRemoved, ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"]);
  assert.equal(p.childEnv.CLAUDECODE, undefined);
  assert.equal(p.childEnv.CLAUDE_CODE_USE_BEDROCK, "1", "auth settings pass through");
  assert.deepEqual(p.envInherited, { MAX_MCP_OUTPUT_TOKENS: "5000" });
  assert.deepEqual(p.env, { A: "1" });
  const late = plans[2]!;
  assert.deepEqual(late.args.slice(0, 2), ["-p", "sleep first"]);
  assert.deepEqual(late.args.slice(-2), ["--max-turns", "3"]);
  assert.equal(late.childEnv.CLAUDE_CODE_MCP_STARTUP_WAIT_MS, "0");
  assert.deepEqual(plans[4]!.mcpConfig, {
    mcpServers: {
      big: {
        type: "stdio",
        command: "/usr/bin/node",
        args: ["/x/dist/cli.js", "lab", "output", "--log", "/r/big-a/rpc-log.jsonl"],
        alwaysLoad: true,
      },
    },
  });
  assert.deepEqual(plans[6]!.mcpConfig, { mcpServers: {} });
  assert.deepEqual(plans[6]!.args.slice(-2), ["--settings", "{}"], "a config's own --settings replaces run's");
  assert.equal(plans[6]!.args.filter((a) => a === "--settings").length, 1);
  assert.equal(
    planRuns(m, { outDir: "/r", cliPath: "c", nodePath: "n", matrixDir: "/m", env: { CLAUDE_CONFIG_DIR: "rel/dir" } })[0]!.claudeDir,
    join(process.cwd(), "rel/dir"),
  );
  assert.deepEqual(
    planRuns(m, { outDir: "/r", cliPath: "c", nodePath: "n", matrixDir: "/m", env, only: ["big"] }).map((x) => x.folder),
    ["big-a", "big-b"],
  );
  assert.throws(
    () => planRuns(m, { outDir: "/r", cliPath: "c", nodePath: "n", matrixDir: "/m", env, only: ["nope"] }),
    /--only: no configuration labelled "nope"/,
  );
  const owned = parseMatrix(JSON.stringify({ prompt: "p", configs: [{ label: "a", args: ["--output-format", "json"] }] }), "m.json");
  assert.throws(
    () => planRuns(owned, { outDir: "/r", cliPath: "c", nodePath: "n", matrixDir: "/m", env }),
    /args --output-format are set by run itself/,
  );
  const rel = parseMatrix(JSON.stringify({ prompt: "p", claude: "./bin/claude", configs: [{ label: "a" }] }), "m.json");
  assert.equal(planRuns(rel, { outDir: "/r", cliPath: "c", nodePath: "n", matrixDir: "/m", env })[0]!.claude, "/m/bin/claude");
});

test("plan: every path a matrix's args pass to claude is made absolute against the matrix's folder; the paths run owns are refused", () => {
  const env = { PATH: "/bin" };
  // --plugin-dir takes several directories, as --add-dir does: each is made absolute, not only the first.
  const m = parseMatrix(
    JSON.stringify({
      prompt: "p",
      configs: [
        {
          label: "a",
          args: [
            "--plugin-dir",
            "p1",
            "../p2",
            "/p3",
            "--append-system-prompt-file=a.txt",
            "--system-prompt-file",
            "s.txt",
            "--max-turns",
            "2",
          ],
        },
      ],
    }),
    "m.json",
  );
  const [run] = planRuns(m, { outDir: "/r", cliPath: "c", nodePath: "n", matrixDir: "/m/x", env });
  assert.deepEqual(run!.args.slice(-9), [
    "--plugin-dir",
    "/m/x/p1",
    "/m/p2",
    "/p3",
    "--append-system-prompt-file=/m/x/a.txt",
    "--system-prompt-file",
    "/m/x/s.txt",
    "--max-turns",
    "2",
  ]);
  // run writes its own MCP config and debug log into the run folder (the evidence it reads back): given in args, in
  // either form, they are a usage error rather than a second config or log claude would use instead.
  for (const args of [["--mcp-config", "extra.json"], ["--mcp-config=extra.json"], ["--debug-file", "d.txt"], ["--debug-file=d.txt"]]) {
    const owned = parseMatrix(JSON.stringify({ prompt: "p", configs: [{ label: "a", args }] }), "m.json");
    assert.throws(
      () => planRuns(owned, { outDir: "/r", cliPath: "c", nodePath: "n", matrixDir: "/m", env }),
      new RegExp(`config "a": args ${args[0]!.split("=")[0]} are set by run itself`),
    );
  }
});

test("run --dry-run: the planned commands as data; nothing is written", async () => {
  const dir = tmp();
  const f = matrixFile(dir, {
    prompt: PROMPT,
    repeat: 2,
    configs: [{ label: "en-1000" }, { label: "ja-3000", serverArgs: ["--lang", "ja", "--chars", "3000"], env: { X: "y" } }],
  });
  const out = join(dir, "runs");
  const j = parseEnvelope(await runCli(["run", f, "--out", out, "--dry-run", "--json"]), "run");
  assert.equal(existsSync(out), false);
  assert.equal(j.dryRun, true);
  assert.deepEqual(
    j.runs.map((r: any) => [r.label, r.repeat, r.status]),
    [
      ["en-1000", "a", "planned"],
      ["en-1000", "b", "planned"],
      ["ja-3000", "a", "planned"],
      ["ja-3000", "b", "planned"],
    ],
  );
  assert.equal(j.runs[2].folder, join(out, "ja-3000-a"));
  assert.deepEqual(j.runs[2].command.slice(0, 3), ["claude", "-p", PROMPT]);
  assert.deepEqual(j.runs[2].env, { X: "y" });
  assert.equal(j.runs[2].mcpConfig.mcpServers.lab.args[0], CLI);
  const table = await runCli(["run", f, "--out", out, "--dry-run"]);
  assert.equal(table.code, 0);
  assert.match(
    table.stdout,
    /claude -p "\$PROMPT" --output-format stream-json --verbose --strict-mcp-config --mcp-config \S+en-1000-a\/mcp.json/,
  );
  assert.match(table.stdout, /PROMPT \(en-1000, ja-3000\): Reply with BEGIN=… END=… LAST=…/);
  const bad = await runCli([
    "run",
    matrixFile(dir, { prompt: "p", configs: [{ label: "x", serverArgs: ["--chars", "lots"] }] }),
    "--dry-run",
  ]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /config "x": the lab server "lab" refused its args \["--chars","lots"\]/);
});

test("run: claude -p per config × repeat with a fake claude; run.json, real rpc log, enclosing-session env removed", async () => {
  const dir = tmp();
  const bin = writeFakeClaude(dir);
  const f = matrixFile(dir, {
    prompt: PROMPT,
    repeat: 2,
    args: ["--max-turns", "1"],
    // The fake writes its transcript only there: without one, a run has nothing compare can read and fails.
    env: { CLAUDE_CONFIG_DIR: join(dir, "claude-config") },
    configs: [
      { label: "en-5000", serverArgs: ["--chars", "5000"] },
      { label: "dual", serverArgs: ["--chars", "1000", "--dual"], env: { FAKE_MARK: "set-by-config" } },
    ],
  });
  const out = join(dir, "runs");
  const r = await runCli(["run", f, "--out", out, "--json"], {
    env: { PATH: `${bin}:${process.env.PATH}`, CLAUDECODE: "1", CLAUDE_CODE_ENTRYPOINT: "cli" },
  });
  const j = parseEnvelope(r, "run");
  assert.deepEqual(readdirSync(out).sort(), ["dual-a", "dual-b", "en-5000-a", "en-5000-b"]);
  assert.deepEqual(
    j.runs.map((x: any) => [x.label, x.status, x.exitCode]),
    [
      ["en-5000", "ran", 0],
      ["en-5000", "ran", 0],
      ["dual", "ran", 0],
      ["dual", "ran", 0],
    ],
  );
  assert.equal(j.inputs.length, 4);
  assert.ok(j.inputs.every((i: any) => i.kind === "stream-json" && i.sha256.length === 64));
  assert.match(r.stderr, /run: 1\/4 en-5000-a/);

  const run = JSON.parse(readFileSync(join(out, "en-5000-a", "run.json"), "utf8"));
  assert.deepEqual(Object.keys(run).slice(0, 9), [
    "label",
    "session",
    "claudeDir",
    "debugFile",
    "rpcLog",
    "streamJson",
    "exitCode",
    "startedAt",
    "durationMs",
  ]);
  assert.deepEqual(
    [run.label, run.debugFile, run.rpcLog, run.streamJson, run.exitCode, run.repeat],
    ["en-5000", "debug.txt", "rpc-log.jsonl", "stream.jsonl", 0, "a"],
  );
  assert.equal(run.claudeDir, "claude", "the copy in the run folder");
  assert.match(run.session, /^[0-9a-f-]{36}$/);
  assert.equal(j.runs[0].session, run.session);
  assert.ok(run.durationMs > 0 && !Number.isNaN(Date.parse(run.startedAt)));
  assert.deepEqual(run.envRemoved, ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"]);
  const stream = readFileSync(join(out, "en-5000-a", "stream.jsonl"), "utf8");
  assert.ok(stream.includes(run.session));

  const cw = codewordsFor(5000, "en", "legacy");
  assert.equal(j.runs[0].answer, `BEGIN=${cw.begin} END=NONE LAST=2009`, "the fake cut at 2,048 chars like Claude Code");
  const dm = codewordsFor(1000, "en", "modern");
  assert.equal(j.runs[2].answer, `BEGIN=${dm.begin} END=${dm.end} LAST=763`, "dual era: the discover codewords");

  const debug = readFileSync(join(out, "dual-b", "debug.txt"), "utf8");
  assert.match(debug, /fake: CLAUDECODE=<unset>/);
  assert.match(debug, /fake: CLAUDE_CODE_ENTRYPOINT=<unset>/);
  assert.match(debug, /fake: FAKE_MARK=set-by-config/);
  assert.match(debug, /fake: settings=\{"disableAllHooks": true\}/);
  const cwd = /fake: cwd=(.*)/.exec(debug)![1]!;
  assert.ok(!cwd.startsWith(out), "claude ran outside the runs dir");
  assert.equal(existsSync(cwd), false, "the empty working dir is removed");

  const legacy = parseEnvelope(await runCli(["rpc", join(out, "en-5000-b", "rpc-log.jsonl"), "--json"]), "rpc");
  assert.deepEqual(
    [legacy.rpc.era, legacy.rpc.methods],
    ["legacy", ["server/discover", "initialize", "notifications/initialized", "tools/list"]],
  );
  const modern = parseEnvelope(await runCli(["rpc", join(out, "dual-a", "rpc-log.jsonl"), "--json"]), "rpc");
  assert.deepEqual([modern.rpc.era, modern.rpc.methods], ["modern", ["server/discover", "tools/list"]]);
  const mcp = JSON.parse(readFileSync(join(out, "dual-a", "mcp.json"), "utf8"));
  assert.deepEqual(mcp.mcpServers.lab.args.slice(0, 3), [CLI, "lab", "instructions"]);

  // A second run into the same dir refuses; --skip-existing keeps the finished runs.
  const again = await runCli(["run", f, "--out", out], { env: { PATH: `${bin}:${process.env.PATH}` } });
  assert.equal(again.code, 2);
  assert.match(again.stderr, /run folders already exist/);
  const skip = parseEnvelope(
    await runCli(["run", f, "--out", out, "--skip-existing", "--json"], { env: { PATH: `${bin}:${process.env.PATH}` } }),
    "run",
  );
  assert.deepEqual(
    skip.runs.map((x: any) => x.status),
    ["skipped", "skipped", "skipped", "skipped"],
  );
  assert.equal(skip.runs[0].session, run.session);
});

test("run: a failing claude is recorded (exit code, warning), csv/markdown rows; missing claude and a config-dir --out are usage errors", async () => {
  const dir = tmp();
  const bin = writeFakeClaude(dir);
  const f = matrixFile(dir, {
    prompt: PROMPT,
    claude: join(bin, "claude"),
    configs: [{ label: "none", server: "none", env: { FAKE_EXIT: "3" } }],
  });
  const out = join(dir, "runs");
  const csv = await runCli(["run", f, "--out", out, "--format", "csv"]);
  assert.equal(csv.code, 1, "a failed claude run is a runtime failure, reported after the table");
  assert.match(csv.stderr, /none-a: claude exited 3/);
  assert.match(csv.stderr, /1 of 1 claude run\(s\) failed/);
  const [head, row] = csv.stdout.trim().split(/\r?\n/);
  assert.equal(head, "label,folder,status,session,exitCode,durationMs,answer,error");
  assert.match(
    row!,
    /^none,.*none-a,failed,[0-9a-f-]{36},3,\d+,BEGIN=NONE END=NONE LAST=NONE,"claude exited 3; see \S+stderr\.txt; the transcript/,
  );
  const run = JSON.parse(readFileSync(join(out, "none-a", "run.json"), "utf8"));
  assert.equal(run.exitCode, 3);
  assert.equal("rpcLog" in run, false, "no server, no message log");

  const md = await runCli(["run", f, "--out", join(dir, "md"), "--format", "markdown"]);
  // Eight columns with the error: one run's table is turned, a line per field.
  assert.match(md.stdout, /\| label \| none \|\n\|---\|---\|\n\| folder \| .*\n\| status \| failed \|\n\| session \| .*\n\| exit \| 3 \|/);
  assert.match(md.stdout, /\| error \| claude exited 3; see /);

  const missing = await runCli([
    "run",
    matrixFile(dir, { prompt: "p", claude: "no-such-claude-binary", configs: [{ label: "a", server: "none" }] }),
    "--out",
    join(dir, "x"),
  ]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /claude binary not found: no-such-claude-binary/);
  assert.equal(existsSync(join(dir, "x")), false);

  const config = join(dir, "claude-config");
  mkdirSync(config);
  const guard = await runCli(["run", f, "--out", join(config, "runs"), "--dry-run"], { env: { CLAUDE_CONFIG_DIR: config } });
  assert.equal(guard.code, 2);
  assert.match(guard.stderr, /refusing to write inside the Claude config dir/);
  const viaConfigEnv = await runCli([
    "run",
    matrixFile(dir, { prompt: "p", configs: [{ label: "a", server: "none", env: { CLAUDE_CONFIG_DIR: config } }] }),
    "--out",
    config,
  ]);
  assert.equal(viaConfigEnv.code, 2);
  const copied = join(dir, "evidence-copy");
  mkdirSync(join(copied, "projects", "-p"), { recursive: true });
  const unnamed = await runCli(["run", f, "--out", join(copied, "projects", "-p", "runs"), "--dry-run"]);
  assert.equal(unnamed.code, 2, "a folder holding projects/ is a config dir even when no flag or env names it");
  assert.match(unnamed.stderr, /refusing to write inside the Claude config dir .*evidence-copy/);
  assert.equal((await runCli(["run", join(dir, "nope.json")])).code, 2);
});

test("run: a session id claude printed with control, bidi and invisible characters is escaped on stderr and in run.json", async () => {
  const dir = tmp();
  const bin = writeFakeClaude(dir);
  const session = "=\u001b[2J\u009b\u0085\u202e\u200b\u2028x";
  const f = matrixFile(dir, {
    prompt: PROMPT,
    claude: join(bin, "claude"),
    configs: [{ label: "none", server: "none", env: { FAKE_SESSION: session } }],
  });
  const out = join(dir, "runs");
  const r = await runCli(["run", f, "--out", out, "--format", "csv"]);
  const raw = /[\u001b\u007f-\u009f\u200b\u202e\u2028]/;
  assert.doesNotMatch(r.stderr, raw);
  assert.ok(r.stderr.includes("session =\\x1b[2J\\x9b\\x85\\u202e\\u200b\\u2028x"), r.stderr);
  const text = readFileSync(join(out, "none-a", "run.json"), "utf8");
  assert.doesNotMatch(text, raw);
  assert.equal(JSON.parse(text).session, session, "the same value, escaped");
});

test("run: a relative CLAUDE_CONFIG_DIR and path args in a matrix are taken from the matrix's folder, not claude's empty temp dir", async () => {
  const dir = tmp();
  const bin = writeFakeClaude(dir);
  const f = matrixFile(dir, {
    prompt: PROMPT,
    claude: join(bin, "claude"),
    configs: [{ label: "rel", server: "none", env: { CLAUDE_CONFIG_DIR: "relcfg" }, args: ["--settings", "s.json"] }],
  });
  writeFileSync(join(dir, "s.json"), "{}");
  const out = join(dir, "runs");
  const r = await runCli(["run", f, "--out", out, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /was not found/);
  const run = JSON.parse(readFileSync(join(out, "rel-a", "run.json"), "utf8"));
  assert.equal(run.claudeDir, "claude", "the transcript was found and copied");
  assert.equal(run.sourceClaudeDir, join(dir, "relcfg"));
  assert.equal(run.env.CLAUDE_CONFIG_DIR, join(dir, "relcfg"), "run.json records the dir claude was given");
  assert.ok(existsSync(join(dir, "relcfg", "projects")));
  const debug = readFileSync(join(out, "rel-a", "debug.txt"), "utf8");
  assert.ok(debug.includes(`fake: settings=${join(dir, "s.json")}\n`), "--settings s.json from the matrix's folder");
  assert.deepEqual(
    absoluteArgs(["--add-dir", "a", "/b", "--max-turns", "1", '--settings={"x":1}', "--plugin-dir=p", "x", "--settings", "{}"], "/m"),
    ["--add-dir", "/m/a", "/b", "--max-turns", "1", '--settings={"x":1}', "--plugin-dir=/m/p", "x", "--settings", "{}"],
  );
});

test("run: a claude that exits 0 but leaves no session, or no transcript to copy, is a failed run (exit 1) saying why", async () => {
  const dir = tmp();
  const silent = join(dir, "silent-claude");
  writeFileSync(silent, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const bin = writeFakeClaude(dir);
  const f = matrixFile(dir, {
    prompt: PROMPT,
    configs: [
      { label: "silent", server: "none" },
      { label: "nocopy", server: "none" },
    ],
  });
  // Two matrices: the silent claude, and the fake one with no config dir, whose transcript goes nowhere.
  const m = JSON.parse(readFileSync(f, "utf8"));
  writeFileSync(f, JSON.stringify({ ...m, claude: silent, configs: [m.configs[0]] }));
  const r = await runCli(["run", f, "--out", join(dir, "a"), "--json"]);
  assert.equal(r.code, 1, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual([j.runs[0].status, j.runs[0].exitCode], ["failed", 0]);
  assert.match(j.runs[0].error, /^no session id in stream\.jsonl/);
  assert.match(r.stderr, /1 of 1 claude run\(s\) failed/);
  writeFileSync(f, JSON.stringify({ ...m, claude: join(bin, "claude"), configs: [m.configs[1]] }));
  const t = await runCli(["run", f, "--out", join(dir, "b"), "--format", "markdown"]);
  assert.equal(t.code, 1, t.stderr);
  assert.match(t.stdout, /\| status \| failed \|/);
  assert.match(t.stdout, /\| error \| the transcript of session \S+ was not found/);
  assert.match(t.stderr, /nocopy-a: the transcript of session [0-9a-f-]{36} was not found/);
});

test("run: a timed-out run is 'timeout' in the table, its exit cell the signal", async () => {
  const dir = tmp();
  const hang = join(dir, "hang-claude");
  writeFileSync(hang, "#!/bin/sh\nexec sleep 30\n", { mode: 0o755 });
  const f = matrixFile(dir, { prompt: PROMPT, claude: hang, configs: [{ label: "hang", server: "none" }] });
  const r = await runCli(["run", f, "--out", join(dir, "runs"), "--timeout-ms", "300", "--format", "csv"]);
  assert.equal(r.code, 1, r.stderr);
  const row = r.stdout.trim().split(/\r?\n/)[1]!;
  assert.match(row, /^hang,\S+hang-a,timeout,,SIGTERM,\d+,,stopped after --timeout-ms 300; no session id/);
});

test(
  "run --timeout-ms stops claude's whole process group, not only claude: nothing it started outlives the run",
  { skip: process.platform === "win32" },
  async () => {
    const dir = tmp();
    const pidFile = join(dir, "grandchild.pid");
    const hang = join(dir, "hang-claude");
    // A claude whose Bash tool is still running: a child of its own that would be orphaned.
    writeFileSync(hang, `#!/bin/sh\nsleep 31337 &\necho $! > '${pidFile}'\nwait\n`, { mode: 0o755 });
    const f = matrixFile(dir, { prompt: PROMPT, claude: hang, configs: [{ label: "hang", server: "none" }] });
    const r = await runCli(["run", f, "--out", join(dir, "runs"), "--timeout-ms", "500"]);
    assert.equal(r.code, 1, r.stderr);
    const left = await stillRunning(Number(readFileSync(pidFile, "utf8")));
    assert.equal(left, false, "the grandchild was stopped with claude");
  },
);

test(
  "run interrupted (SIGINT) stops claude's whole group, SIGKILL for what ignores SIGTERM, then exits as the signal says",
  { skip: process.platform === "win32" },
  async () => {
    const dir = tmp();
    const pidFile = join(dir, "stubborn.pid");
    const hang = join(dir, "hang-claude");
    // A child that ignores SIGTERM: only the SIGKILL after the grace stops it.
    writeFileSync(hang, `#!/bin/sh\n( trap '' TERM; exec sleep 31337 ) &\necho $! > '${pidFile}'\nwait\n`, { mode: 0o755 });
    const f = matrixFile(dir, { prompt: PROMPT, claude: hang, configs: [{ label: "hang", server: "none" }] });
    const child = spawn(process.execPath, [CLI, "run", f, "--out", join(dir, "runs"), "--timeout-ms", "0"], { stdio: "ignore" });
    for (let i = 0; i < 100 && !existsSync(pidFile); i++) await new Promise((res) => setTimeout(res, 50));
    await new Promise((res) => setTimeout(res, 100));
    const exited = new Promise<NodeJS.Signals | null>((res) => child.on("exit", (_c, s) => res(s)));
    child.kill("SIGINT");
    assert.equal(await exited, "SIGINT");
    const left = await stillRunning(Number(readFileSync(pidFile, "utf8")));
    assert.equal(left, false, "the child that ignores SIGTERM was killed with claude's group");
  },
);

/** Whether `pid` still runs after up to 2 s of waiting for it to go; one that does is killed, so no test leaves it. */
async function stillRunning(pid: number): Promise<boolean> {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 40 && alive(); i++) await new Promise((res) => setTimeout(res, 50));
  const left = alive();
  if (left) process.kill(pid, "SIGKILL");
  return left;
}
