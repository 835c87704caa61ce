import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Debian's chromium (or $CHROMIUM), or undefined when it is not installed. */
export function findChromium(): string | undefined {
  if (process.env.CHROMIUM) return existsSync(process.env.CHROMIUM) ? process.env.CHROMIUM : undefined;
  const r = spawnSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim().split("\n")[0] : undefined;
}

/** Flags that work in this container: no sandbox (root), no GPU, and nothing that reaches the network. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--hide-scrollbars",
];

/**
 * Runs headless chromium on one local file with a fresh profile, at `width`×`height`, and returns its
 * stdout (`--dump-dom`: the DOM after load). `extra` adds flags such as `--screenshot=FILE`.
 */
export async function chromium(
  bin: string,
  file: string,
  opts: { width: number; height?: number; extra?: string[]; timeoutMs?: number },
): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), "ccf-chromium-"));
  const args = [
    ...FLAGS,
    `--user-data-dir=${profile}`,
    `--window-size=${opts.width},${opts.height ?? 2000}`,
    ...(opts.extra ?? ["--dump-dom"]),
    pathToFileURL(file).href,
  ];
  try {
    return await new Promise<string>((res, rej) => {
      const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"], timeout: opts.timeoutMs ?? 60_000, killSignal: "SIGKILL" });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (d: Buffer) => out.push(d));
      child.stderr.on("data", (d: Buffer) => err.push(d));
      child.on("error", rej);
      child.on("close", (code, signal) => {
        if (code === 0) return res(Buffer.concat(out).toString("utf8"));
        const tail = Buffer.concat(err)
          .toString("utf8")
          .split("\n")
          .filter((l) => !/dbus|Fontconfig/i.test(l))
          .slice(-5)
          .join("\n");
        rej(new Error(`chromium exited ${code ?? signal} on ${file}:\n${tail}`));
      });
    });
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** A gate that lets at most `n` callers run at once: each chromium is several processes. */
export function limiter(n: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (job) => {
    // A finishing job hands its slot straight to the next waiter, so no newcomer can slip in between.
    if (running >= n) await new Promise<void>((res) => waiting.push(res));
    else running++;
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * One headless chromium driven over the DevTools protocol on a pipe (fd 3 in, fd 4 out; messages end
 * in NUL): no port, no network, one launch for many pages. Evaluating through the protocol is outside
 * the page, so the page's CSP (no scripts) stays as shipped while the test reads its layout.
 */
export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, { res: (v: any) => void; rej: (e: Error) => void }>();
  private readonly listeners: Array<(m: any) => void> = [];
  private buf = "";

  private constructor(
    private readonly child: import("node:child_process").ChildProcess,
    private readonly profile: string,
  ) {
    const out = child.stdio[4] as NodeJS.ReadableStream;
    out.setEncoding("utf8");
    out.on("data", (d: string) => {
      this.buf += d;
      let i: number;
      while ((i = this.buf.indexOf("\0")) >= 0) {
        const msg = JSON.parse(this.buf.slice(0, i));
        this.buf = this.buf.slice(i + 1);
        if (msg.id !== undefined) {
          const p = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          if (msg.error) p?.rej(new Error(`${msg.error.message} (${msg.error.code})`));
          else p?.res(msg.result);
        } else for (const l of this.listeners) l(msg);
      }
    });
    child.on("exit", () => {
      for (const p of this.pending.values()) p.rej(new Error("chromium exited"));
      this.pending.clear();
    });
  }

  static launch(bin: string): Browser {
    const profile = mkdtempSync(join(tmpdir(), "ccf-chromium-"));
    const child = spawn(bin, [...FLAGS, `--user-data-dir=${profile}`, "--remote-debugging-pipe", "about:blank"], {
      stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"],
    });
    return new Browser(child, profile);
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<any> {
    const id = this.nextId++;
    const p = new Promise((res, rej) => this.pending.set(id, { res, rej }));
    (this.child.stdio[3] as NodeJS.WritableStream).write(
      `${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`,
    );
    return p;
  }

  /** Opens `file` in a fresh tab laid out `width` px wide, waits for its load event, runs `expression` from outside the page and closes the tab. */
  async evaluate(file: string, width: number, expression: string, timeoutMs = 30_000): Promise<unknown> {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    try {
      await this.send("Emulation.setDeviceMetricsOverride", { width, height: 2000, deviceScaleFactor: 1, mobile: false }, sessionId);
      await this.send("Page.enable", {}, sessionId);
      const loaded = new Promise<void>((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`${file}: no load event in ${timeoutMs} ms`)), timeoutMs);
        this.listeners.push((m) => {
          if (m.sessionId === sessionId && m.method === "Page.loadEventFired") {
            clearTimeout(timer);
            res();
          }
        });
      });
      await this.send("Page.navigate", { url: pathToFileURL(file).href }, sessionId);
      await loaded;
      const r = await this.send("Runtime.evaluate", { expression, returnByValue: true }, sessionId);
      if (r.exceptionDetails) throw new Error(`${file}: ${r.exceptionDetails.text}`);
      return r.result.value;
    } finally {
      await this.send("Target.closeTarget", { targetId });
    }
  }

  async close(): Promise<void> {
    const done = new Promise((res) => this.child.once("exit", res));
    this.send("Browser.close").catch(() => {});
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await done;
    clearTimeout(timer);
    rmSync(this.profile, { recursive: true, force: true });
  }
}
