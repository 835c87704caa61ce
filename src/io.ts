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

/**
 * The stream's next "drain", or its error. Both listeners go when either fires: a race of two `once` promises
 * left the loser's "error" listener behind at every wait, and an export of a few MB warned MaxListenersExceeded.
 */
export function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise<void>((res, rej) => {
    const onDrain = () => {
      stream.off("error", onError);
      res();
    };
    const onError = (e: Error) => {
      stream.off("drain", onDrain);
      rej(e);
    };
    stream.once("drain", onDrain);
    stream.once("error", onError);
  });
}
