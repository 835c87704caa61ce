import { parseJsonBounded } from "./json-depth.js";
import { homedir } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import { UnreadableError, UsageError } from "../errors.js";
import type { Dirent } from "node:fs";
import {
  admitDiscovered,
  admitDiscoveredDir,
  CANNOT_LIST,
  followChosenDir,
  followsLinks,
  isDir,
  listDiscovered,
  listDiscoveredTyped,
  lstatPath,
  pathExists,
  plainName,
  realish,
  realPath,
  realRoot,
  safeReaddir,
  safeReaddirTyped,
  sameFile,
  skip,
  skippedSoFar,
  within,
} from "./guard.js";
import { readLines, type InputFile } from "./input.js";
import { peekFile, type Peek } from "./peek.js";
import { PeekPool, peekTuning } from "./peek-pool.js";

export { isFile, pathExists, safeReaddir } from "./guard.js";

export interface ConfigDirOptions {
  claudeDir?: string[];
  /** The CLI's io.env: CLAUDE_CONFIG_DIR and HOME come from it. */
  env: NodeJS.ProcessEnv;
  home?: string;
  /** Relative dirs resolve against this (the CLI's io.cwd). */
  cwd: string;
}

/** Where the config dirs come from: named with `--claude-dir`, named in `CLAUDE_CONFIG_DIR`, or the defaults. */
export type ConfigDirSource = "--claude-dir" | "CLAUDE_CONFIG_DIR" | "default";

