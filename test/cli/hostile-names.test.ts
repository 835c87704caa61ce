import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, runCliSpawned, sample, type CliResult } from "../helpers.js";
import { removeTree } from "./hostile-tree.js";

/**
 * Names from evidence (a project folder, a subagent file, an MCP tool name) holding terminal escapes, C1
 * controls (CSI U+009B, NEL U+0085), bidi and zero-width characters, the line separator and formula starts:
 * none reaches any output raw, whatever the field (table ids, paths, names, export files, the access trace).
 */
const HOSTILE = "\u001b[31mred\u0007\u009b\u0085\u202e\u200b\u2028";
/** A subagent id is the file name's `agent-(.+)` (`.` stops at U+2028): the same without the separator. */
const AGENT = `=${HOSTILE.replace("\u2028", "")}x`;
const MAIN = "c0ffee00-1111-4222-8333-444444444444";
/** Raw in no output: C0 but tab, LF and CR (CSV's CRLF, JSON's and markdown's lines), DEL, C1, RLO, ZWSP, U+2028. */
const RAW_UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b\u202e\u2028]/;

let root: string;
let cfg: string;
let project: string;

before(() => {
  root = mkdtempSync(join(tmpdir(), "ccf-hostile-names-"));
  cfg = join(root, "cfg");
  cpSync(sample("claude-home"), cfg, { recursive: true });
  project = join(cfg, "projects", `-tmp-lab${HOSTILE}+1`);
  renameSync(join(cfg, "projects", "-tmp-lab-demo"), project);
  const main = join(project, `${MAIN}.jsonl`);
  // The MCP tool's name, hostile, as the transcript records it (in tool calls, results and text alike).
  const tool = JSON.stringify(`mcp__big${HOSTILE}__-emit`).slice(1, -1);
  writeFileSync(main, readFileSync(main, "utf8").replaceAll("mcp__big__emit_text", tool));
  const subagents = join(project, MAIN, "subagents");
  mkdirSync(subagents, { recursive: true });
  const record = {
    type: "assistant",
    uuid: "a",
    parentUuid: null,
    isSidechain: true,
    sessionId: MAIN,
    requestId: "r",
    timestamp: "2026-09-14T21:44:04.000Z",
    message: {
      model: "m",
      id: "mm",
      type: "message",
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_h1", name: `mcp__big${HOSTILE}__-emit`, input: {} }],
      stop_reason: "tool_use",
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  };
  writeFileSync(join(subagents, `agent-${AGENT}.jsonl`), `${JSON.stringify(record)}\n`);
});
after(() => removeTree(root));

const visible = (s: string) => JSON.stringify(s.match(new RegExp(`.{0,30}${RAW_UNSAFE.source}.{0,10}`, "u"))?.[0]);

function assertNoRaw(text: string, what: string): void {
  assert.doesNotMatch(text, RAW_UNSAFE, `${what}: raw unsafe character near ${visible(text)}`);
}

const COMMANDS = [["requests", MAIN], ["outputs", MAIN], ["tools", MAIN], ["servers"], ["report", MAIN]];

for (const args of COMMANDS)
  test(`hostile names: ${args[0]} writes no raw control, bidi or invisible character in any format`, async () => {
    for (const format of ["table", "markdown", "json", "csv", "html"]) {
      const r = await runCli([...args, "--claude-dir", cfg, "--format", format], { cwd: root });
      assert.equal(r.code, 0, `${args[0]} --format ${format}: ${r.stderr}`);
      assertNoRaw(r.stdout, `${args[0]} --format ${format} stdout`);
      assertNoRaw(r.stderr, `${args[0]} --format ${format} stderr`);
    }
  });

test("hostile names: the CSV table column names the subagent escaped, with numbers as they were", async () => {
  const r = await runCli(["requests", MAIN, "--claude-dir", cfg, "--format", "csv"], { cwd: root });
  const esc = "=\\x1b[31mred\\x07\\x9b\\x85\\u202e\\u200bx";
  assert.match(r.stdout, new RegExp(`^requests:${esc.replace(/[\\[]/g, "\\$&")},1,`, "m"));
});

test("hostile names: export --as ndjson escapes them as stdout's JSON does, and keeps their value", async () => {
  const to = join(root, "exp");
  const r = await runCli(["export", "--claude-dir", cfg, "--to", to, "--as", "ndjson"], { cwd: root });
  assert.equal(r.code, 0, r.stderr);
  let seen = 0;
  for (const f of readdirSync(to)) {
    const text = readFileSync(join(to, f), "utf8");
    assertNoRaw(text, f);
    if (!f.endsWith(".ndjson")) continue;
    for (const line of text.split("\n").filter(Boolean)) {
      const values = Object.values(JSON.parse(line) as Record<string, unknown>);
      if (values.some((v) => typeof v === "string" && v.includes(HOSTILE))) seen++;
    }
  }
  assert.ok(seen > 0, "no exported row carries the hostile name back");
});

/** The paths of the trace lines, each parsed back from its JSON; the stderr checked for raw characters first. */
function tracedPaths(r: CliResult): string[] {
  assert.equal(r.code, 0, r.stderr);
  assertNoRaw(r.stderr, "trace");
  return r.stderr
    .split("\n")
    .map((l) => /^ccforensics-fs: \w+ (".*")$/.exec(l)?.[1])
    .filter((p) => p !== undefined)
    .map((p) => JSON.parse(p) as string);
}

test("hostile names: CCFORENSICS_FS_TRACE names the files escaped as JSON output is, each line parsing back to the path", async () => {
  const paths = tracedPaths(
    await runCliSpawned(["requests", MAIN, "--claude-dir", cfg], { cwd: root, env: { CCFORENSICS_FS_TRACE: "1" }, timeoutMs: 20000 }),
  );
  assert.ok(paths.includes(join(project, `${MAIN}.jsonl`)), "the main transcript's open is traced");
  assert.ok(
    paths.some((p) => p.endsWith(`agent-${AGENT}.jsonl`)),
    "the subagent file is traced",
  );
});

test("hostile names: run in this process, the trace goes to the run's stderr and ends with the run", async () => {
  const paths = tracedPaths(await runCli(["requests", MAIN, "--claude-dir", cfg], { cwd: root, env: { CCFORENSICS_FS_TRACE: "1" } }));
  assert.ok(paths.includes(join(project, `${MAIN}.jsonl`)), "the main transcript's open is traced");
  const quiet = await runCli(["requests", MAIN, "--claude-dir", cfg], { cwd: root });
  assert.doesNotMatch(quiet.stderr, /ccforensics-fs:/);
});
