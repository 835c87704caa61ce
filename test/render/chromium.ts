import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Debian's chromium (or $CHROMIUM), or undefined when it is not installed. */
export function findChromium(): string | undefined {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  const r = spawnSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim().split("\n")[0] : undefined;
}

/** Flags that work in this container: no sandbox (root), no GPU, and nothing that reaches the network. */
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"];

/**
 * Runs headless chromium on one local file with a fresh profile, at `width`×`height`, and returns its
 * stdout (`--dump-dom`: the DOM after load). `extra` adds flags such as `--screenshot=FILE`.
 */
export async function chromium(bin: string, file: string, opts: { width: number; height?: number; extra?: string[]; timeoutMs?: number }): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), "ccf-chromium-"));
  const args = [...FLAGS, `--user-data-dir=${profile}`, `--window-size=${opts.width},${opts.height ?? 2000}`, ...(opts.extra ?? ["--dump-dom"]), pathToFileURL(file).href];
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
        const tail = Buffer.concat(err).toString("utf8").split("\n").filter((l) => !/dbus|Fontconfig/i.test(l)).slice(-5).join("\n");
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
