/**
 * The string scans that replaced quadratic regexes over evidence text (tool results, debug-log entries,
 * answers). Each is checked against the regex it replaced, on every string of the samples and on random
 * strings of the pieces that matter, and on the hostile shape at about a megabyte: the old regexes took
 * minutes there (the square of the length), so these tests guard against quadratic time.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { savedToMatch, classifyOutput } from "../../src/records/tool-output.js";
import {
  classifyMessage,
  persistedMatch,
  startupMatch,
  toolDoneMatch,
  toolFailedMatch,
  toolRunningMatch,
} from "../../src/records/debug-events.js";
import { parseAnswer } from "../../src/analyses/probe.js";
import { condensed } from "../../src/analyses/debug-flags.js";
import { withoutParenTail } from "../../src/analyses/debug-count-tokens.js";
import { isHttp401 } from "../../src/analyses/debug.js";
import { withoutBracketTail } from "../../src/records/streamjson-messages.js";
import { filesUnder, sample } from "../helpers.js";

/** The regexes as they were: the reference for what the scans must match. */
const OLD = {
  savedTo: /^Output has been saved to (?:(?<tr>.*?tool-results[\\/]\S*?\.[A-Za-z0-9]+)(?=\.?(?:\s|$))|(?<any>.+?)\.?\s*$)/,
  toolDone: /^Tool '(?<tool>.+)' completed successfully in (?<dur>.+)$/,
  toolFailed: /^Tool '(?<tool>.+)' failed after (?<dur>[^:]+)(?:: (?<err>[\s\S]*))?$/,
  toolRunning: /^Tool '(?<tool>.+)' still running \((?<dur>.+) elapsed\)$/,
  persisted: /^Persisted tool result to (?<path>.+) \((?<size>[^)]+)\)$/,
  startup: /^\[STARTUP\] (?<what>.*?)(?: in (?<ms>\d+(?:\.\d+)?)ms\b.*)?$/,
  closers: /[.)\]]+$/,
  lines: /\s*\n\s*/g,
  parenTail: / \([^)]*\)$/,
  http401: /\b(?:Streamable HTTP|SSE) error\b.*(?:\(HTTP 401\)|\bHTTP 401\b|\b401\b)/i,
  bracketTail: /\[[^\]]*\]$/,
};

const groups = (m: RegExpExecArray | null): Record<string, string> | null => {
  if (!m) return null;
  const g: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.groups ?? {})) if (v !== undefined) g[k] = v;
  return g;
};
const defined = (o: Record<string, string | undefined> | null): Record<string, string> | null =>
  o && (Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, string>);

const token = (s: string): string | null => /[^\s,;]+/.exec(s)?.[0] ?? null;

/** Each replacement beside its regex: the same groups, or both no match. */
const PAIRS: Array<[string, (s: string) => unknown, (s: string) => unknown]> = [
  ["savedTo", (s) => groups(OLD.savedTo.exec(s)), (s) => defined(savedToMatch(s))],
  ["toolDone", (s) => groups(OLD.toolDone.exec(s)), (s) => defined(toolDoneMatch(s))],
  ["toolFailed", (s) => groups(OLD.toolFailed.exec(s)), (s) => defined(toolFailedMatch(s))],
  ["toolRunning", (s) => groups(OLD.toolRunning.exec(s)), (s) => defined(toolRunningMatch(s))],
  ["persisted", (s) => groups(OLD.persisted.exec(s)), (s) => defined(persistedMatch(s))],
  ["startup", (s) => groups(OLD.startup.exec(s)), (s) => defined(startupMatch(s))],
  // parseAnswer's value is the first run of `[^\s,;]`: that run, with its closers taken off.
  ["closers", (s) => token(s)?.replace(OLD.closers, "") ?? null, (s) => (token(s) === null ? null : parseAnswer(`END=${token(s)}`).end)],
  ["lines", (s) => s.replace(OLD.lines, " ").trim(), (s) => condensed(s)],
  ["parenTail", (s) => s.replace(OLD.parenTail, ""), (s) => withoutParenTail(s)],
  ["http401", (s) => OLD.http401.test(s), (s) => isHttp401(s)],
  ["bracketTail", (s) => s.replace(OLD.bracketTail, ""), (s) => withoutBracketTail(s)],
];

