/**
 * Evidence text in the shapes that made regexes take the square of its length (a fuzz review: 26–46 s at
 * 200–420 KB, minutes at a megabyte): each command must finish quickly with the right reading. These
 * tests guard against quadratic time; the bound is generous, the old code needed minutes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli, type CliResult } from "../helpers.js";

const SID = "aaaaaaaa-0000-4000-8000-000000000001";
const TS = "2026-09-30T08:30:12.404Z [DEBUG] ";
const MB = 1_000_000;
const BOUND_MS = 8000;

async function timed(args: string[]): Promise<CliResult> {
  const t = performance.now();
  const r = await runCli(args);
  const took = performance.now() - t;
  assert.ok(took < BOUND_MS, `${args[0]} took ${Math.round(took)} ms: quadratic again?`);
  return r;
}

const assistant = (content: unknown[]) => ({
  type: "assistant",
  uuid: "u1",
  parentUuid: null,
  sessionId: SID,
  timestamp: "2026-01-01T00:00:00.000Z",
  requestId: "req_1",
  message: {
    id: "msg_1",
    role: "assistant",
    model: "m",
    content,
    stop_reason: "end_turn",
    usage: { input_tokens: 1, cache_read_input_tokens: 10, cache_creation_input_tokens: 0, output_tokens: 5 },
  },
});

function tmp(): string {
  return mkdtempSync(join(tmpdir(), "ccf-linear-"));
}

test("outputs and servers read a token-check stub whose path is a megabyte of spaces quickly, and the warning is cut", async () => {
  const dir = tmp();
  try {
    const path = `x${" ".repeat(MB)}y`;
    const project = join(dir, "projects", "-tmp-x");
    mkdirSync(project, { recursive: true });
    const file = join(project, `${SID}.jsonl`);
    const lines = [
      assistant([{ type: "tool_use", id: "toolu_1", name: "mcp__big__emit_text", input: {} }]),
      {
        type: "user",
        uuid: "u2",
        parentUuid: "u1",
        sessionId: SID,
        timestamp: "2026-01-01T00:00:01.000Z",
        message: {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_1",
              content: `Error: result (70,000 characters) exceeds maximum allowed tokens. Output has been saved to ${path}`,
            },
          ],
        },
      },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");

    const o = parseEnvelope(await timed(["outputs", file, "--json"]), "outputs");
    assert.equal(o.toolResults.length, 1);
    assert.equal(o.toolResults[0].variant, "token-saved");
    assert.equal(o.toolResults[0].reportedChars, 70000);
    assert.equal(o.toolResults[0].savedPath, path);

    const s = await timed(["servers", "--claude-dir", dir, "--json"]);
    const env = parseEnvelope(s, "servers");
    assert.equal(env.servers[0].server, "big");
    const warning = s.stderr.split("\n").find((l) => l.includes("saved output not found"));
    assert.ok(warning, s.stderr);
    assert.ok(
      warning.includes(`saved output not found: x${" ".repeat(254)}…${" ".repeat(255)}y (looked in ${project}`),
      warning.slice(0, 200),
    );
    assert.ok(warning.length < 1000, `the warning is ${warning.length} chars`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("debug reads megabyte entries in the shapes that were quadratic quickly, and classifies the lines after them", async () => {
  const dir = tmp();
  try {
    const log = join(dir, "debug.txt");
    writeFileSync(
      log,
      [
        `${TS}[STARTUP] ${" in 1ms".repeat(MB / 7)}`,
        "x",
        `${TS}Persisted tool result to x${" (a".repeat(MB / 3)}`,
        `${TS}MCP server "lab": Tool '${"' failed after ".repeat(MB / 15)}:x`,
        `${TS}MCP server "lab": Tool 'emit' failed after 2s: boom`,
        `${TS}Persisted tool result to /h/.claude/projects/-p/${SID}/tool-results/toolu_01.txt (51.7KB)`,
        `${TS}[STARTUP] Loaded plugins in 12ms`,
        "",
      ].join("\n"),
    );
    const env = parseEnvelope(await timed(["debug", log, "--json"]), "debug");
    const kinds = env.debug.events.map((e: { kind: string }) => e.kind);
    assert.deepEqual(kinds, ["other", "other", "other", "mcp-tool-failed", "persisted", "startup"]);
    assert.equal(env.debug.events[0].text.length, "[STARTUP] ".length + MB - (MB % 7) + 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("debug --redact reads a megabyte of `-<13 digits>` quickly and still shortens a saved file's stamp", async () => {
  const dir = tmp();
  try {
    const log = join(dir, "debug.txt");
    writeFileSync(
      log,
      [
        `${TS}x mcp-${"-1111111111111".repeat(MB / 14)}`,
        `${TS}Persisted tool result to tool-results/mcp-big-emit-1789422257974.txt (2KB)`,
        "",
      ].join("\n"),
    );
    const env = parseEnvelope(await timed(["debug", log, "--json", "--redact"]), "debug");
    assert.equal(env.debug.events.length, 2);
    assert.equal(env.debug.events[0].text, `x mcp-${"-1111111111111".repeat(MB / 14)}`);
    const saved = env.debug.events[1];
    assert.equal(saved.kind, "persisted");
    assert.ok(!JSON.stringify(env).includes("1789422257974"), "the stamp is redacted");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("instructions reads an answer with a megabyte of dots quickly and keeps the values", async () => {
  const dir = tmp();
  try {
    const file = join(dir, `${SID}.jsonl`);
    const d = `${".".repeat(MB / 3)}x`;
    const lines = [
      {
        type: "user",
        uuid: "u0",
        parentUuid: null,
        sessionId: SID,
        timestamp: "2026-01-01T00:00:00.000Z",
        message: { role: "user", content: "What are the codewords?" },
      },
      { ...assistant([{ type: "text", text: `BEGIN=${d} END=${d}. LAST=${d})]` }]), uuid: "u1", parentUuid: "u0" },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const env = parseEnvelope(await timed(["instructions", file, "--json"]), "instructions");
    assert.deepEqual(env.answer.got, { begin: d, end: d, last: d });
    assert.equal(env.answer.form, "keyed");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
