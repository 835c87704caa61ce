// Writes a synthetic Claude Code transcript of at least `targetBytes` in the real record shapes:
// split assistant responses repeating usage, tool results from ~100 B to several MB (with the
// toolUseResult copy Claude Code keeps), attachments, file-history snapshots and progress records.
// Deterministic (seeded), streamed to disk.
import { createWriteStream } from "node:fs";
import { once } from "node:events";

function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 4294967296;
}

const WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike 日本語 テキスト".split(" ");

export async function generate(path, targetBytes, seed = 7) {
  const r = rng(seed);
  const out = createWriteStream(path);
  let bytes = 0,
    n = 0,
    turn = 0,
    cache = 4000;
  const sid = "0b5e55ed-0000-4000-8000-000000000000";
  const text = (len) => {
    let s = "";
    while (s.length < len)
      s += `${String(n).padStart(6, "0")} ${WORDS[Math.floor(r() * WORDS.length)]} "q" \\ tab\t ${WORDS[Math.floor(r() * WORDS.length)]}\n`;
    return s.slice(0, len);
  };
  const env = () => ({
    parentUuid: `u-${n - 1}`,
    isSidechain: false,
    userType: "external",
    cwd: "/home/bench/project",
    sessionId: sid,
    version: "2.1.88",
    gitBranch: "main",
  });
  const ts = () => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  const write = async (obj) => {
    n++;
    const line = JSON.stringify(obj) + "\n";
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, "drain");
  };
  const resultSize = () => {
    const x = r();
    if (x < 0.7) return 100 + Math.floor(r() * 5000);
    if (x < 0.95) return 5000 + Math.floor(r() * 95000);
    if (x < 0.995) return 100000 + Math.floor(r() * 900000);
    return 1000000 + Math.floor(r() * 4000000);
  };
  while (bytes < targetBytes) {
    turn++;
    if (turn % 10 === 1)
      await write({
        ...env(),
        type: "user",
        message: { role: "user", content: text(200 + Math.floor(r() * 800)) },
        uuid: `u-${n}`,
        timestamp: ts(),
      });
    await write({
      ...env(),
      attachment: { type: "todo_reminder", content: [], itemCount: 0 },
      type: "attachment",
      uuid: `u-${n}`,
      timestamp: ts(),
    });
    const id = `msg_${String(turn).padStart(10, "0")}`;
    const frags = 1 + Math.floor(r() * 3);
    const usage = (final) => ({
      input_tokens: final ? 3 : 1,
      cache_creation_input_tokens: 200 + (turn % 50),
      cache_read_input_tokens: cache,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 200 + (turn % 50) },
      output_tokens: final ? 50 + (turn % 400) : 2,
      service_tier: "standard",
    });
    for (let f = 0; f < frags; f++) {
      const final = f === frags - 1;
      const block = final
        ? { type: "tool_use", id: `toolu_${turn}`, name: "Bash", input: { command: "cat big.log" } }
        : { type: "text", text: text(300 + Math.floor(r() * 2000)) };
      await write({
        ...env(),
        message: {
          model: "claude-opus-5",
          id,
          type: "message",
          role: "assistant",
          content: [block],
          stop_reason: final ? "tool_use" : null,
          stop_sequence: null,
          usage: usage(final),
        },
        requestId: `req_${turn}`,
        type: "assistant",
        uuid: `u-${n}`,
        timestamp: ts(),
      });
    }
    const body = text(resultSize());
    await write({
      ...env(),
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${turn}`, content: body, is_error: false }] },
      uuid: `u-${n}`,
      timestamp: ts(),
      toolUseResult: { stdout: body, stderr: "", interrupted: false, isImage: false },
      sourceToolAssistantUUID: `u-${n - 1}`,
    });
    cache += 150 + Math.floor(r() * 400);
    if (turn % 25 === 0)
      await write({
        type: "file-history-snapshot",
        messageId: `u-${n}`,
        snapshot: {
          messageId: `u-${n}`,
          trackedFileBackups: Object.fromEntries(
            Array.from({ length: 40 }, (_, i) => [`src/f${i}.ts`, { backupFileName: `h${i}@v${turn}`, version: turn, backupTime: ts() }]),
          ),
          timestamp: ts(),
        },
        isSnapshotUpdate: false,
      });
    if (turn % 40 === 0)
      await write({
        ...env(),
        type: "progress",
        data: { type: "bash_progress", output: text(500), elapsedTimeSeconds: 3 },
        toolUseID: `toolu_${turn}`,
        parentToolUseID: `toolu_${turn}`,
        uuid: `u-${n}`,
        timestamp: ts(),
      });
  }
  out.end();
  await once(out, "finish");
  return { bytes, lines: n, requests: turn };
}
