import { homedir } from "node:os";
import { join } from "node:path";
import { admitDiscovered, checkNamedFile, plainName, safeReaddir } from "./guard.js";
import type { InputFile, InputKind } from "./input.js";

/** An evidence file named on the command line ("-" is stdin); a missing one is a usage error (exit 2), an unreadable one a runtime failure (exit 1). */
export function evidenceInput(path: string, kind: InputKind): InputFile {
  if (path === "") path = "-"; // yargs hands a "-" positional over as ""
  if (path !== "-") checkNamedFile(path, kind);
  return { path, kind, bytes: 0, sha256: "" };
}

/**
 * `<configDir>/debug/<sessionId>.txt` in the first config dir that has it (FORMATS.md 7), or
 * `$CLAUDE_CODE_DEBUG_LOGS_DIR/<sessionId>.txt` when that variable is set and the file exists there.
 */
export function findDebugLog(configDirs: string[], sessionId: string, env: NodeJS.ProcessEnv): string | undefined {
  if (!plainName(sessionId)) return undefined;
  const dirs = [...(env.CLAUDE_CODE_DEBUG_LOGS_DIR ? [env.CLAUDE_CODE_DEBUG_LOGS_DIR] : []), ...configDirs.map((d) => join(d, "debug"))];
  for (const d of dirs) {
    // A discovered log stays inside its own folder: debug/<id>.txt linked to /etc/passwd is skipped, not read.
    const p = join(d, `${sessionId}.txt`);
    if (admitDiscovered(p, d) !== undefined) return p;
  }
  return undefined;
}

/** Claude Code's project key: the cwd with every char outside `[A-Za-z0-9]` turned into `-` (FORMATS.md 3). */
export function projectKey(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

export interface RpcLogFile {
  server: string;
  path: string;
}

export interface RpcLogOptions {
  /** The session's cwd (from its records); picks `<cache>/<projectKey(cwd)>/`. Without it every project is searched. */
  cwd?: string;
  /** Only this server's logs. */
  server?: string;
  /** Replaces the platform cache dirs (tests). */
  cacheDirs?: string[];
  env?: NodeJS.ProcessEnv;
  home?: string;
}

/** Where `env-paths("claude-cli")` puts Claude Code's cache on each platform. */
export function claudeCacheDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  const out: string[] = [];
  if (env.XDG_CACHE_HOME) out.push(join(env.XDG_CACHE_HOME, "claude-cli-nodejs"));
  out.push(join(home, ".cache", "claude-cli-nodejs"));
  out.push(join(home, "Library", "Caches", "claude-cli-nodejs"));
  if (env.LOCALAPPDATA) out.push(join(env.LOCALAPPDATA, "claude-cli-nodejs", "Cache"));
  return [...new Set(out)];
}

/**
 * Claude Code's per-server MCP logs, `<cache>/claude-cli-nodejs/<projectKey>/mcp-logs-<server>/*.jsonl`,
 * sorted by server then file name (the names are timestamps). Their lines are `{"debug"|"error": msg,
 * "timestamp", "sessionId", "cwd"}` — Claude Code's side of the conversation, not raw frames: read them
 * with `readDebugLog` (the `rpc` command accepts them too).
 */
export function findRpcLogs(opts: RpcLogOptions = {}): RpcLogFile[] {
  const out: RpcLogFile[] = [];
  const roots = opts.cacheDirs ?? claudeCacheDirs(opts.env ?? {}, opts.home ?? homedir());
  for (const root of roots) {
    const projects = opts.cwd !== undefined ? [projectKey(opts.cwd)] : safeReaddir(root);
    for (const project of projects) {
      const pdir = join(root, project);
      for (const d of safeReaddir(pdir)) {
        if (!d.startsWith("mcp-logs-")) continue;
        const server = d.slice("mcp-logs-".length);
        if (opts.server !== undefined && server !== opts.server) continue;
        for (const f of safeReaddir(join(pdir, d))) {
          const path = join(pdir, d, f);
          if (f.endsWith(".jsonl") && admitDiscovered(path, root) !== undefined) out.push({ server, path });
        }
      }
    }
  }
  return out.sort((a, b) => a.server.localeCompare(b.server) || a.path.localeCompare(b.path));
}
