import { constants, openSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { UsageError } from "../errors.js";
import { configDirHolding, envConfigDirs, evidenceTreeHolding } from "../sources/discover.js";
import { lstatPath, realish, resolveLinks, sameFile } from "../sources/guard.js";

/**
 * The one rule every writer obeys (`-o`, `--chart`, `export --to`, `run --out`): evidence is read-only.
 * Each writer asks `checkWritable` before it writes and opens with `openForWrite`, so they cannot drift apart.
 */
export interface WriteContext {
  /** The CLI's env: CLAUDE_CONFIG_DIR and HOME come from it. */
  env: NodeJS.ProcessEnv;
  /** The CLI's cwd: relative paths resolve against it. */
  cwd: string;
  claudeDir?: string[];
  /** The evidence read (as given, `-` left out): the config dir each lies in is protected, and none is written over. */
  inputPaths: string[];
  /** More config dirs the command knows of (a planned run's CLAUDE_CONFIG_DIR, a compared run's --claude-dir). */
  alsoProtect?: string[];
}

/**
 * Every Claude config dir a write must stay out of, whichever of them this run searched: each
 * `--claude-dir`, each `CLAUDE_CONFIG_DIR` entry, `$HOME/.claude` and `$HOME/.config/claude` (the CLI's
 * HOME and the process's), the one each input lies in (`<dir>/projects/…`), and any the command adds.
 */
export function protectedConfigDirs(ctx: WriteContext): string[] {
  const out = new Set<string>();
  for (const d of [...(ctx.claudeDir ?? []), ...envConfigDirs(ctx.env), ...(ctx.alsoProtect ?? [])]) out.add(resolve(ctx.cwd, d));
  for (const home of new Set([ctx.env.HOME || homedir(), homedir()]))
    if (home) for (const d of [join(home, ".claude"), join(home, ".config", "claude")]) out.add(d);
  for (const p of ctx.inputPaths) {
    const d = inputConfigDir(p, ctx.cwd);
    if (d !== undefined) out.add(d);
  }
  return [...out];
}

/** The config dir a transcript path lies in (`<dir>/projects/…`), if it lies in one. */
export function inputConfigDir(path: string, cwd: string): string | undefined {
  const parts = resolve(cwd, path).split(sep);
  const i = parts.lastIndexOf("projects");
  return i > 0 ? parts.slice(0, i).join(sep) || sep : undefined;
}

/**
 * May `given` (what the user typed after `flag`) be written? A file (`-o`, `--chart`) or a folder
 * (`export --to`, `run --out`). The path is followed as a write would follow it, every symlink resolved,
 * dangling ones too, and the place it reaches must lie in no protected config dir and in no evidence tree
 * (a folder holding `projects/<project>/*.jsonl`, named or not); a file must not be an input of this run.
 * Returns that place, the path to open (with `openForWrite`, which will not follow a link swapped in since).
 * A refusal is a usage error (exit 2).
 */
export function checkWritable(flag: string, given: string, kind: "file" | "folder", ctx: WriteContext): string {
  const target = resolveLinks(given, ctx.cwd);
  if (target === undefined) throw new UsageError(`${flag} ${given}: cannot resolve the path (a symlink loop, or more than 40 links)`);
  const shown = target === resolve(ctx.cwd, given) ? given : `${given} (a symlink to ${target})`;
  const holder = configDirHolding(target, protectedConfigDirs(ctx));
  if (holder !== undefined) throw new UsageError(`${flag} ${shown}: refusing to write inside the Claude config dir ${holder}`);
  const tree = evidenceTreeHolding(kind === "file" ? dirname(target) : target);
  if (tree !== undefined)
    throw new UsageError(
      `${flag} ${shown}: refusing to write inside the Claude config dir ${tree}, which holds Claude Code transcripts (projects/)`,
    );
  // A transcript given by path lies outside any config dir; writing over it would destroy the evidence just read.
  // The same file by another name (a hard link; a case-variant where the file system ignores case) is it too.
  if (
    kind === "file" &&
    ctx.inputPaths.some((p) => realish(resolve(ctx.cwd, p)) === target || sameFile(resolve(ctx.cwd, p), target) === true)
  )
    throw new UsageError(`${flag} ${shown}: refusing to write over an input of this run`);
  return target;
}

/**
 * Opens a path `checkWritable` returned, for writing (created or truncated). That path has no link left
 * in it; O_NOFOLLOW makes the open fail rather than follow one put in its place since (and where Node has
 * no O_NOFOLLOW, an lstat just before says so). The caller closes the descriptor.
 */
export function openForWrite(target: string): number {
  if (lstatPath(target)?.isSymbolicLink()) throw new Error(`${target} became a symlink after it was checked; nothing was written`);
  return openSync(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o666);
}
