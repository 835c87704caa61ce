// Shared builders for the outputs samples (make-outputs.mjs, make-outputs-more.mjs): the seed 003
// lab server's text, Claude Code's stubs and messages for large outputs, debug-log lines, and one
// `claude -p` lab run written as a Claude config dir.

import { join } from "node:path";
import { hash, projectKey, session, text, toolUse, writeText } from "./lib.mjs";

export const WORDS = (
  "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec romeo " +
  "sierra tango uniform victor whiskey xray yankee zulu merge riverbank stone cloud paper amber cedar ember frost grain " +
  "harbor island jungle lantern meadow nectar orbit pepper quartz ribbon saddle timber velvet willow anchor basket"
).split(" ");

/** mulberry32: a tiny deterministic PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Exactly `n` characters of filler; `cjk` swaps the word lines for 59 random ideographs per line. */
export function labText(n, seed, cjk = false) {
  const r = rng(seed);
  const tag = hash("tag", String(seed)).toString("hex").slice(0, 12);
  const head = `BEGIN-MARKER: start-${tag}\n`;
  const tail = `\nEND-MARKER: end-${tag}\n`;
  const want = n - head.length - tail.length;
  const parts = [];
  let len = 0;
  for (let i = 1; len < want; i++) {
    let line;
    if (cjk) {
      line = "";
      for (let k = 0; k < 59; k++) line += String.fromCharCode(0x4e00 + Math.floor(r() * 0x5000));
    } else {
      const w = [];
      for (let k = 0; k < 8; k++) w.push(WORDS[Math.floor(r() * WORDS.length)]);
      line = `${String(i).padStart(6, "0")} ${w.join(" ")}`;
    }
    parts.push(line + "\n");
    len += line.length + 1;
  }
  return { text: head + parts.join("").slice(0, want) + tail, tag };
}

