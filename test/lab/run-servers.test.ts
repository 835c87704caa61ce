import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseMatrix } from "../../src/lab/matrix.js";
import { planRuns } from "../../src/lab/run-plan.js";
import { codewordsFor } from "../../src/lab/instructions-text.js";
import { emitMarkers } from "../../src/lab/output-text.js";
import { parseEnvelope, runCli, sample } from "../helpers.js";
import { writeFakeClaude } from "./fake-claude.js";

const tmp = () => mkdtempSync(join(tmpdir(), "ccf-runs-"));
const PROMPT = "Reply with BEGIN=… END=… LAST=…";
const plan = (m: unknown) =>
  planRuns(parseMatrix(JSON.stringify(m), "m.json"), { outDir: "/r", cliPath: "/x/cli.js", nodePath: "/n", matrixDir: "/m", env: {} });

test("matrix servers: several per configuration in order, each with its own log, args, env and entry; the flat form plans the same", () => {
  const [p] = plan({
    prompt: PROMPT,
    configs: [
      {
        label: "two",
        servers: [
          { name: "zeta", args: ["--chars", "1000"], env: { LAB_LANG: "ja" } },
          { name: "big", kind: "output", entry: { alwaysLoad: true } },
        ],
      },
    ],
  });
  assert.deepEqual(Object.keys(p!.mcpConfig.mcpServers as object), ["zeta", "big"], "mcpServers keeps the matrix order");
  assert.deepEqual(p!.mcpConfig.mcpServers, {
    zeta: {
      type: "stdio",
      command: "/n",
      args: ["/x/cli.js", "lab", "instructions", "--chars", "1000", "--log", "/r/two-a/rpc-log-zeta.jsonl"],
      env: { LAB_LANG: "ja" },
    },
    big: { type: "stdio", command: "/n", args: ["/x/cli.js", "lab", "output", "--log", "/r/two-a/rpc-log-big.jsonl"], alwaysLoad: true },
  });
  assert.deepEqual(
    p!.servers.map((s) => [s.name, s.kind, s.rpcLog]),
    [
      ["zeta", "instructions", "rpc-log-zeta.jsonl"],
      ["big", "output", "rpc-log-big.jsonl"],
    ],
  );
  const flat = plan({
    prompt: PROMPT,
    configs: [{ label: "a", server: "output", serverArgs: ["--cjk"], serverEntry: { alwaysLoad: true, env: { X: "1" } } }],
  })[0]!;
  const list = plan({
    prompt: PROMPT,
    configs: [{ label: "a", servers: [{ name: "big", kind: "output", args: ["--cjk"], env: { X: "1" }, entry: { alwaysLoad: true } }] }],
  })[0]!;
  assert.deepEqual(flat.mcpConfig, list.mcpConfig);
  assert.equal((flat.mcpConfig.mcpServers as any).big.args.at(-1), "/r/a-a/rpc-log.jsonl", "one server keeps rpc-log.jsonl");
  assert.deepEqual(plan({ prompt: PROMPT, configs: [{ label: "a", servers: [] }] })[0]!.mcpConfig, { mcpServers: {} });
  const bad: Array<[unknown, RegExp]> = [
    [{ label: "a", servers: [{ name: "x" }, { name: "x" }] }, /configs\[0\]\.servers\[1\]\.name: "x" is used twice/],
    [{ label: "a", servers: [{ name: "x", kind: "big" }] }, /servers\[0\]\.kind: must be one of instructions, output/],
    [{ label: "a", servers: [{ name: "x", serverArgs: [] }] }, /servers\[0\]: unknown key "serverArgs"/],
    [{ label: "a", servers: [{ name: "x", args: ["--log", "f"] }] }, /run sets --log itself/],
    [{ label: "a", servers: [{ name: "a b" }] }, /servers\[0\]\.name: must be letters, digits/],
    [{ label: "a", servers: [{ name: "x", entry: { env: {} } }] }, /entry\.env: give the server's env as "env"/],
    [{ label: "a", servers: [], serverArgs: [] }, /give either "servers" or "serverArgs", not both/],
    [{ label: "a", servers: {} }, /servers: must be an array/],
  ];
  for (const [c, rx] of bad)
    assert.throws(
      () => plan({ prompt: PROMPT, configs: [c] }),
      (e: Error) => e.name === "UsageError" && rx.test(e.message),
      JSON.stringify(c),
    );
});

test("run --dry-run works on every shipped matrix in samples/matrices", async () => {
  const dir = sample("matrices");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  assert.deepEqual(files, [
    "content.json",
    "instructions.json",
    "late-single-request.json",
    "negotiation.json",
    "order-three.json",
    "order-two.json",
    "outputs.json",
    "per-server-caps.json",
  ]);
  const out = join(tmp(), "runs");
  for (const f of files) {
    const m = JSON.parse(readFileSync(join(dir, f), "utf8"));
    const r = await runCli(["run", join(dir, f), "--out", out, "--dry-run", "--json"]);
    assert.equal(r.code, 0, `${f}: ${r.stderr}`);
    const j = parseEnvelope(r, "run");
    assert.equal(j.runs.length, m.configs.length * (m.repeat ?? 1), f);
    for (const run of j.runs) {
      const logs = Object.values(run.mcpConfig.mcpServers as Record<string, { args: string[] }>).map((s) => s.args.at(-1));
      assert.equal(new Set(logs).size, logs.length, `${f} ${run.folder}: one log per server`);
      assert.equal(run.servers.length, logs.length);
    }
  }
  const table = await runCli(["run", join(dir, "order-three.json"), "--out", out, "--dry-run"]);
  assert.match(table.stdout, /charlie: instructions --chars 1000; alpha: instructions --chars 1200; bravo: instructions --chars 1400/);
});

test("run end to end with the fake claude: two servers in order, a crashing and a silent probe, content modes, transcripts compare reads", async () => {
  const dir = tmp();
  const bin = writeFakeClaude(dir);
  const config = join(dir, "claude-config");
  mkdirSync(config);
  const call = (n: number, tool = "emit_text") =>
    `Call mcp__big__${tool} once with chars=${n}, then reply with the END-MARKER value or NOMARKER.`;
  const m = {
    prompt: PROMPT,
    claude: join(bin, "claude"),
    env: { CLAUDE_CONFIG_DIR: config },
    configs: [
      {
        label: "two",
        servers: [
          { name: "zeta", args: ["--chars", "1000"] },
          { name: "alpha", args: ["--chars", "3000", "--lang", "ja"] },
        ],
      },
      {
        label: "crash",
        servers: [
          { name: "dies", args: ["--probe", "crash"] },
          { name: "lab", args: ["--chars", "1000"] },
        ],
      },
      { label: "hang", serverArgs: ["--chars", "1000", "--probe", "hang"], env: { FAKE_PROBE_TIMEOUT_MS: "1000" } },
      { label: "json-52000", server: "output", serverArgs: ["--content", "json"], prompt: call(52000) },
      { label: "hex-30000", server: "output", serverArgs: ["--content", "hex"], prompt: call(30000) },
      { label: "image-5000", server: "output", serverArgs: ["--content", "image"], prompt: call(5000) },
      { label: "words-66000-annotated", server: "output", prompt: call(66000, "emit_text_annotated") },
    ],
  };
  writeFileSync(join(dir, "m.json"), JSON.stringify(m));
  const out = join(dir, "runs");
  const j = parseEnvelope(await runCli(["run", join(dir, "m.json"), "--out", out, "--json"]), "run");
  const answers = Object.fromEntries(j.runs.map((r: any) => [r.label, r.answer]));
  const en = codewordsFor(1000, "en", "legacy");
  const ja = codewordsFor(3000, "ja", "legacy");
  assert.equal(
    answers.two,
    `zeta: BEGIN=${en.begin} END=${en.end} LAST=763 | alpha: BEGIN=${ja.begin} END=NONE LAST=2026`,
    "each server cut at its own 2,048, in config order",
  );
  assert.equal(answers.crash, `BEGIN=${en.begin} END=${en.end} LAST=763`, "the crashed server is left out, the other answers");
  assert.equal(answers.hang, `BEGIN=${en.begin} END=${en.end} LAST=763`, "a silent probe times out into initialize");
  assert.equal(answers["json-52000"], "END=NOMARKER CHARS=52000", "over 50,000 chars: persisted, the end marker unseen");
  assert.equal(answers["hex-30000"], `END=${emitMarkers(30000, "hex").end} CHARS=30000`);
  assert.match(answers["image-5000"], new RegExp(`^END=${emitMarkers(5000, "image").end} CHARS=\\d+ IMAGES=5000$`));
  assert.equal(answers["words-66000-annotated"], `END=${emitMarkers(66000).end} CHARS=66000`, "the annotation lets 66,000 chars through");

  const two = JSON.parse(readFileSync(join(out, "two-a", "run.json"), "utf8"));
  assert.deepEqual([two.rpcLog, two.rpcLogs], ["rpc-log-zeta.jsonl", { zeta: "rpc-log-zeta.jsonl", alpha: "rpc-log-alpha.jsonl" }]);
  assert.equal(two.claudeDir, "claude", "the session is copied into the run folder");
  assert.equal(two.sourceClaudeDir, config);
  for (const name of ["zeta", "alpha"]) {
    const r = parseEnvelope(await runCli(["rpc", join(out, "two-a", `rpc-log-${name}.jsonl`), "--json"]), "rpc");
    assert.deepEqual([r.rpc.era, r.rpc.probe.errorCode, r.rpc.initialize.protocolVersion], ["legacy", -32601, "2025-11-25"], name);
    assert.equal(typeof r.rpc.initialize.msAfterProbe, "number");
    assert.deepEqual(
      r.rpc.instructions.map((x: any) => x.chars),
      [name === "zeta" ? 1000 : 3000],
    );
  }
  const crashLog = readFileSync(join(out, "crash-a", "rpc-log-dies.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    crashLog.map((l) => l.method ?? l.event),
    ["server/discover", "exit"],
  );
  const crashStream = readFileSync(join(out, "crash-a", "stream.jsonl"), "utf8");
  assert.match(crashStream, /"mcp_servers":\[\{"name":"dies","status":"failed"\},\{"name":"lab","status":"connected"\}\]/);
  assert.match(readFileSync(join(out, "crash-a", "debug.txt"), "utf8"), /MCP server "dies": Connection failed: process exited with code 1/);
  const hang = parseEnvelope(await runCli(["rpc", join(out, "hang-a", "rpc-log.jsonl"), "--json"]), "rpc");
  assert.deepEqual([hang.rpc.probeOutcome, hang.rpc.era], ["unanswered", "legacy"]);
  // The client's 1 s runs from its write; a server slower than that to start reads both lines at once, so the logged gap can be 0.
  assert.ok(hang.rpc.initialize.msAfterProbe >= 0, String(hang.rpc.initialize.msAfterProbe));
  assert.match(
    readFileSync(join(out, "hang-a", "debug.txt"), "utf8"),
    /MCP server "lab": server\/discover timed out after 1000 ms; falling back to initialize/,
  );
  const img = readFileSync(join(out, "image-5000-a", "rpc-log.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const sent = img.find((l) => l.dir === "out" && l.result?.content);
  assert.equal(Buffer.from(sent.result.content[0].data, "base64").length, 5000, "the log holds the image content as sent");

  const cmp = await runCli(["compare", out, "--json"]);
  const c = parseEnvelope(cmp, "compare");
  assert.equal(c.runs.length, 7);
  assert.deepEqual(
    c.runs.filter((r: any) => r.error !== null).map((r: any) => r.label),
    [],
  );
  const json = c.runs.find((r: any) => r.label === "json-52000");
  assert.ok(json.firstRequestTokens > 3000, "the transcript's requests were read");
  assert.doesNotMatch(cmp.stderr, /no tools\/list response/, "the runs' message logs carry tools/list results");
  assert.doesNotMatch(cmp.stderr, /only received messages are logged/);
});

test("run: a claude that fails before any session is a row with no session, exit 1; the other runs still run", async () => {
  const dir = tmp();
  const bin = writeFakeClaude(dir);
  writeFileSync(
    join(dir, "m.json"),
    JSON.stringify({
      prompt: PROMPT,
      claude: join(bin, "claude"),
      configs: [
        { label: "fails", env: { FAKE_FAIL: "1" } },
        { label: "works", servers: [{ name: "a" }, { name: "b", args: ["--chars", "2000"] }] },
      ],
    }),
  );
  const out = join(dir, "runs");
  const r = await runCli(["run", join(dir, "m.json"), "--out", out, "--json"]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /fails-a: claude exited 1/);
  assert.match(r.stderr, /fails-a: no session id in stream\.jsonl/);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(
    j.runs.map((x: any) => [x.label, x.exitCode, x.session === null]),
    [
      ["fails", 1, true],
      ["works", 0, false],
    ],
  );
  const failed = JSON.parse(readFileSync(join(out, "fails-a", "run.json"), "utf8"));
  assert.deepEqual([failed.session, failed.exitCode], [null, 1]);
  assert.match(readFileSync(join(out, "fails-a", "stderr.txt"), "utf8"), /fake claude failed before the session started/);
  assert.equal(readFileSync(join(out, "fails-a", "stream.jsonl"), "utf8"), "");
  const a = codewordsFor(1000, "en", "legacy");
  const b = codewordsFor(2000, "en", "legacy");
  assert.match(j.runs[1].answer, new RegExp(`^a: BEGIN=${a.begin} END=${a.end} LAST=763 \\| b: BEGIN=${b.begin} END=${b.end} LAST=\\d+$`));
});
