import {
  closeSync,
  constants,
  createReadStream,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  realpathSync,
  statSync,
  type ReadStream,
  type Dirent,
  type Stats,
} from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { UsageError } from "../errors.js";

/**
 * The one place that stats, lists, resolves and opens evidence. Everything else in src/ asks here, so
 * the rules (what may be opened, what must never block) hold everywhere and a test can watch every access.
 */
export type AccessOp = "stat" | "lstat" | "readdir" | "realpath" | "open";
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

/** What discovery passed over since the last call; the command runner moves it into health. */
export function takeSkipped(): SkippedEntry[] {
  const out = skipped;
  skipped = [];
  return out;
}

/** What has been skipped so far, left in place (for an error message that must name it). */
export function skippedSoFar(): readonly SkippedEntry[] {
  return skipped;
}

export function skip(path: string, reason: string): void {
  if (!skipped.some((s) => s.path === path)) skipped.push({ path, reason });
}

export function statPath(p: string): Stats | undefined {
  touch("stat", p);
  try {
    return statSync(p);
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
  touch("readdir", d);
  try {
    return readdirSync(d).sort();
  } catch {
    return [];
  }
}

/** `safeReaddir` with each entry's type (no stat needed for plain files), sorted by name. */
export function safeReaddirTyped(d: string): Dirent[] {
  touch("readdir", d);
  try {
    return readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
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

/** A discovery root's real path, resolved once per run: roots do not move while a command runs. */
function realRoot(root: string): string {
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
export function admitDiscovered(path: string, root: string): string | undefined {
  const real = realPath(path);
  if (real === undefined) {
    // A dangling link or a loop; a plain missing file is no news.
    if (lexists(path)) skip(path, "cannot resolve (dangling symlink or loop)");
    return undefined;
  }
  if (!within(real, realRoot(root))) {
    skip(path, `real path leaves ${root}`);
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
export function admitDiscoveredDir(path: string, root: string): string | undefined {
  const real = realPath(path);
  if (real === undefined) return undefined;
  if (!within(real, realRoot(root))) {
    skip(path, `real path leaves ${root}`);
    return undefined;
  }
  return statPath(real)?.isDirectory() ? real : undefined;
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
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === "ENOENT" ? `no such file: ${path}` : `cannot read ${path}: ${(e as Error).message}`);
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
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === "ENOENT" ? `no such file: ${path}` : `cannot read ${path}: ${(e as Error).message}`);
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

/** The absolute form of `p` with symlinks resolved as far as the path exists (for paths about to be created). */
export function realish(p: string): string {
  let head = resolve(p);
  const tail: string[] = [];
  while (realPath(head) === undefined && dirname(head) !== head) {
    tail.unshift(head.slice(dirname(head).length).replace(/^[\\/]/, ""));
    head = dirname(head);
  }
  head = realPath(head) ?? head;
  return tail.length ? join(head, ...tail) : head;
}
