/** A stream the CLI writes to: process.stdout in production, a capture in tests. */
export interface OutStream {
  write(chunk: string | Uint8Array): boolean;
  once(event: "drain", listener: () => void): unknown;
}

/**
 * Everything the CLI takes from its surroundings. Only `cli.ts` builds it from `process`, so the
 * same code runs in process under test with its own streams, environment and working directory.
 */
export interface Io {
  stdin: NodeJS.ReadableStream;
  stdout: OutStream;
  stderr: OutStream;
  env: NodeJS.ProcessEnv;
  /** Relative paths on the command line resolve against this. */
  cwd: string;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width, when stdout is a terminal. */
  columns: number | undefined;
}

/** Writes and waits for drain when the stream asks for it, so a large document does not pile up in memory. */
export function writeOut(stream: OutStream, chunk: string): Promise<void> {
  if (stream.write(chunk)) return Promise.resolve();
  return new Promise((res) => void stream.once("drain", res));
}
