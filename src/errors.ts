/** A mistake in how the tool was called: unknown flag, unknown or ambiguous session id, missing file. Exit 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
  override name = "UsageError";
}

/** Malformed input under `--strict`. Exit 1. */
export class StrictError extends Error {
  readonly exitCode = 1;
  override name = "StrictError";
}

/** Anything that went wrong at run time that is not the user's call (unreadable file, I/O). Exit 1. */
export class RuntimeError extends Error {
  readonly exitCode = 1;
  override name = "RuntimeError";
}

/**
 * A file that exists but could not be opened or read (permissions, an I/O error). A runtime failure, exit 1;
 * a listing that meets one among many discovered files skips it (`health.skipped`) and goes on.
 */
export class UnreadableError extends RuntimeError {
  override name = "UnreadableError";
  constructor(
    readonly path: string,
    /** What the system said, e.g. "EACCES: permission denied, open '…'". */
    readonly reason: string,
  ) {
    super(`cannot read ${path}: ${reason}`);
  }
}

/** An error from a system call (fs, net): it carries an errno code and the call's name. */
export function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  return (
    err instanceof Error &&
    typeof (err as NodeJS.ErrnoException).code === "string" &&
    typeof (err as NodeJS.ErrnoException).syscall === "string"
  );
}

export function exitCodeOf(err: unknown): number {
  if (err && typeof err === "object" && "exitCode" in err && typeof err.exitCode === "number") return err.exitCode;
  return 1;
}

export function messageOf(err: unknown): string {
  if (err instanceof UsageError || err instanceof StrictError || err instanceof RuntimeError) return err.message;
  // An I/O error that reached here unwrapped is still about the machine, not a bug: one line, no stack.
  if (isSystemError(err)) return err.message;
  if (err instanceof Error) return `internal error: ${err.stack ?? err.message}`;
  return `internal error: ${String(err)}`;
}