/** Claude Code's size text (FORMATS.md 6.1): <1024 → "N bytes", else 1024-based, one decimal, ".0" dropped. */
export function formatBytes(n) {
  if (n < 1024) return `${n} bytes`;
  const units = ["KB", "MB", "GB"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Math.round(v * 10) / 10}${units[u]}`;
}

/** The size stub (FORMATS.md 6.2 A): a 2,000-char preview cut at the last newline when that lies past 1,000. */
export function persistedStub(printedPath, saved) {
  let preview = saved.slice(0, 2000);
  const nl = preview.lastIndexOf("\n");
  if (saved.length > 2000 && nl > 1000) preview = preview.slice(0, nl);
  const more = saved.length > preview.length ? "\n...\n" : "\n";
  return `<persisted-output>\nOutput too large (${formatBytes(Buffer.byteLength(saved))}). Full output saved to: ${printedPath}\n\nPreview (first ${formatBytes(2000)}):\n${preview}${more}</persisted-output>`;
}

/** The token-check message (FORMATS.md 6.2 B) with its REQUIREMENTS block. */
export function tokenMessage(chars, printedPath, { format = "Plain text", lines } = {}) {
  const n = typeof chars === "number" ? chars.toLocaleString("en-US") : chars;
  const across = lines === undefined ? "" : ` across ${lines} line${lines === "1" || lines === 1 ? "" : "s"}`;
  return [
    `Error: result (${n} characters${across}) exceeds maximum allowed tokens. Output has been saved to ${printedPath}.`,
    `Format: ${format}`,
    "Use offset and limit parameters to read specific portions of the file, search within it for specific content, and jq to make structured queries.",
    "REQUIREMENTS FOR SUMMARIZATION/ANALYSIS/REVIEW:",
    `- You MUST read the content from the file at ${printedPath} in sequential chunks until 100% of the content has been read.`,
    "- If you receive truncation warnings when reading the file, reduce the chunk size until you have read 100% of the content without truncation.",
    "- Before producing ANY summary or analysis, you MUST explicitly describe what portion of the content you have read. ***If you did not read the entire content, you MUST explicitly state this.***",
  ].join("\n");
}

/** Read's model-visible text: `cat -n` numbering from `offset`. */
export function numberedLines(lines, offset = 1) {
  return lines.map((l, i) => `${String(offset + i).padStart(6)}\t${l}`).join("\n");
}

export const at = (iso, ms) => new Date(Date.parse(iso) + ms).toISOString();

/** A debug log: `<ISO time> [DEBUG] <message>` lines in time order. */
export class DebugLog {
  constructor() {
    this.lines = [];
  }
  add(time, msg, level = "DEBUG") {
    this.lines.push({ time, text: `${time} [${level}] ${msg}` });
  }
  apiRequest(time, path, seed) {
    const rid = hash("rid", seed, time, path).toString("hex");
    this.add(time, `[API REQUEST] ${path} x-client-request-id=${rid.slice(0, 8)}-${rid.slice(8, 12)}-4${rid.slice(13, 16)}-8${rid.slice(17, 20)}-${rid.slice(20, 32)} source=sdk`);
  }
  text() {
    return this.lines.sort((a, b) => a.time.localeCompare(b.time)).map((l) => l.text).join("\n") + "\n";
  }
}

/** Input usage for a request of `total` tokens whose prefix `cached` was read from the cache. */
export function usage(total, cached, output) {
  return { input_tokens: cached ? 1 : 3, cache_read_input_tokens: cached, cache_creation_input_tokens: total - cached - (cached ? 1 : 3), output_tokens: output };
}

const HOME = "/Users/rulestack";

/**
 * One `claude -p` lab run: prompt → one MCP call → what Claude Code made of the result → answer
 * (→ optional Read follow-ups). Writes the transcript, the tool-results file and the debug log.
 */
export function labRun(o) {
  const { dir, sid, chars, outcome, delta, countTokens, cjk = false, tool = "emit_text", start, reads = [], first = 3295, debugAt } = o;
  const cwd = `/private/var/folders/7x/q1l2m3n4/T/tmp.${sid.slice(-6)}`;
  const key = projectKey(cwd);
  const proj = join(dir, "claude", "projects", key);
  const trDir = join(proj, sid, "tool-results");
  const printedBase = `${HOME}/.claude/projects/${key}/${sid}/tool-results`;
  const s = session({ sessionId: sid, cwd, version: "2.1.273", model: "claude-opus-5", start, seed: sid, gitBranch: "" });
  const name = `mcp__big__${tool}`;
  s.user(`Call ${name} once with chars=${chars}, then reply with the END-MARKER value or NOMARKER.`, { dt: 0 });
  const r1 = s.assistantSplit({ blocks: [toolUse(name, { chars })], usage: usage(first, 0, 61) });
  const use = r1[0].obj;
  const id = use.message.content[0].id;
  const { text: body, tag } = labText(chars, o.seed ?? chars, cjk);
  const blocks = [{ type: "text", text: body }];
  const log = new DebugLog();
  const t0 = at(use.timestamp, -2400);
  log.add(at(start, -1500), "mcp runtime arm: v2 (source: growthbook)");
  log.add(at(start, -1200), 'MCP server "big": Successfully connected (transport: stdio) in 212ms');
  log.add(at(start, -1199), 'MCP server "big": Connection established with capabilities: {"hasTools":true,"hasPrompts":false,"hasResources":false,"serverVersion":{"name":"big","version":"0.1"}}');
  log.apiRequest(t0, "/v1/messages", sid);
  log.add(at(use.timestamp, 40), `MCP server "big": Calling MCP tool: ${tool}`);
  log.add(at(use.timestamp, 71), `MCP server "big": Tool '${tool}' completed successfully in 31ms`);
  if (countTokens) log.apiRequest(at(use.timestamp, 95), "/v1/messages/count_tokens", sid);
  let content = blocks;
  let savedPrinted = null;
  if (outcome === "size") {
    const saved = JSON.stringify(blocks, null, 2);
    writeText(join(trDir, `${id}.json`), saved);
    content = persistedStub(`~/.claude/projects/${key}/${sid}/tool-results/${id}.json`, saved);
    savedPrinted = `${printedBase}/${id}.json`;
    log.add(at(use.timestamp, 430), `Persisted tool result to ${savedPrinted} (${formatBytes(Buffer.byteLength(saved))})`);
  } else if (outcome === "token") {
    const ms = Date.parse(use.timestamp) + 431;
    const file = `mcp-big-${tool}-${ms}.txt`;
    writeText(join(trDir, file), body);
    savedPrinted = `${printedBase}/${file}`;
    content = tokenMessage(chars, savedPrinted);
    log.add(at(use.timestamp, 431), `Persisted tool result to ${savedPrinted} (${formatBytes(Buffer.byteLength(body))})`);
  }
  const res = s.toolResult(id, content, blocks, { dt: 900 });
  log.apiRequest(at(res.obj.timestamp, 20), "/v1/messages", sid);
  let total = first + delta;
  const seen = outcome === "inline";
  const answer = seen ? `END-MARKER: end-${tag}` : "NOMARKER — the result was replaced before it reached me; I only have " + (outcome === "size" ? "a 2KB preview of the saved JSON." : "the path of the saved file.");
  if (reads.length === 0) {
    s.assistantSplit({ blocks: [text(answer)], usage: usage(total, first, 24) });
  } else {
    // Follow-up reads of the saved file, in parallel when there are several (one request).
    const lines = (outcome === "size" ? JSON.stringify(blocks, null, 2) : body).replace(/\n$/, "").split("\n");
    const r2 = s.assistantSplit({ blocks: reads.map((r) => toolUse("Read", { file_path: savedPrinted, ...r.input })), usage: usage(total, first, 40 + 30 * reads.length) });
    r2.forEach((e, i) => {
      const rid = e.obj.message.content[0].id;
      const off = reads[i].input.offset ?? 1;
      const part = lines.slice(off - 1, reads[i].input.limit ? off - 1 + reads[i].input.limit : undefined);
      const shown = numberedLines(part, off);
      if (reads[i].countTokens) log.apiRequest(at(e.obj.timestamp, 60), "/v1/messages/count_tokens", sid);
      s.toolResult(rid, shown, { type: "text", file: { filePath: savedPrinted, content: part.join("\n"), numLines: part.length, startLine: off, totalLines: lines.length } }, { dt: 300 });
    });
    const prev = total;
    total = o.final;
    s.assistantSplit({ blocks: [text(o.readAnswer ?? answer)], usage: usage(total, prev, 30) });
  }
  s.write(join(proj, `${sid}.jsonl`));
  writeText(debugAt ?? join(dir, "claude", "debug", `${sid}.txt`), log.text());
  return { sid, id, tag, body };
}