/** Every string value of the samples' JSON lines, every line of the other files, and their tails after `: ` or `] `. */
function sampleStrings(): string[] {
  const out = new Set<string>();
  const add = (s: string) => {
    out.add(s);
    for (const sep of ['": ', "] ", ": ", "to "]) {
      const i = s.indexOf(sep);
      if (i >= 0) out.add(s.slice(i + sep.length));
    }
    const o = s.indexOf("Output has been saved to");
    if (o >= 0) out.add(s.slice(o));
  };
  const walk = (v: unknown) => {
    if (typeof v === "string") add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(walk);
  };
  for (const f of filesUnder(sample(), (p) => /\.(jsonl|json|txt|log)$/.test(p) && statSync(p).size < 4_000_000)) {
    for (const line of readFileSync(f, "utf8").split("\n")) {
      add(line);
      if (line.startsWith("{") || line.startsWith("[")) {
        try {
          walk(JSON.parse(line));
        } catch {
          // not JSON: the line itself is there
        }
      }
    }
  }
  return [...out];
}

test("the scans match what the regexes matched, on every string of the samples", () => {
  const strings = sampleStrings();
  assert.ok(strings.length > 5000, `only ${strings.length} sample strings`);
  const hits: Record<string, number> = {};
  for (const [name, old, scan] of PAIRS) {
    for (const s of strings) {
      const want = old(s);
      assert.deepEqual(scan(s), want, `${name} on ${JSON.stringify(s.slice(0, 200))}`);
      if (want !== null && want !== s) hits[name] = (hits[name] ?? 0) + 1;
    }
  }
  // The samples hold real lines of these kinds: the comparison saw matches, not only misses.
  for (const name of ["savedTo", "toolDone", "persisted", "startup", "closers", "lines", "parenTail"]) assert.ok(hits[name]! > 0, name);
});

/** A deterministic generator, so a failure names a string that can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES: Record<string, string[]> = {
  savedTo: [
    "Output has been saved to ",
    "tool-results/",
    "tool-results\\",
    "tool-results",
    ".",
    ".txt",
    "a",
    "7",
    " ",
    "\t",
    "\n",
    "\r",
    "\u2028",
    "/",
    "-",
    "é",
  ],
  toolDone: ["Tool '", "'", "' completed successfully in ", "16ms", "x", " ", "\n", "\r", "\u2029"],
  toolFailed: ["Tool '", "'", "' failed after ", ":", ": ", "1.2s", "x", " ", "\n", "\r"],
  toolRunning: ["Tool '", "'", "' still running (", " elapsed)", "(", ")", "30s", "x", " ", "\n"],
  persisted: ["Persisted tool result to ", " (", "(", ")", " ", "x", "51.7KB", "\n", "\r"],
  startup: ["[STARTUP] ", " in ", "12", ".5", "ms", "msx", "m", " ", "x", "_", "\n", "\u2028"],
  closers: [".", ")", "]", "a", "(", "["],
  lines: [" ", "\t", "\n", "\r\n", "a", "\u00a0"],
  parenTail: [" (", "(", ")", " ", "x", "\n"],
  http401: ["SSE error", "Streamable HTTP error", "sse ERROR", " ", "401", "4010", "HTTP 401", "(HTTP 401)", "x", "_", "\n", "\r", ":"],
  bracketTail: ["claude-opus-5", "[", "]", "1m", "[1m]", "x"],
};

test("the scans match what the regexes matched, on random strings of the pieces that matter", () => {
  const next = rng(20261204);
  for (const [name, old, scan] of PAIRS) {
    const pieces = PIECES[name]!;
    for (let n = 0; n < 20_000; n++) {
      let s = next() < 0.7 ? pieces[0]! : "";
      const len = Math.floor(next() * 12);
      for (let i = 0; i < len; i++) s += pieces[Math.floor(next() * pieces.length)]!;
      assert.deepEqual(scan(s), old(s), `${name} on ${JSON.stringify(s)}`);
    }
  }
});

/** Runs `f` and fails when it takes longer than `ms`; the old code took minutes on these inputs. */
function fast<T>(what: string, f: () => T, ms = 3000): T {
  const t = performance.now();
  const v = f();
  const took = performance.now() - t;
  assert.ok(took < ms, `${what} took ${Math.round(took)} ms: quadratic again?`);
  return v;
}

const MB = 1_000_000;

test("a token-check stub with a megabyte of spaces, or of tool-results/, in its path is read in linear time", () => {
  const spaces = `Error: result (70,000 characters) exceeds maximum allowed tokens. Output has been saved to x${" ".repeat(MB)}y`;
  const o = fast("savedTo over spaces", () => classifyOutput(spaces));
  assert.equal(o.variant, "token-saved");
  assert.equal(o.savedPath, `x${" ".repeat(MB)}y`);
  const dirs = `Error: result (70,000 characters) exceeds maximum allowed tokens. Output has been saved to ${"tool-results/".repeat(MB / 13)} then.`;
  assert.equal(fast("savedTo over tool-results/", () => classifyOutput(dirs)).savedPath, `${"tool-results/".repeat(MB / 13)} then`);
  const named = `Output has been saved to ${"tool-results/".repeat(MB / 13)}mcp-big-emit-1789422257974.txt. Read it.`;
  assert.deepEqual(
    fast("savedTo, named", () => savedToMatch(named)),
    { tr: `${"tool-results/".repeat(MB / 13)}mcp-big-emit-1789422257974.txt` },
  );
});

