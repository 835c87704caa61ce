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

export function exitCodeOf(err: unknown): number {
  if (err && typeof err === "object" && "exitCode" in err && typeof err.exitCode === "number") return err.exitCode;
  return 1;
}

export function messageOf(err: unknown): string {
  if (err instanceof UsageError || err instanceof StrictError || err instanceof RuntimeError) return err.message;
  if (err instanceof Error) return `internal error: ${err.stack ?? err.message}`;
  return `internal error: ${String(err)}`;
}
