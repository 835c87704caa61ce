import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Two sessions of one project, the second resumed from the first (ids fixed, names sort A before B). */
export const RESUMED = {
  first: "a1a1a1a1-0000-4000-8000-00000000000a",
  resumed: "b2b2b2b2-0000-4000-8000-00000000000b",
  project: "-home-dev-alpha",
};

/**
 * A config dir in the shapes Claude Code writes: session A delivers db's instructions (cut at the cap), calls
 * mcp__db__query twice (the first result saved by the size check into A's tool-results/, the second interrupted
 * before its result was written), and session B is A resumed: it starts with copies of A's records (A's
 * sessionId, uuids and timestamps), writes the interrupted call's result, then delivers db's instructions again
 * and makes one call of its own. `swap` names the files so that the resumed one is read first.
 */
export function writeResumedHome(dir: string, swap = false): { first: string; resumed: string } {
  const first = swap ? RESUMED.resumed : RESUMED.first;
  const resumed = swap ? RESUMED.first : RESUMED.resumed;
  const proj = join(dir, "projects", RESUMED.project);
  mkdirSync(join(proj, first, "tool-results"), { recursive: true });
  let n = 0;
  let parent: string | null = null;
  const env = (sessionId: string, x: object) => {
    const uuid = `00000000-0000-4000-9000-${String(++n).padStart(12, "0")}`;
    const r = {
      parentUuid: parent,
      isSidechain: false,
      userType: "external",
      cwd: "/home/dev/alpha",
      sessionId,
      version: "2.1.285",
      gitBranch: "",
      ...x,
      uuid,
      timestamp: new Date(Date.UTC(2026, 10, sessionId === first ? 1 : 2, 10, 0, n)).toISOString(),
    };
    parent = uuid;
    return r;
  };
  const usage = (cc: number, cr: number) => ({
    input_tokens: 3,
    cache_creation_input_tokens: cc,
    cache_read_input_tokens: cr,
    output_tokens: 40,
  });
  const asst = (sid: string, id: string, content: object[], u: object, stop = "tool_use") =>
    content.map((b, i) =>
      env(sid, {
        type: "assistant",
        requestId: `req_${id}`,
        message: {
          model: "claude-opus-5-5",
          id: `msg_${id}`,
          type: "message",
          role: "assistant",
          content: [b],
          stop_reason: i === content.length - 1 ? stop : null,
          stop_sequence: null,
          usage: u,
        },
      }),
    );
  const result = (sid: string, id: string, content: unknown, toolUseResult: unknown, isError = false) =>
    env(sid, {
      type: "user",
      message: { role: "user", content: [{ tool_use_id: id, type: "tool_result", content, is_error: isError }] },
      toolUseResult,
    });
  const delta = (sid: string, text: string) =>
    env(sid, {
      type: "attachment",
      attachment: { type: "mcp_instructions_delta", addedNames: ["db"], addedBlocks: [`## db\n${text}`], removedNames: [] },
    });
  const call = (id: string) => ({ type: "tool_use", id, name: "mcp__db__query", input: { sql: "select 1" } });

  const full = "q".repeat(60_000);
  const saved = JSON.stringify([{ type: "text", text: full }], null, 2);
  writeFileSync(join(proj, first, "tool-results", "toolu_A1.json"), saved);
  const printed = `/home/dev/.claude/projects/${RESUMED.project}/${first}/tool-results/toolu_A1.json`;
  const a = [
    env(first, { type: "user", message: { role: "user", content: "query the db" } }),
    delta(first, `${"d".repeat(2048)}… [truncated]`),
    ...asst(first, "A1", [{ type: "text", text: "Querying." }, call("toolu_A1")], usage(10_000, 0)),
    result(
      first,
      "toolu_A1",
      `<persisted-output>\nOutput too large (${(Buffer.byteLength(saved) / 1024).toFixed(1)}KB). Full output saved to: ${printed}\n\nPreview (first 2KB):\n${saved.slice(0, 2000)}\n...\n</persisted-output>`,
      [{ type: "text", text: full }],
    ),
    ...asst(first, "A2", [call("toolu_A2")], usage(1_200, 10_000)),
  ];
  parent = a[a.length - 1]!.uuid;
  const b = [
    ...a,
    result(resumed, "toolu_A2", "[Request interrupted by user for tool use]", "Error: [Request interrupted by user for tool use]", true),
    env(resumed, { type: "user", message: { role: "user", content: "go on" } }),
    delta(resumed, "D".repeat(1000)),
    ...asst(resumed, "B1", [call("toolu_B1")], usage(2_000, 11_200)),
    result(resumed, "toolu_B1", [{ type: "text", text: "x".repeat(500) }], [{ type: "text", text: "x".repeat(500) }]),
    ...asst(resumed, "B2", [{ type: "text", text: "Done." }], usage(700, 13_200), "end_turn"),
  ];
  const jsonl = (recs: object[]) => recs.map((r) => JSON.stringify(r)).join("\n") + "\n";
  writeFileSync(join(proj, `${first}.jsonl`), jsonl(a));
  writeFileSync(join(proj, `${resumed}.jsonl`), jsonl(b));
  return { first, resumed };
}
