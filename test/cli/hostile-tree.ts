import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sample } from "../helpers.js";

/** What no output may ever contain: it lives only in files outside the config dir. */
export const SECRET = "SECRET-MARKER-5f1d9c";
export const FEED = "feed0000-1111-4222-8333-444444444444";
export const DOOD = "d00d0000-1111-4222-8333-444444444444";
/** A plain session in the folder `projects/-evil-proj` links to, outside the config dir: read only with --follow-links. */
export const ACE = "ace00000-1111-4222-8333-444444444444";
const PROJECT = "-tmp-lab-demo";

/** The printed saved paths the hostile session names; each must end up suspicious or missing, never read outside. */
export const HOSTILE_NAMES = [
  "/home/dev/.claude/projects/-tmp-lab-demo/feed/tool-results/../../../../../outside/secret.txt",
  "tool-results/../../../../etc/passwd",
  "C:\\Users\\x\\.claude\\tool-results\\..\\..\\..\\outside\\secret.txt",
  "/home/dev/.claude/tool-results//etc/passwd",
  "/home/dev/.claude/tool-results/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "/home/dev/.claude/tool-results/..%5c..%5csecret.txt",
  "/home/dev/.claude/projects/k/feed/tool-results/toolu_linked.txt",
  "/home/dev/.claude/projects/k/feed/tool-results/toolu_fifo.txt",
];

export interface HostileTree {
  root: string;
  cfg: string;
  outside: string;
  /** The folder outside that `projects/-evil-proj` links to (never touched unless --follow-links is given). */
  evilProj: string;
  fifo: string;
}

function persisted(id: string, path: string, session: string, line: number): string {
  const content = `<persisted-output>\nOutput too large (1.2KB). Full output saved to: ${path}\n\nPreview (first 2KB):\nhello\n</persisted-output>`;
  return JSON.stringify({
    type: "user",
    sessionId: session,
    cwd: "/tmp/lab/demo",
    uuid: `u-${line}`,
    timestamp: `2026-11-02T10:00:${String(line).padStart(2, "0")}.000Z`,
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] },
  });
}

function assistant(session: string, line: number): string {
  return JSON.stringify({
    type: "assistant",
    sessionId: session,
    cwd: "/tmp/lab/demo",
    uuid: `a-${line}`,
    timestamp: `2026-11-02T10:00:${String(line).padStart(2, "0")}.000Z`,
    message: {
      id: `msg_${line}`,
      role: "assistant",
      model: "claude-x",
      content: [{ type: "text", text: "ok" }],
      usage: { input_tokens: 10, output_tokens: 2 },
    },
  });
}

/**
 * A config dir (a copy of samples/claude-home) with every way out planted: links from a session file, a
 * project folder, a subagent file, a saved file, a tool-results folder and a debug log to files outside
 * holding SECRET; a subagent folder loop and a self-link; FIFOs as saved file and debug log; and
 * traversal names in persisted-output text. The project folder `-evil-proj` links out of the config dir
 * (skipped unless --follow-links); the folder it leads to holds a plain session and a link to SECRET, which
 * stays skipped even with the flag.
 */
export function buildHostileTree(root: string): HostileTree {
  const cfg = join(root, "cfg");
  const outside = join(root, "outside");
  mkdirSync(outside, { recursive: true });
  cpSync(sample("claude-home"), cfg, { recursive: true });
  const secretLine = `root:x:0:0:${SECRET}:/root:/bin/bash`;
  writeFileSync(join(outside, "secret.txt"), `${secretLine}\n`);
  writeFileSync(
    join(outside, "session.jsonl"),
    `${JSON.stringify({ type: "user", sessionId: "beef", message: { role: "user", content: SECRET } })}\n${secretLine}\n`,
  );
  writeFileSync(
    join(outside, "agent-evil.jsonl"),
    `${JSON.stringify({ type: "user", sessionId: FEED, message: { role: "user", content: SECRET } })}\n${secretLine}\n`,
  );
  mkdirSync(join(outside, "tr"));
  writeFileSync(join(outside, "tr", "toolu_x.txt"), `${secretLine}\n`);
  const evilProj = join(outside, "proj");
  mkdirSync(evilProj);
  symlinkSync(join(outside, "secret.txt"), join(evilProj, "cafe0000-1111-4222-8333-444444444444.jsonl"));
  writeFileSync(join(evilProj, `${ACE}.jsonl`), `${assistant(ACE, 1)}\n`);

  const proj = join(cfg, "projects", PROJECT);
  const lines = [assistant(FEED, 1), ...HOSTILE_NAMES.map((p, i) => persisted(`toolu_h${i}`, p, FEED, i + 2))];
  writeFileSync(join(proj, `${FEED}.jsonl`), `${lines.join("\n")}\n`);
  const feed = join(proj, FEED);
  mkdirSync(join(feed, "tool-results"), { recursive: true });
  mkdirSync(join(feed, "subagents"), { recursive: true });
  symlinkSync(join(outside, "secret.txt"), join(feed, "tool-results", "toolu_linked.txt"));
  execFileSync("mkfifo", [join(feed, "tool-results", "toolu_fifo.txt")]);
  symlinkSync(join(outside, "agent-evil.jsonl"), join(feed, "subagents", "agent-evil.jsonl"));
  symlinkSync(join(feed, "subagents"), join(feed, "subagents", "loop"));
  symlinkSync(join(feed, "subagents", "agent-self.jsonl"), join(feed, "subagents", "agent-self.jsonl"));
  symlinkSync(join(outside, "secret.txt"), join(cfg, "debug", `${FEED}.txt`));

  writeFileSync(
    join(proj, `${DOOD}.jsonl`),
    `${[assistant(DOOD, 1), persisted("toolu_d1", "/home/dev/.claude/x/tool-results/toolu_x.txt", DOOD, 2)].join("\n")}\n`,
  );
  mkdirSync(join(proj, DOOD));
  symlinkSync(join(outside, "tr"), join(proj, DOOD, "tool-results"));
  execFileSync("mkfifo", [join(cfg, "debug", `${DOOD}.txt`)]);

  symlinkSync(join(outside, "session.jsonl"), join(proj, "beef0000-1111-4222-8333-444444444444.jsonl"));
  symlinkSync(evilProj, join(cfg, "projects", "-evil-proj"));
  symlinkSync(join(cfg, "projects", "-loop"), join(cfg, "projects", "-loop"));

  const fifo = join(root, "pipe.fifo");
  execFileSync("mkfifo", [fifo]);
  return { root, cfg, outside, evilProj, fifo };
}

/** Every entry under `dir` (links not followed, FIFOs never opened) with type, size, mode, mtime and content hash. */
export function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      const meta = `${p.slice(dir.length)} mode=${st.mode} size=${st.size} mtime=${st.mtimeMs}`;
      if (st.isSymbolicLink()) out.push(`${meta} -> ${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.push(`${meta} dir`);
        walk(p);
      } else if (st.isFile()) out.push(`${meta} sha256=${createHash("sha256").update(readFileSync(p)).digest("hex")}`);
      else out.push(`${meta} special`);
    }
  };
  walk(dir);
  return out;
}

export function removeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}
