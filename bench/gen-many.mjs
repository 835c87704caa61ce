// Generators for the scale checks of issue 9 (not committed data; run them into /tmp):
//   node bench/gen-many.mjs requests N FILE       one transcript of N small requests (one assistant record each)
//   node bench/gen-many.mjs subagents N DIR       a config dir: one session with N subagent files (2 requests each)
//                                                 plus 20 old-layout agent-*.jsonl beside it, half of another session
//   node bench/gen-many.mjs sessions N DIR [P]    a config dir: N sessions in P projects (default 10), each with 2 old-layout agent files
// Then e.g. `/usr/bin/time -v node dist/cli.js requests FILE --json > /dev/null`.
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const uuid = (n, tag = 0) => `${tag.toString(16).padStart(8, "0")}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/** One assistant record: the smallest request the tool counts. */
export function requestLine(sessionId, n, agentId) {
  return JSON.stringify({
    type: "assistant",
    sessionId,
    uuid: `u-${n}`,
    timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    cwd: "/home/bench/project",
    version: "2.1.88",
    ...(agentId ? { agentId, isSidechain: true } : {}),
    requestId: `req_${String(n).padStart(12, "0")}`,
    message: {
      id: `msg_${String(n).padStart(12, "0")}`,
      model: "claude-bench",
      role: "assistant",
      stop_reason: "end_turn",
      content: [{ type: "text", text: "ok" }],
      usage: { input_tokens: 3, cache_creation_input_tokens: 10, cache_read_input_tokens: 1000 + n, output_tokens: 5 },
    },
  });
}

async function writeLines(path, n, line) {
  const out = createWriteStream(path);
  let buf = "";
  for (let i = 1; i <= n; i++) {
    buf += `${line(i)}\n`;
    if (buf.length > 1 << 16) {
      if (!out.write(buf)) await once(out, "drain");
      buf = "";
    }
  }
  out.end(buf);
  await once(out, "finish");
}

/** A config dir with one session holding `n` subagent files of two requests each; returns the main transcript path. */
export function genSubagents(dir, n) {
  const sid = uuid(1, 0x5ca1e);
  const project = join(dir, "projects", "-home-bench-project");
  const subs = join(project, sid, "subagents");
  mkdirSync(subs, { recursive: true });
  const main = join(project, `${sid}.jsonl`);
  writeFileSync(main, `${requestLine(sid, 0)}\n`);
  for (let i = 0; i < n; i++) {
    const agent = `a${i.toString(16).padStart(8, "0")}`;
    writeFileSync(join(subs, `agent-${agent}.jsonl`), `${requestLine(sid, 2 * i + 1, agent)}\n${requestLine(sid, 2 * i + 2, agent)}\n`);
  }
  // Old layout beside the main file: half belong to this session, half to another.
  const other = uuid(2, 0x5ca1e);
  for (let i = 0; i < 20; i++) writeFileSync(join(project, `agent-old${i}.jsonl`), `${requestLine(i % 2 ? sid : other, 10_000_000 + i)}\n`);
  return main;
}

/** `n` sessions over `projects` projects, each with two old-layout agent files beside it. */
export function genSessions(dir, n, projects = 10) {
  for (let i = 0; i < n; i++) {
    const project = join(dir, "projects", `-home-bench-p${i % projects}`);
    mkdirSync(project, { recursive: true });
    const sid = uuid(i, 0x5e55);
    writeFileSync(join(project, `${sid}.jsonl`), `${requestLine(sid, i)}\n`);
    for (const k of [0, 1]) writeFileSync(join(project, `agent-${i}x${k}.jsonl`), `${requestLine(sid, i, `${i}x${k}`)}\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, count, target, projects] = process.argv.slice(2);
  const n = Number(count);
  if (!target || !Number.isSafeInteger(n) || n < 0) {
    process.stderr.write("usage: node bench/gen-many.mjs requests|subagents|sessions N PATH\n");
    process.exit(2);
  }
  if (mode === "requests") await writeLines(target, n, (i) => requestLine(uuid(1, 0xb16), i));
  else if (mode === "subagents") process.stdout.write(`${genSubagents(target, n)}\n`);
  else if (mode === "sessions") genSessions(target, n, Number(projects ?? 10));
  else {
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exit(2);
  }
}
