import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { CLI, ROOT } from "../helpers.js";

/**
 * Drives a lab server over stdio the way an MCP client does: one JSON line per message; replies are
 * collected line by line, with the time each arrived.
 */
export class StdioClient {
  /** Every server started, so a failed assertion cannot leave one waiting on stdin (see `killAll`). */
  static readonly live = new Set<ChildProcessWithoutNullStreams>();
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: Array<{ at: number; text: string }> = [];
  stderr = "";
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  constructor(args: string[], env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, TZ: "UTC", NO_COLOR: "1", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    createInterface({ input: this.child.stdout }).on("line", (text) => {
      this.lines.push({ at: Date.now(), text });
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString("utf8")));
    StdioClient.live.add(this.child);
    this.exited = new Promise((res) =>
      this.child.on("close", (code) => {
        StdioClient.live.delete(this.child);
        res(code);
      }),
    );
  }

  send(msg: unknown): void {
    this.raw(`${typeof msg === "string" ? msg : JSON.stringify(msg)}\n`);
  }

  raw(text: string): void {
    this.child.stdin.write(text);
  }

  /** Waits until `n` reply lines have arrived (or fails after `ms`). */
  async replies(n: number, ms = 10000): Promise<any[]> {
    const deadline = Date.now() + ms;
    while (this.lines.length < n) {
      if (Date.now() > deadline) throw new Error(`expected ${n} replies, got ${this.lines.length}; stderr: ${this.stderr}`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, 50);
        this.waiters.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
    return this.lines.slice(0, n).map((l) => JSON.parse(l.text));
  }

  async request(msg: { id: string | number; method: string; params?: unknown }): Promise<any> {
    const before = this.lines.length;
    this.send({ jsonrpc: "2.0", ...msg });
    const all = await this.replies(before + 1);
    return all[before];
  }

  async end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}

/** For `after(killAll)`: ends every server a test left running. */
export function killAll(): void {
  for (const c of StdioClient.live) c.kill("SIGKILL");
}