test("debug-log entries of a megabyte in the shapes that were quadratic are classified in linear time", () => {
  const startup = `[STARTUP] ${" in 1ms".repeat(MB / 7)}\nx`;
  assert.deepEqual(
    fast("startup", () => classifyMessage(startup, "DEBUG")),
    { server: null, event: { type: "other" } },
    "a multi-line entry is no startup line",
  );
  assert.deepEqual(fast("startup, one line", () => classifyMessage(`[STARTUP] load${" in 1x".repeat(MB / 6)} in 7ms`, "DEBUG")).event, {
    type: "startup",
    what: `load${" in 1x".repeat(MB / 6)}`,
    ms: 7,
  });
  const persisted = `Persisted tool result to x${" (a".repeat(MB / 3)}`;
  assert.deepEqual(fast("persisted", () => classifyMessage(persisted, "DEBUG")).event, { type: "other" });
  assert.deepEqual(
    fast("persisted, sized", () => classifyMessage(`Persisted tool result to x${" (a".repeat(MB / 3)} (51.7KB)`, "DEBUG")).event,
    {
      type: "persisted",
      path: `x${" (a".repeat(MB / 3)}`,
      size: "51.7KB",
      bytes: 52941,
    },
  );
  const failed = `MCP server "lab": Tool '${"' failed after ".repeat(MB / 15)}:x`;
  assert.deepEqual(
    fast("toolFailed", () => classifyMessage(failed, "DEBUG")),
    { server: "lab", event: { type: "other" } },
  );
  const failedOk = `MCP server "lab": Tool 'emit${"' failed after ".repeat(MB / 15)}2s: boom: bad`;
  assert.deepEqual(fast("toolFailed, with error", () => classifyMessage(failedOk, "DEBUG")).event, {
    type: "mcp-tool-failed",
    tool: `emit${"' failed after ".repeat(MB / 15 - 1)}`,
    duration: "2s",
    ms: 2000,
    error: "boom: bad",
  });
  const done = `MCP server "lab": Tool '${"' completed successfully in ".repeat(MB / 29)}\r`;
  assert.deepEqual(fast("toolDone", () => classifyMessage(done, "DEBUG")).event, { type: "other" });
  const running = `MCP server "lab": Tool '${"' still running (".repeat(MB / 17)}\r`;
  assert.deepEqual(fast("toolRunning", () => classifyMessage(running, "DEBUG")).event, { type: "other" });
  assert.deepEqual(
    fast("toolRunning, one line", () =>
      classifyMessage(`MCP server "lab": Tool 'e${"' still running (".repeat(MB / 17)}3s elapsed)`, "DEBUG"),
    ).event,
    {
      type: "mcp-tool-running",
      tool: `e${"' still running (".repeat(MB / 17 - 1)}`,
      duration: "3s",
      ms: 3000,
    },
  );
});

test("an answer with a megabyte of dots is parsed in linear time", () => {
  const dots = ".".repeat(MB / 3);
  const a = fast("parseAnswer", () => parseAnswer(`BEGIN=${dots}x END=${dots}x LAST=${dots}x`));
  assert.deepEqual(a, { begin: `${dots}x`, end: `${dots}x`, last: `${dots}x`, form: "keyed" });
  assert.equal(fast("parseAnswer, closing run", () => parseAnswer(`END=KESTREL-4417${".)]".repeat(MB / 3)}`)).end, "KESTREL-4417");
});

test("a megabyte of spaces without a line break, of ` (`, of `SSE error` or of `[` is read in linear time", () => {
  assert.equal(
    fast("condensed", () => condensed(`a${" ".repeat(MB)}b\n c`)),
    `a${" ".repeat(MB)}b c`,
  );
  assert.equal(
    fast("withoutParenTail", () => withoutParenTail(`emit${" (a".repeat(MB / 3)}`)),
    `emit${" (a".repeat(MB / 3)}`,
  );
  assert.equal(withoutParenTail("emit (16ms)"), "emit");
  assert.equal(
    fast("isHttp401", () => isHttp401(`${"SSE error ".repeat(MB / 10)}\n(HTTP 401)`)),
    false,
  );
  assert.equal(isHttp401("Streamable HTTP error: Error POSTing to endpoint (HTTP 401): unauthorized"), true);
  assert.equal(
    fast("withoutBracketTail", () => withoutBracketTail(`claude${"[".repeat(MB)}`)),
    `claude${"[".repeat(MB)}`,
  );
  assert.equal(withoutBracketTail("claude-opus-5[1m]"), "claude-opus-5");
});
