import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportHooks } from "../../src/commands/export.js";
import { runCli, sample } from "../helpers.js";

// `export --redact` reads the evidence twice: the first pass collects every text and fixes the short forms,
// the second writes. A live session that Claude Code appends to between the passes must be exported as the
// first pass saw it (same rows, same short forms), with the growth said on stderr, and nothing the first
// pass did not read may reach a file or stdout.

const TABLES = ["sessions", "requests", "tool_results", "instructions", "tools", "servers"];
const SESSION = "abcdef12-0000-4000-8000-000000000001";
// Ids one character away from the session's own: had the second pass read them, the session's ids would
// need longer short forms than the first pass gave them (and a row already written would keep the old one).
const NEW_MSG = "msg_01Jw7m2PRPzAa1RCTvKZ1v4y";
const NEW_REQ = "req_011C5C48SetvmaMU5fCD74Vz";
const NEW_TOOL = "toolu_01w47gLwCNmYRyPHn7K8vY74";

function claudeHome(): { home: string; transcript: string } {
  const home = mkdtempSync(join(tmpdir(), "ccf-export-live-"));
  const project = join(home, "projects", "-home-dev-my-app");
  mkdirSync(project, { recursive: true });
  const transcript = join(project, `${SESSION}.jsonl`);
  copyFileSync(sample("claude-home", "projects", "-home-dev-my-app", `${SESSION}.jsonl`), transcript);
  return { home, transcript };
}

function assistant(msg: string, req: string, tool: string, cwd: string): string {
  return `${JSON.stringify({
    parentUuid: "8098e21a-a2ac-4254-87f6-633a79d0d775",
    isSidechain: false,
    type: "assistant",
    uuid: "0d15ea5e-0000-4000-8000-00000000beef",
    timestamp: "2026-04-03T10:05:00.000Z",
    sessionId: SESSION,
    cwd,
    requestId: req,
    message: {
      model: "claude-opus-4-6",
      id: msg,
      type: "message",
      role: "assistant",
      content: [{ type: "tool_use", id: tool, name: "Read", input: { file_path: `${cwd}/secret.txt` } }],
      usage: { input_tokens: 5, cache_creation_input_tokens: 10, cache_read_input_tokens: 20, output_tokens: 7 },
    },
  })}\n`;
}

async function exportTo(home: string): Promise<{ to: string; code: number; stdout: string; stderr: string }> {
  const to = mkdtempSync(join(tmpdir(), "ccf-export-live-out-"));
  const r = await runCli(["export", "--claude-dir", home, "--to", to, "--as", "ndjson", "--redact", "--json"]);
  return { to, ...r };
}

const tables = (to: string) => Object.fromEntries(TABLES.map((t) => [t, readFileSync(join(to, `${t}.ndjson`), "utf8")]));

test("export --redact: a transcript appended to between the passes is exported as the first pass read it, and the growth is said", async () => {
  const { home, transcript } = claudeHome();
  const before = await exportTo(home);
  assert.equal(before.code, 0, before.stderr);
  assert.doesNotMatch(before.stderr, /grew between/);
  const size = statSync(transcript).size;
  exportHooks.betweenPasses = () => appendFileSync(transcript, assistant(NEW_MSG, NEW_REQ, NEW_TOOL, "/home/mallory/live"));
  let live: Awaited<ReturnType<typeof exportTo>>;
  try {
    live = await exportTo(home);
  } finally {
    exportHooks.betweenPasses = undefined;
  }
  assert.equal(live.code, 0, live.stderr);
  assert.ok(statSync(transcript).size > size, "the hook appended to the transcript");
  // The same rows with the same short forms as an export of the file before it grew.
  assert.deepEqual(tables(live.to), tables(before.to));
  assert.match(
    live.stderr,
    /1 file\(s\) grew between the two passes of --redact .*only the bytes the first pass read were exported: .*abcdef12…\.jsonl/,
  );
  const j = JSON.parse(live.stdout) as { inputs: Array<{ path: string; bytes: number }> };
  const input = j.inputs.find((i) => i.path.endsWith(".jsonl"))!;
  assert.equal(input.bytes, size, "the input is listed at the length both passes read");
  // Nothing of the appended record anywhere, in any form.
  const everything = [live.stdout, live.stderr, ...Object.values(tables(live.to))].join("\n");
  for (const v of ["mallory", "secret.txt", NEW_MSG, NEW_REQ, NEW_TOOL])
    assert.ok(!everything.includes(v), `${v} of the appended record is in the output`);
});

test("export --redact: a subagent file that appears between the passes is read as empty and said, its records nowhere", async () => {
  const { home } = claudeHome();
  const agentDir = join(home, "projects", "-home-dev-my-app", SESSION, "subagents");
  const before = await exportTo(home);
  assert.equal(before.code, 0, before.stderr);
  exportHooks.betweenPasses = () => {
    mkdirSync(agentDir, { recursive: true });
    const rec = JSON.parse(assistant(NEW_MSG, NEW_REQ, NEW_TOOL, "/home/mallory/live")) as Record<string, unknown>;
    writeFileSync(
      join(agentDir, "agent-a1b2c3d4e5f6a7b8c.jsonl"),
      `${JSON.stringify({ ...rec, isSidechain: true, agentId: "a1b2c3d4e5f6a7b8c" })}\n`,
    );
  };
  let live: Awaited<ReturnType<typeof exportTo>>;
  try {
    live = await exportTo(home);
  } finally {
    exportHooks.betweenPasses = undefined;
  }
  assert.equal(live.code, 0, live.stderr);
  assert.match(
    live.stderr,
    /1 file\(s\) appeared between the two passes of --redact and were read as empty: .*agent-a1b2c3d4e5f6a7b8c\.jsonl/,
  );
  const after = tables(live.to);
  assert.equal(after.requests, tables(before.to).requests, "no request of the new file is exported");
  const everything = [live.stdout, live.stderr, ...Object.values(after)].join("\n");
  for (const v of ["mallory", "secret.txt", NEW_MSG, NEW_REQ, NEW_TOOL])
    assert.ok(!everything.includes(v), `${v} of the new file is in the output`);
});
