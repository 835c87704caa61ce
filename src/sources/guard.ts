import {
  closeSync,
  constants,
  createReadStream,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  statSync,
  type ReadStream,
  type Dirent,
  type Stats,
} from "node:fs";
import { dirname, isAbsolute, join, parse, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { UnreadableError, UsageError } from "../errors.js";

/**
 * The one place that stats, lists, resolves and opens evidence. Everything else in src/ asks here, so
 * the rules (what may be opened, what must never block) hold everywhere and a test can watch every access.
 */
export type AccessOp = "stat" | "lstat" | "readdir" | "realpath" | "readlink" | "open";
export type AccessRecorder = (op: AccessOp, path: string) => void;

let recorder: AccessRecorder | null = null;

/**
 * Every path the guard touches goes to `fn` (null turns it off): a test's hook, and `CCFORENSICS_FS_TRACE=1`'s
 * stderr lines, which main.ts installs (it escapes the names, evidence, with the JSON output's rule).
 */
export function onAccess(fn: AccessRecorder | null): void {
  recorder = fn;
}

function touch(op: AccessOp, path: string): void {
  recorder?.(op, path);
}

/** A discovered file that was passed over, listed in health (`health.skipped`) and on stderr. */
export interface SkippedEntry {
  path: string;
  reason: string;
}

let skipped: SkippedEntry[] = [];
/** The paths in `skipped`: a tree of thousands of unreadable files is listed in linear time. */
let skippedPaths = new Set<string>();

/** What discovery passed over since the last call; the command runner moves it into health. */
export function takeSkipped(): SkippedEntry[] {
  const out = skipped;
  skipped = [];
  skippedPaths = new Set();
  return out;
}

/** What has been skipped so far, left in place (for an error message that must name it). */
export function skippedSoFar(): readonly SkippedEntry[] {
  return skipped;
}

export function skip(path: string, reason: string): void {
  if (skippedPaths.has(path)) return;
  skippedPaths.add(path);
  skipped.push({ path, reason });
}

export function statPath(p: string): Stats | undefined {
  touch("stat", p);
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Whether two paths name one file or folder (same device and inode, symlinks followed): true or false
 * when both exist, undefined when either does not. A case-insensitive file system (macOS's default,
 * Windows) answers true for `~/.CLAUDE` and `~/.claude`, and any file system for two hard links.
 */
export function sameFile(a: string, b: string): boolean | undefined {
  touch("stat", a);
  touch("stat", b);
  try {
    const x = statSync(a, { bigint: true });
    const y = statSync(b, { bigint: true });
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return undefined;
  }
}

export function pathExists(p: string): boolean {
  return statPath(p) !== undefined;
}

export function isFile(p: string): boolean {
  return statPath(p)?.isFile() ?? false;
}

export function isDir(p: string): boolean {
  return statPath(p)?.isDirectory() ?? false;
}

/** Sorted entries of a directory; none when it is missing or unreadable. */
export function safeReaddir(d: string): string[] {
  return sortedNames(d, false);
}

/** `safeReaddir` with each entry's type (no stat needed for plain files), sorted by name. */
export function safeReaddirTyped(d: string): Dirent[] {
  return sortedEntries(d, false);
}

/** A folder's names, sorted; when it cannot be listed, none, and when `report`, skipped with the reason (`unlisted`). */
function sortedNames(d: string, report: boolean): string[] {
  touch("readdir", d);
  try {
    return readdirSync(d).sort();
  } catch (e) {
    if (report) unlisted(d, e);
    return [];
  }
}

function sortedEntries(d: string, report: boolean): Dirent[] {
  touch("readdir", d);
  try {
    return readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (e) {
    if (report) unlisted(d, e);
    return [];
  }
}

/** The reason a folder that could not be listed is skipped begins so (the "no session matches" message finds them by it). */
export const CANNOT_LIST = "cannot list folder";

/** What a failed readdir, stat or open says, without the call and path Node appends (`, open '/x'`). */
export function errnoText(e: unknown): string {
  return (e as Error).message.replace(/, \w+ '.*'$/s, "");
}

/**
 * Lists a folder found by discovery (a projects folder, a project folder, a subagents folder), sorted.
 * A folder that is there but cannot be listed (EACCES, EIO) is skipped and listed in health, not taken
 * for an empty one; a folder that is not there is none of that.
 */
export function listDiscovered(d: string): string[] {
  return sortedNames(d, true);
}

/** `listDiscovered` with each entry's type, sorted by name. */
export function listDiscoveredTyped(d: string): Dirent[] {
  return sortedEntries(d, true);
}

function unlisted(d: string, e: unknown): void {
  const code = (e as NodeJS.ErrnoException).code;
  if (code !== "ENOENT" && code !== "ENOTDIR") skip(d, `${CANNOT_LIST}: ${errnoText(e)}`);
}

/** The path with every symlink resolved; undefined when it does not exist or cannot be resolved (a loop). */
export function realPath(p: string): string | undefined {
  touch("realpath", p);
  try {
    // The native call is one realpath(3); the JS one lstats every component, which adds up over 100,000 files.
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

const realRoots = new Map<string, string>();

/**
 * What a discovered file must stay inside: one root, or several, when the user linked part of a config dir
 * elsewhere (its `projects/`, a project folder: a session's files may then lie below any of them).
 */
export type Roots = string | readonly string[];

/** A discovery root's real path, resolved once per run: roots do not move while a command runs. */
export function realRoot(root: string): string {
  let r = realRoots.get(root);
  if (r === undefined) {
    r = realPath(root) ?? resolve(root);
    realRoots.set(root, r);
  }
  return r;
}

/** A name taken from evidence (a session id) that can be one path component and nothing more. */
export function plainName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) && !name.includes("..");
}

/** `path` is `root` or lies below it (both already absolute and resolved). */
export function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * A file found by discovery (not named by the user): its real path must stay inside `root` (real path
 * too) and it must be a regular file; otherwise it is skipped and listed. Returns the real path to read.
 */
export function admitDiscovered(path: string, root: Roots): string | undefined {
  const real = realPath(path);
  if (real === undefined) {
    // A dangling link or a loop; a plain missing file is no news.
    if (lexists(path)) skip(path, "cannot resolve (dangling symlink or loop)");
    return undefined;
  }
  if (!withinRoots(real, root)) {
    skip(path, `real path leaves ${rootsText(root)}`);
    return undefined;
  }
  const st = statPath(real);
  if (!st) return undefined;
  if (!st.isFile()) {
    skip(path, `not a regular file (${fileType(st)})`);
    return undefined;
  }
  return real;
}

/** A folder found by discovery that may be walked: a directory whose real path stays inside `root`. */
export function admitDiscoveredDir(path: string, root: Roots): string | undefined {
  const real = realPath(path);
  if (real === undefined) {
    // Mostly not there; but a folder above it that may not be searched (EACCES) hides it, and that is said.
    if (lstatPath(path)?.isSymbolicLink()) skip(path, "cannot resolve (dangling symlink or loop)");
    else unreachable(path);
    return undefined;
  }
  if (!withinRoots(real, root)) {
    skip(path, `real path leaves ${rootsText(root)}`);
    return undefined;
  }
  return statPath(real)?.isDirectory() ? real : undefined;
}

/** `real` (resolved) lies in one of the roots (as named; each resolved once). */
export function withinRoots(real: string, root: Roots): boolean {
  if (typeof root === "string") return within(real, realRoot(root));
  for (const r of root) if (within(real, realRoot(r))) return true;
  return false;
}

function rootsText(root: Roots): string {
  return typeof root === "string" ? root : root.join(" and ");
}

let followLinks = false;

/**
 * `--follow-links`, set for each command run (run-command.ts; off unless given, so one in-process run does
 * not leak it into the next): whether a config dir's `projects/` and the project folders directly under it
 * may lead out of the config dir. Off, such a link is skipped and said: a copied evidence tree (someone
 * else's ~/.claude) could plant `projects/x -> /home/victim/…`. The config dir itself is followed either way.
 */
export function setFollowLinks(on: boolean): void {
  followLinks = on;
}

export function followsLinks(): boolean {
  return followLinks;
}

/**
 * A folder the user chose to be searched (a config dir's `projects/`, a project folder directly under it):
 * followed wherever a symlink takes it (a dotfiles repo, another disk) when `confine` is undefined; with
 * `confine` (a config dir's real path: `--follow-links` not given), only while it resolves inside it, else
 * it is skipped and said (naming the target and the flag), and nothing outside is even stat'ed. Returns its
 * real path when it is a directory. A link that does not resolve (dangling, a loop) or resolves to no
 * directory is skipped and listed as a folder that could not be listed (so a lookup that finds nothing names
 * it); a name that is not there at all, or a plain file, is no news.
 */
export function followChosenDir(path: string, confine?: string): string | undefined {
  const real = realPath(path);
  const link = () => lstatPath(path)?.isSymbolicLink() === true;
  if (real === undefined) {
    if (link()) skip(path, `${CANNOT_LIST}: a symlink that cannot be resolved (dangling, or a loop)`);
    else unreachable(path);
    return undefined;
  }
  if (confine !== undefined && !within(real, confine)) {
    skip(path, notFollowed(real));
    return undefined;
  }
  const st = statPath(real);
  if (st?.isDirectory()) return real;
  if (st !== undefined && link()) skip(path, `${CANNOT_LIST}: a symlink to ${st.isFile() ? "a file" : fileType(st)}, not a folder`);
  return undefined;
}

/** Why a link of a config dir's tree that leads out of it was not followed (`--follow-links` off). */
export function notFollowed(real: string): string {
  return `${CANNOT_LIST}: a symlink to ${real}, outside the config dir; not followed (--follow-links reads it)`;
}

/** After a failed resolve: when `path` cannot be reached for want of permission or an I/O error, it is skipped and said. */
function unreachable(path: string): void {
  let error: unknown;
  // The folder to name is the nearest one above that is there but may not be searched: lstat stops at it.
  for (let p = path; ; p = dirname(p)) {
    touch("lstat", p);
    try {
      lstatSync(p);
      if (p !== path && error !== undefined) skip(p, `${CANNOT_LIST}: ${errnoText(error)}`);
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR" || dirname(p) === p) return;
      error ??= e;
    }
  }
}

/** lstat does not follow the link, so asking whether a bad link is there touches nothing it points to. */
function lexists(p: string): boolean {
  return lstatPath(p) !== undefined;
}

/** What a typed listing would say of one entry (a link as a link), without listing its folder. */
export function lstatPath(p: string): Stats | undefined {
  touch("lstat", p);
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

export function fileType(st: Stats): string {
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isDirectory()) return "a directory";
  return "not a regular file";
}

/** Errors that say the path itself names no file (a file where a folder should be, a link loop, too long). */
const BAD_PATH = new Set(["ENOTDIR", "ELOOP", "ENAMETOOLONG", "EISDIR"]);

/**
 * Why a stat or open of `path` failed, as the error to throw: a path that names nothing (ENOENT, a file where a
 * folder should be, a link loop) is the caller's mistake, exit 2; a file that is there but cannot be read
 * (EACCES, EPERM, EIO, too many open files) is a runtime failure, exit 1.
 */
export function openFailure(path: string, e: unknown): Error {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new UsageError(`no such file: ${path}`);
  if (code !== undefined && BAD_PATH.has(code)) return new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  return new UnreadableError(path, (e as Error).message);
}

/**
 * A file named by the user (target, --debug-file, --stream-json, manifest…): it must exist, be
 * readable and be a regular file. A FIFO, socket, device or directory is a usage error, never a read that blocks.
 */
export function checkNamedFile(path: string, what: string): void {
  touch("stat", path);
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    throw openFailure(path, e);
  }
  if (!st.isFile()) throw new UsageError(`${path} is ${fileType(st)}; give the ${what} file itself (a regular file)`);
}

/**
 * Opens a file for reading without ever blocking: O_NONBLOCK so a FIFO swapped in after the stat does
 * not wait for a writer, then fstat on the open descriptor decides. Only a regular file is read.
 */
export function openEvidence(path: string, highWaterMark = 1 << 16): ReadStream {
  return createReadStream("", { fd: openEvidenceFd(path), highWaterMark });
}

/** The descriptor form of openEvidence, for sync reads: the caller closes it. */
export function openEvidenceFd(path: string): number {
  return openEvidenceSized(path).fd;
}

/**
 * A descriptor for a file discovery already knows as regular (a typed listing, or the guard's stat of a
 * link's target), without the fstat that would say so again: the caller reads it and checks what it read
 * (sources/peek.ts). Opened the same way, never blocking; undefined when it cannot be opened.
 */
export function openListedFile(path: string): number | undefined {
  touch("open", path);
  try {
    return openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
}

/** `openEvidenceFd` with the size its fstat saw, for callers that need both without a second stat. */
export function openEvidenceSized(path: string): { fd: number; size: number } {
  touch("open", path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw openFailure(path, e);
  }
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    throw new UsageError(`${path} is ${fileType(st)}; give a regular file`);
  }
  return { fd, size: st.size };
}

/** stdin may be read: a pipe, a socket (how Node spawns children) or a redirected file; never a terminal or a device. */
/**
 * The process's stdin as a command reads it. Node reads a directory redirected in (`< dir`) as an empty
 * stream: a command given "-" would report an empty input. Such a stdin is refused when it is read, with
 * what to do instead, as a directory given as a path is.
 */
export function stdinStream(): NodeJS.ReadableStream {
  let dir = false;
  try {
    dir = fstatSync(0).isDirectory();
  } catch {
    // No stdin at all: Node's own stream says so.
  }
  if (!dir) return process.stdin;
  const refused = new UsageError("stdin is a directory; redirect a file into it (< session.jsonl) or give the file's path");
  return new Readable({
    read() {
      this.destroy(refused);
    },
  });
}

export function stdinReadable(): boolean {
  let st: Stats;
  try {
    st = fstatSync(0);
  } catch {
    return false;
  }
  return st.isFIFO() || st.isSocket() || st.isFile();
}

/** What splits a path into names: `/`, and on Windows `\\` too (on POSIX a backslash is part of a name). */
const SEPARATORS = process.platform === "win32" ? /[\\/]+/ : /\/+/;

/** How many symlinks one path may pass through before it counts as a loop (Linux's own limit). */
const MAX_LINKS = 40;

/**
 * Where a path leads, as the kernel would follow it: every symlink resolved, a dangling one too (its
 * target is where a write would land), the part that does not exist yet kept as named. `..` is taken
 * after the link before it, as open(2) does, not lexically. Undefined for a loop (more than 40 links).
 * `p` is used as given: absolute, or relative to `cwd`.
 */
export function resolveLinks(p: string, cwd = process.cwd()): string | undefined {
  const abs = isAbsolute(p) ? p : `${resolve(cwd)}${sep}${p}`;
  // The common case, a path that exists: one realpath(3).
  const whole = realPath(abs);
  if (whole !== undefined) return whole;
  let done = parse(abs).root;
  let todo = abs.slice(done.length).split(SEPARATORS);
  let links = 0;
  while (todo.length > 0) {
    const c = todo.shift()!;
    if (c === "" || c === ".") continue;
    if (c === "..") {
      done = dirname(done);
      continue;
    }
    const next = join(done, c);
    const st = lstatPath(next);
    if (st === undefined) return join(next, ...todo);
    if (st.isSymbolicLink()) {
      if (++links > MAX_LINKS) return undefined;
      const target = readLink(next);
      if (target === undefined) return undefined;
      if (isAbsolute(target)) done = parse(target).root;
      todo = [...target.slice(isAbsolute(target) ? parse(target).root.length : 0).split(SEPARATORS), ...todo];
      continue;
    }
    done = next;
  }
  return done;
}

function readLink(p: string): string | undefined {
  touch("readlink", p);
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The absolute form of `p` with every symlink resolved, dangling ones too, as far as the path exists (for
 * paths about to be created): what a write to `p` would reach. A loop leaves `p` as it is.
 */
export function realish(p: string): string {
  return resolveLinks(resolve(p)) ?? resolve(p);
}