/** The dirs `CLAUDE_CONFIG_DIR` names (comma-separated), as given. */
export function envConfigDirs(env: NodeJS.ProcessEnv): string[] {
  return (env.CLAUDE_CONFIG_DIR ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Which of the three `configDirs` answers from; a `CLAUDE_CONFIG_DIR` of only commas or spaces names nothing. */
export function configDirSource(opts: Pick<ConfigDirOptions, "claudeDir" | "env">): ConfigDirSource {
  if (opts.claudeDir && opts.claudeDir.length > 0) return "--claude-dir";
  return envConfigDirs(opts.env).length > 0 ? "CLAUDE_CONFIG_DIR" : "default";
}

/** `--claude-dir` if given, else every `CLAUDE_CONFIG_DIR` entry, else `~/.config/claude` and `~/.claude` (CONTRACT.md). */
export function configDirs(opts: ConfigDirOptions): string[] {
  const { cwd, env } = opts;
  switch (configDirSource(opts)) {
    case "--claude-dir":
      return opts.claudeDir!.map((d) => resolve(cwd, d));
    case "CLAUDE_CONFIG_DIR":
      return envConfigDirs(env).map((d) => resolve(cwd, d));
    default: {
      // HOME from the CLI's env, not os.homedir(), which reads the process's.
      const home = opts.home ?? (env.HOME || homedir());
      return [join(home, ".config", "claude"), join(home, ".claude")];
    }
  }
}

/**
 * Of the config dirs `configDirs` gave (`dirs`, from `source`), the named ones that are not directories, as
 * warnings: a listing finds nothing there, and a mistyped path should not read as "no sessions". The default
 * dirs are not named (a machine may well have neither) unless one is a symlink that leads nowhere.
 */
export function missingConfigDirs(dirs: readonly string[], source: ConfigDirSource): string[] {
  // A default dir that is a symlink the user made (~/.claude into a dotfiles repo) but leads nowhere is said.
  if (source === "default")
    return dirs
      .filter((d) => !isDir(d) && lstatPath(d)?.isSymbolicLink() === true)
      .map((d) => `${d}: a symlink that leads to no directory (dangling, a loop, or a file); nothing was listed there`);
  return dirs
    .filter((d) => !isDir(d))
    .map((d) => `${source} ${d}: ${pathExists(d) ? "not a directory" : "no such directory"}; nothing was listed there`);
}

export interface SessionFile {
  id: string;
  path: string;
  projectDir: string;
  configDir: string;
  /**
   * An orphan subagent folder (FORMATS.md 11): `<project>/<id>/subagents/` with no `<id>.jsonl` beside it
   * (moved, deleted, too big to copy). `path` is where the main file would be; nothing opens it.
   */
  mainMissing?: true;
  /** An orphan of the old layout (2.0.x): `agent-*.jsonl` files beside where `<id>.jsonl` would be, no `<id>/` folder. */
  oldLayout?: true;
}

/**
 * Each project folder under the config dirs once (real path), with its sorted, typed entries. The config
 * dir is the user's choice and followed wherever a symlink takes it. Its `projects/` and each project folder
 * directly under it are followed while they resolve inside the config dir, and with `--follow-links`
 * wherever a symlink takes them (one realpath each; a folder reached twice is listed once, a link back up
 * to `projects/` or above is a loop, skipped and said); one leading out without the flag is skipped and
 * said, naming its target. Below a project folder, `roots` is what a link must stay inside
 * (`sessionRoots`). `list` false leaves the folders unlisted (entries empty).
 */
function projectFolders(dirs: string[], list = true): ProjectFolder[] {
  const out: ProjectFolder[] = [];
  const seen = new Set<string>();
  for (const configDir of dirs) {
    const projects = join(configDir, "projects");
    // Without --follow-links, projects/ and its folders are read only while they stay in the config dir.
    const confine = followsLinks() ? undefined : realRoot(configDir);
    const realProjects = followChosenDir(projects, confine);
    if (realProjects === undefined) continue;
    for (const e of listDiscoveredTyped(projects)) {
      const projectDir = join(projects, e.name);
      // A plain folder lies where the listing says; a link (or an entry of unknown type) is resolved.
      const real = e.isDirectory() ? under(realProjects, e.name) : e.isFile() ? undefined : followChosenDir(projectDir, confine);
      if (real === undefined || seen.has(real)) continue;
      if (within(realProjects, real)) {
        skip(projectDir, `${CANNOT_LIST}: a symlink to ${real}, which holds projects/ itself (a loop)`);
        continue;
      }
      seen.add(real);
      const roots = rootsOf(configDir, realProjects, projectDir, real);
      out.push({ configDir, projectDir, roots, entries: list ? listDiscoveredTyped(projectDir) : [] });
    }
  }
  return out;
}

interface ProjectFolder {
  configDir: string;
  projectDir: string;
  /** What its sessions' files (transcripts, subagents/, tool-results/, old-layout agent files) must stay inside. */
  roots: string[];
  entries: Dirent[];
}

/**
 * What the files of a session in `projectDir` must stay inside, after symlinks: its config dir, and with
 * `--follow-links`, when the user linked them elsewhere, its `projects/` and its project folder too. A link
 * below a project folder (a session file, `subagents/`, `tool-results/`, a file in them) that resolves
 * anywhere else is skipped and listed. A transcript outside any config dir: the folder it sits in.
 */
export function sessionRoots(projectDir: string): string[] {
  const dir = resolve(projectDir);
  const projects = dirname(dir);
  if (basename(projects) !== "projects") return [dir];
  if (!followsLinks()) return [dirname(projects)];
  return rootsOf(dirname(projects), realRoot(projects), dir, realRoot(dir));
}

function rootsOf(configDir: string, realProjects: string, projectDir: string, realProject: string): string[] {
  const roots = [configDir];
  // Without --follow-links nothing outside the config dir is a root (discovery does not go there either).
  if (!followsLinks()) return roots;
  const realConfig = realRoot(configDir);
  const projectsInside = within(realProjects, realConfig);
  if (!projectsInside) roots.push(dirname(projectDir));
  if (!within(realProject, realConfig) && (projectsInside || !within(realProject, realProjects))) roots.push(projectDir);
  return roots;
}

/**
 * Main transcripts `projects/*\/<id>.jsonl` under each config dir. A session file whose real path leaves its
 * roots (`sessionRoots`) is skipped and listed (guard), so a planted link cannot lead outside.
 * With `idPrefix` (a lookup by id) only the names it could mean are resolved and checked.
 */
export function listSessionFiles(dirs: string[], idPrefix = ""): SessionFile[] {
  return mainSessionsIn(projectFolders(dirs), idPrefix);
}

/**
 * Sessions whose main file is gone but whose `<id>/subagents/` folder is there: still sessions. Only
 * folders without a `<id>.jsonl` beside them are looked into, so a tree of 20,000 sessions costs nothing more.
 */
export function listOrphanSessions(dirs: string[], idPrefix = ""): SessionFile[] {
  const folders = projectFolders(dirs);
  return [...orphanSessionsIn(folders, idPrefix), ...oldLayoutOrphansIn(folders, idPrefix)];
}

/** Makes `index` know every project folder under the config dirs (for `reportUnmatched`), listing each once. */
export function knowFolders(dirs: string[], index: SubagentIndex): void {
  for (const f of projectFolders(dirs)) index.know(f.projectDir, f.entries);
}

/**
 * `listSessionFiles` then `listOrphanSessions`, from one listing of each project folder, which `index`
 * (when given) keeps for the subagent lookups after: `sessions` over 20,000 sessions listed each folder four times.
 */
export function listAllSessions(dirs: string[], index?: SubagentIndex): SessionFile[] {
  const folders = projectFolders(dirs);
  if (index === undefined) return [...mainSessionsIn(folders, ""), ...orphanSessionsIn(folders, ""), ...oldLayoutOrphansIn(folders, "")];
  // With an index (`sessions`), the old-layout orphans come after, from its peeks (`SubagentIndex.oldLayoutOrphans`).
  for (const f of folders) index.know(f.projectDir, f.entries);
  index.peekAhead();
  return [...mainSessionsIn(folders, ""), ...orphanSessionsIn(folders, "", (d) => index.names(d))];
}

/**
 * `join(dir, name)` for a name from `dir`'s listing (no separator, never "." or ".."): when `dir` is normal
 * that is `dir`, a separator and the name, so it is put together directly, without join's normalising scan
 * of 20,000 paths. Whether `dir` is normal is asked once per folder (join of a sample name).
 */
export function under(dir: string, name: string): string {
  let plain = normalDirs.get(dir);
  if (plain === undefined) normalDirs.set(dir, (plain = join(dir, "x") === `${dir}${sep}x`));
  return plain ? `${dir}${sep}${name}` : join(dir, name);
}
const normalDirs = new Map<string, boolean>();

function mainSessionsIn(folders: ProjectFolder[], idPrefix: string): SessionFile[] {
  const out: SessionFile[] = [];
  for (const { configDir, projectDir, roots, entries } of folders) {
    for (const e of entries) {
      const f = e.name;
      if (!f.endsWith(".jsonl") || f.startsWith("agent-") || !f.startsWith(idPrefix)) continue;
      const path = under(projectDir, f);
      // A plain file in a project folder is inside its roots: only links need resolving.
      if (e.isFile() || admitDiscovered(path, roots) !== undefined)
        out.push({ id: f.slice(0, -".jsonl".length), path, projectDir, configDir });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** `namesOf`: a folder's names as a Set, when someone already made one of its entries. */
function orphanSessionsIn(folders: ProjectFolder[], idPrefix: string, namesOf?: (projectDir: string) => Set<string>): SessionFile[] {
  const out: SessionFile[] = [];
  for (const { configDir, projectDir, roots, entries } of folders) {
    const names = namesOf?.(projectDir) ?? new Set(entries.map((e) => e.name));
    for (const id of names) {
      if (id.includes(".") || !id.startsWith(idPrefix) || names.has(`${id}.jsonl`) || !plainName(id)) continue;
      if (admitDiscoveredDir(join(projectDir, id, "subagents"), roots) === undefined) continue;
      out.push({ id, path: join(projectDir, `${id}.jsonl`), projectDir, configDir, mainMissing: true });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Sessions whose main file is gone but whose old-layout (2.0.x) `agent-*.jsonl` files lie in the project
 * folder, grouped by the session their first records name (a bounded peek, `peekFile`): still sessions, as an
 * orphan `subagents/` folder is. Only a session id shaped like one (a uuid, which names no path but its own)
 * with no `<id>.jsonl` and no `<id>/` beside it; only folders holding agent files are looked into.
 */
function oldLayoutOrphansIn(folders: ProjectFolder[], idPrefix: string): SessionFile[] {
  const out: SessionFile[] = [];
  for (const { configDir, projectDir, roots, entries } of folders) {
    let names: Set<string> | undefined;
    const ids = new Set<string>();
    for (const e of entries) {
      if (!AGENT_FILE.test(e.name)) continue;
      const p = under(projectDir, e.name);
      if (!e.isFile() && admitDiscovered(p, roots) === undefined) continue;
      const id = peekFile(p).id;
      if (id === undefined || !id.startsWith(idPrefix) || !oldLayoutOrphanId(id, (names ??= new Set(entries.map((x) => x.name))))) continue;
      ids.add(id);
    }
    for (const id of ids) out.push(oldLayoutOrphan(id, projectDir, configDir));
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** An old-layout agent file's session id makes a session of its own there: a uuid with no main file and no folder in `names`. */
function oldLayoutOrphanId(id: string, names: Set<string>): boolean {
  return sessionIdFromName(id) !== undefined && !names.has(`${id}.jsonl`) && !names.has(id);
}

function oldLayoutOrphan(id: string, projectDir: string, configDir: string): SessionFile {
  return { id, path: under(projectDir, `${id}.jsonl`), projectDir, configDir, mainMissing: true, oldLayout: true };
}

export const MIN_PREFIX = 6;

/** Finds one session by id or unique prefix; errors name what was searched and the candidates. */
export function findSession(
  idOrPrefix: string,
  dirs: string[],
  narrow?: { keep: (hits: SessionFile[]) => SessionFile[]; by: string },
  exactOnly = false,
): SessionFile {
  if (!exactOnly && idOrPrefix.length < MIN_PREFIX) {
    throw new UsageError(`session id prefix "${idOrPrefix}" is too short: give at least ${MIN_PREFIX} characters`);
  }
  const named = exactSessions(dirs, idOrPrefix);
  // An id read from evidence names one session exactly: it is never widened to a prefix of another.
  const folders = named.length > 0 ? [] : projectFolders(dirs);
  let all = named.length > 0 || exactOnly ? named : [...mainSessionsIn(folders, idOrPrefix), ...orphanSessionsIn(folders, idOrPrefix)];
  // Old-layout orphans cost a peek of every agent file: looked for only when no file or folder answers.
  if (all.length === 0) all = oldLayoutOrphansIn(folders, idOrPrefix).filter((s) => !exactOnly || s.id === idOrPrefix);
  const exact = all.filter((s) => s.id === idOrPrefix);
  const hits = exact.length > 0 ? exact : all.filter((s) => s.id.startsWith(idOrPrefix));
  const found = dedupeByRealpath(hits);
  // --project/--since/--until narrow the candidates, so a prefix shared across projects can still name one.
  const unique = narrow ? narrow.keep(found) : found;
  if (unique.length === 1) return unique[0]!;
  if (unique.length === 0 && found.length > 0 && narrow) {
    throw new UsageError(
      `"${idOrPrefix}" matches ${found.length} session(s), none of them ${narrow.by}:\n${found.map((s) => `  ${s.id}  ${shownPath(s)}`).join("\n")}`,
    );
  }
  if (unique.length === 0) {
    const searched = dirs.map(
      (d) => `  ${join(d, "projects", "*", `${idOrPrefix}*.jsonl`)}${pathExists(d) ? "" : "  (directory does not exist)"}`,
    );
    // A file of that name passed over, or a folder that could not be listed (the session may be in it).
    const passed = skippedSoFar().filter(
      (s) => s.reason.startsWith(CANNOT_LIST) || s.path.slice(s.path.lastIndexOf(sep) + 1).startsWith(idOrPrefix),
    );
    const skippedNote = passed
      .map((s) => (s.reason.startsWith(CANNOT_LIST) ? `  not searched ${s.path}: ${s.reason}\n` : `  skipped ${s.path}: ${s.reason}\n`))
      .join("");
    throw new UsageError(`no session matches "${idOrPrefix}"; searched:\n${searched.join("\n")}\n${skippedNote}${SEARCH_HINT}`);
  }
  const list = unique.map((s) => `  ${s.id}  ${shownPath(s)}`).join("\n");
  throw new UsageError(`session id "${idOrPrefix}" is ambiguous; it matches ${unique.length} sessions:\n${list}`);
}

/**
 * The sessions named exactly `id`, as the listings would find them, but looked up by name in each project
 * folder: a lookup by full id among 20,000 sessions lists no folder. An exact name wins over every longer
 * one, so when there is none the caller lists (a prefix). Names a listing would never take as a session
 * id (`agent-…`, a dot, a path) are left to it.
 */
function exactSessions(dirs: string[], id: string): SessionFile[] {
  if (!plainName(id) || id.includes(".") || id.startsWith("agent-")) return [];
  const main: SessionFile[] = [];
  const orphans: SessionFile[] = [];
  for (const { configDir, projectDir, roots } of projectFolders(dirs, false)) {
    const path = join(projectDir, `${id}.jsonl`);
    const st = lstatPath(path);
    if (st !== undefined) {
      // As from a typed listing: a plain file is in; anything else (a link) is admitted by the guard or skipped.
      if (st.isFile() || admitDiscovered(path, roots) !== undefined) main.push({ id, path, projectDir, configDir });
    } else if (admitDiscoveredDir(join(projectDir, id, "subagents"), roots) !== undefined) {
      orphans.push({ id, path, projectDir, configDir, mainMissing: true });
    }
  }
  const byName = (a: SessionFile, b: SessionFile) => a.path.localeCompare(b.path);
  return [...main.sort(byName), ...orphans.sort(byName)];
}

/** Where a listed session lies: its main file, or for an orphan its subagents folder. */
function shownPath(s: SessionFile): string {
  if (s.oldLayout) return `${join(s.projectDir, "agent-*.jsonl")} (main file missing)`;
  return s.mainMissing ? `${join(s.projectDir, s.id, "subagents")}${sep} (main file missing)` : s.path;
}

export interface SubagentFile {
  path: string;
  agentId: string;
  /** Its size when discovery opened it (old layout: to read its session id), so no second stat is needed. */
  bytes?: number;
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;

/**
 * Subagent transcripts of a main session: `<session>/subagents/**\/agent-*.jsonl` (2.1.x) and old-layout
 * `agent-*.jsonl` beside the main file whose records carry the same session id (2.0.x). Pass one index
 * for many sessions: the project folder is then listed, and each old-layout file read, once in all.
 */
export async function findSubagents(mainPath: string, sessionId: string, index = new SubagentIndex()): Promise<SubagentFile[]> {
  const dir = dirname(mainPath);
  const root = index.rootOf(dir, mainPath);
  const out: SubagentFile[] = [];
  // The project folder's listing (one readdir for all its sessions) says whether this session has a folder at all.
  if (index.names(dir).has(sessionId)) out.push(...subagentTree(join(dir, sessionId, "subagents"), root));
  out.push(...((await index.oldLayout(dir, root)).get(sessionId) ?? []));
  return out.sort((a, b) => byPath().compare(a.path, b.path));
}

/**
 * The `agent-*.jsonl` files anywhere under a session's `subagents/` folder (`workflows/<runId>/` too), each
 * folder listed once: a link leaving `root`, a loop or a folder reached twice is not followed (guard).
 */
function subagentTree(subagents: string, root: readonly string[]): SubagentFile[] {
  const out: SubagentFile[] = [];
  const walk = (d: string, seen: Set<string>, depth: number) => {
    const real = admitDiscoveredDir(d, root);
    // A loop or a link back up comes round to a folder already seen: stop there.
    if (depth > 8 || real === undefined || seen.has(real)) return;
    seen.add(real);
    for (const f of listDiscovered(d)) {
      const p = join(d, f);
      const m = AGENT_FILE.exec(f);
      if (m) {
        if (admitDiscovered(p, root) !== undefined) out.push({ path: p, agentId: m[1]! });
      } else walk(p, seen, depth + 1);
    }
  };
  walk(subagents, new Set(), 0);
  return out;
}

/**
 * The files that speak for an orphan session where its main file would (its times and cwd): every subagent
 * file under its `subagents/` folder, found as `findSubagents` finds them for `sessions` (which reads the
 * same files for its row), in the same order.
 */
export function orphanFiles(f: SessionFile): string[] {
  if (f.oldLayout) return oldLayoutFilesOf(f);
  return subagentTree(join(f.projectDir, f.id, "subagents"), sessionRoots(f.projectDir))
    .map((s) => s.path)
    .sort((a, b) => byPath().compare(a, b));
}

/** An old-layout orphan's agent files: those of its folder whose first records name it (peeked as `oldLayoutOrphansIn` does). */
function oldLayoutFilesOf(f: SessionFile): string[] {
  const out: string[] = [];
  const roots = sessionRoots(f.projectDir);
  for (const e of listDiscoveredTyped(f.projectDir)) {
    if (!AGENT_FILE.test(e.name)) continue;
    const p = under(f.projectDir, e.name);
    if ((e.isFile() || admitDiscovered(p, roots) !== undefined) && peekFile(p).id === f.id) out.push(p);
  }
  return out.sort((a, b) => byPath().compare(a, b));
}

/** Same order as `localeCompare` without arguments, without building a collator per comparison. */
let collator: Intl.Collator | undefined;
// Built at first use: a collator costs milliseconds, and most runs never sort subagents.
const byPath = (): Intl.Collator => (collator ??= new Intl.Collator());

/** Old-layout agent files per project folder, grouped by the session id their records carry: listed and read once for all sessions. */
export class SubagentIndex {
  private readonly dirs = new Map<string, Promise<Map<string, SubagentFile[]>>>();
  private readonly listings = new Map<string, Set<string>>();
  private readonly roots = new Map<string, string[]>();
  private readonly typed = new Map<string, Dirent[]>();
  /** Per project folder: its plain old-layout agent files' peeks by name, from the worker. */
  private readonly ahead = new Map<string, Promise<Map<string, Peek>>>();
  private pool: PeekPool | undefined;

  /** A project folder's entries, already listed by whoever found its sessions. */
  know(projectDir: string, entries: Dirent[]): void {
    this.typed.set(projectDir, entries);
    this.listings.set(projectDir, new Set(entries.map((e) => e.name)));
  }

  /**
   * With many old-layout agent files in the known folders, has a worker peek the plain ones, folder by
   * folder in order, while this thread reads sessions. Only plain files go: a link is admitted by the
   * guard where it always was, so what is skipped, and in what order, stays the same.
   */
  peekAhead(): void {
    const plain = new Map<string, string[]>();
    let n = 0;
    for (const [dir, entries] of this.typed) {
      const names: string[] = [];
      for (const e of entries) if (e.isFile() && AGENT_FILE.test(e.name)) names.push(e.name);
      plain.set(dir, names);
      n += names.length;
    }
    if (n < peekTuning.workerMin) return;
    const pool = (this.pool ??= new PeekPool());
    for (const [dir, names] of plain)
      this.ahead.set(
        dir,
        pool.peek(names, dir).then((peeks) => {
          const byName = new Map<string, Peek>();
          for (let i = 0; i < names.length; i++) byName.set(names[i]!, peeks[i]!);
          return byName;
        }),
      );
  }

  /**
   * Old-layout agent files (2.0.x, beside the sessions) of the known folders whose session id names no
   * session there (no `<id>.jsonl`, no `<id>/` folder) and makes no orphan session either (`oldLayoutOrphans`:
   * an id that is no uuid, or one read past the peek): no session reads them, so they are listed in
   * `health.skipped` with the reason, never dropped without a word (FORMATS.md 1.15).
   */
  async reportUnmatched(): Promise<void> {
    for (const [dir, entries] of this.typed) {
      if (!entries.some((e) => AGENT_FILE.test(e.name))) continue;
      const names = this.names(dir);
      for (const [id, files] of await this.oldLayout(dir, this.rootOf(dir, join(dir, "x.jsonl"))))
        if (!names.has(`${id}.jsonl`) && !names.has(id))
          for (const f of files)
            if (!peekedOrphan(id, f, names))
              skip(f.path, `old-layout subagent file of session ${id}, which has no ${id}.jsonl here: no session reads it`);
    }
  }

  /**
   * The old-layout orphans of the known folders (`oldLayoutOrphansIn`), from the peeks the subagent lookups
   * made already: `sessions` reads them after the sessions listed, so no file is peeked twice.
   */
  async oldLayoutOrphans(): Promise<SessionFile[]> {
    const out: SessionFile[] = [];
    for (const [dir, entries] of this.typed) {
      if (!entries.some((e) => AGENT_FILE.test(e.name))) continue;
      const names = this.names(dir);
      const root = this.rootOf(dir, join(dir, "x.jsonl"));
      for (const [id, files] of await this.oldLayout(dir, root))
        if (files.some((f) => peekedOrphan(id, f, names))) out.push(oldLayoutOrphan(id, dir, root[0]!));
    }
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** `sessionRoots` of a main file in `dir`: the same for every session there, so worked out once per folder. */
  rootOf(dir: string, mainPath: string): string[] {
    let r = this.roots.get(dir);
    if (r === undefined) this.roots.set(dir, (r = sessionRoots(dirname(resolve(mainPath)))));
    return r;
  }

  /** The names in a project folder, listed once (typed: the old-layout lookup reads the same listing). */
  names(projectDir: string): Set<string> {
    if (!this.listings.has(projectDir)) this.know(projectDir, listDiscoveredTyped(projectDir));
    return this.listings.get(projectDir)!;
  }

  oldLayout(projectDir: string, root: readonly string[]): Promise<Map<string, SubagentFile[]>> {
    let m = this.dirs.get(projectDir);
    if (!m) this.dirs.set(projectDir, (m = groupOldLayout(projectDir, root, this.typed.get(projectDir), this.ahead.get(projectDir))));
    return m;
  }
}

/** Whether `f` makes its session `id` an old-layout orphan: its id was found by the peek (`bytes` set) and is one. */
function peekedOrphan(id: string, f: SubagentFile, names: Set<string>): boolean {
  return f.bytes !== undefined && oldLayoutOrphanId(id, names);
}

async function groupOldLayout(
  dir: string,
  root: readonly string[],
  listed?: Dirent[],
  ahead?: Promise<Map<string, Peek>>,
): Promise<Map<string, SubagentFile[]>> {
  const bySession = new Map<string, SubagentFile[]>();
  const realDir = admitDiscoveredDir(dir, root);
  if (realDir === undefined) return bySession;
  const early = await ahead;
  for (const e of listed ?? listDiscoveredTyped(dir)) {
    const m = AGENT_FILE.exec(e.name);
    if (!m) continue;
    const p = under(dir, e.name);
    // A plain file in a folder already inside the root is inside it too: only links need resolving.
    const plain = e.isFile();
    if (!plain && admitDiscovered(p, root) === undefined) continue;
    const peek = (plain && early?.get(e.name)) || peekFile(p);
    const id = peek.id ?? (await idOrSkip(p));
    if (id === undefined) {
      // One that could not be read is listed already (idOrSkip); one whose first records name no session belongs to none.
      if (!skippedSoFar().some((x) => x.path === p))
        skip(p, "old-layout subagent file whose first records name no session: no session reads it");
      continue;
    }
    const list = bySession.get(id);
    const entry: SubagentFile = { path: p, agentId: m[1]! };
    if (peek.id !== undefined) entry.bytes = peek.bytes;
    if (list) list.push(entry);
    else bySession.set(id, [entry]);
  }
  return bySession;
}

/**
 * A session's first root: its config dir when the transcript sits at `<dir>/projects/<key>/<id>.jsonl`,
 * else the folder the transcript was named in. What its files must stay inside is `sessionRoots`.
 */
export function sessionRoot(mainPath: string): string {
  const projectDir = dirname(resolve(mainPath));
  return basename(dirname(projectDir)) === "projects" ? dirname(dirname(projectDir)) : projectDir;
}

/** Lines longer than this are passed over when peeking for a session id: the id sits in the small first records. */
const PEEK_LINE_BYTES = 1 << 20;

/**
 * The session id named by the first records of a transcript (`sessionId`, or `session_id` from 2.1.239).
 * Discovery only peeks, so it parses lines itself rather than through the record layer above it.
 */
export async function sessionIdOf(path: string, maxLines = 50): Promise<string | undefined> {
  const input: InputFile = { path, kind: "transcript", bytes: 0, sha256: "" };
  for await (const raw of readLines(input, { maxLineBytes: PEEK_LINE_BYTES })) {
    if (raw.line > maxLines) break;
    if (raw.tooLong || raw.buf.length === 0) continue;
    let v: unknown;
    try {
      v = parseJsonBounded(raw.buf.toString("utf8"), null);
    } catch {
      continue;
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) continue;
    const o = v as Record<string, unknown>;
    const id = o.sessionId ?? o.session_id;
    if (typeof id === "string") return id;
  }
  return undefined;
}

/** `sessionIdOf` of a discovered old-layout agent file; one that cannot be read is skipped and said, not the end of the run. */
async function idOrSkip(path: string): Promise<string | undefined> {
  try {
    return await sessionIdOf(path);
  } catch (e) {
    if (!(e instanceof UnreadableError)) throw e;
    skip(path, unreadableReason(e));
    return undefined;
  }
}

/** The `health.skipped` reason of a discovered file that could not be read. */
export function unreadableReason(e: UnreadableError): string {
  return `cannot read: ${e.reason.replace(/, \w+ '.*'$/s, "")}`;
}

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A session id read from evidence (a `claude -p` output's `session_id`, a run.json's `session`) can be looked
 * up: one plain path component, no dot, not an `agent-` file name, so it can only ever name
 * `projects/<project>/<id>.jsonl` (and `<id>/subagents/`) under a config dir, as a listing would. Such an
 * id is never taken as a path, and anything else is not used at all.
 */
export function isEvidenceSessionId(id: string): boolean {
  return plainName(id) && !id.includes(".") && !id.startsWith("agent-") && id.length <= 200;
}

/**
 * A file name's id when it is shaped like a session id (a uuid, as Claude Code names them); a file of
 * any other name (`transcript.jsonl`) says nothing about its session, so its first records decide.
 */
export function sessionIdFromName(id: string | null | undefined): string | undefined {
  return id && SESSION_ID.test(id) ? id : undefined;
}

/** The session id a main transcript's file name carries. */
export function sessionIdFromPath(path: string): string {
  return basename(path).replace(/\.jsonl$/, "");
}

function dedupeByRealpath(hits: SessionFile[]): SessionFile[] {
  const seen = new Set<string>();
  return hits.filter((h) => {
    // No file or folder of its own: its project folder and id say which it is.
    if (!h.oldLayout) return firstVisit(seen, h.mainMissing ? join(h.projectDir, h.id) : h.path);
    const key = `${realPath(h.projectDir) ?? h.projectDir}${sep}agent-*:${h.id}`;
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}

function firstVisit(seen: Set<string>, p: string): boolean {
  const real = realPath(p);
  if (real === undefined || seen.has(real)) return false;
  seen.add(real);
  return true;
}

/**
 * The Claude config dir `path` lies in (or is), if any; symlinks resolved as far as the path exists.
 * A path that is a config dir but for case (`~/.CLAUDE/x` for `~/.claude`) lies in it too unless the
 * file system tells them apart: on macOS's default and on Windows the two are one folder. They count
 * as two only when both exist and are different folders (`same` says, by device and inode), or when
 * the config dir exists and its case-variant does not (a file system that ignores case would find it).
 */
export function configDirHolding(
  path: string,
  configDirs: string[],
  same: (a: string, b: string) => boolean | undefined = sameFile,
): string | undefined {
  const abs = realish(path);
  for (const d of configDirs) {
    const root = realish(d);
    if (within(abs, root)) return d;
    if (caseVariantIn(abs, root, same)) return d;
    // Its projects/ or a project folder linked elsewhere (a dotfiles repo, another disk) is its tree too.
    for (const { link, real } of linkedRoots(d, root))
      if (within(abs, real) || caseVariantIn(abs, real, same)) return `${d} (${link} is a symlink to ${real})`;
  }
  return undefined;
}

/**
 * The folders outside config dir `d` (real path `realConfig`) that discovery follows into: its `projects/`
 * and each project folder directly under it that is a symlink, as real paths (loops left out, as discovery
 * leaves them out). Nothing is reported: only the write guard asks.
 */
function linkedRoots(d: string, realConfig: string): Array<{ link: string; real: string }> {
  const projects = join(d, "projects");
  const realProjects = realPath(projects);
  if (realProjects === undefined) return [];
  const out: Array<{ link: string; real: string }> = [];
  if (!within(realProjects, realConfig)) out.push({ link: projects, real: realProjects });
  for (const e of safeReaddirTyped(projects)) {
    if (!e.isSymbolicLink()) continue;
    const link = join(projects, e.name);
    const real = realPath(link);
    if (real !== undefined && !within(real, realConfig) && !within(real, realProjects) && !within(realProjects, real))
      out.push({ link, real });
  }
  return out;
}

/** `abs` is `root`, or lies below it, but for the case of its letters, and the file system may not tell them apart. */
function caseVariantIn(abs: string, root: string, same: (a: string, b: string) => boolean | undefined): boolean {
  const n = root.length;
  const head = abs.slice(0, n);
  if (head.length !== n || head.toLowerCase() !== root.toLowerCase()) return false;
  if (abs.length > n && abs[n] !== sep && !root.endsWith(sep)) return false;
  const answer = same(head, root);
  if (answer !== undefined) return answer;
  // One of them is missing. The config dir there and its variant not: this file system tells case apart.
  return !pathExists(root);
}

/**
 * The nearest folder at or above `path` (symlinks resolved) that looks like a Claude config dir, named
 * or not (a copied evidence tree): it holds `projects/` with a project folder of `.jsonl` transcripts.
 * An everyday `~/projects` of source code has no transcripts one level down, so it does not count.
 */
export function evidenceTreeHolding(path: string): string | undefined {
  for (let d = realish(path); ; d = dirname(d)) {
    if (holdsTranscripts(join(d, "projects"))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/**
 * A `projects/` folder of Claude Code's: one of its folders is named like a project key (a cwd with every
 * char outside [A-Za-z0-9] made `-`, so `-home-…` or `C--Users-…`) or holds transcripts. A `~/projects`
 * of source code is neither.
 */
function holdsTranscripts(projects: string): boolean {
  if (!isDir(projects)) return false;
  for (const p of safeReaddir(projects).slice(0, 200)) {
    if (/^(?:-|[A-Za-z]--)/.test(p) && isDir(join(projects, p))) return true;
    if (safeReaddir(join(projects, p)).some((f) => f.endsWith(".jsonl"))) return true;
  }
  return false;
}

/** The end of a "no session matches" message: where else a session can be looked for. */
export const SEARCH_HINT = "(use --claude-dir DIR or CLAUDE_CONFIG_DIR to search elsewhere, or give a transcript path)";
