import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { onAccess, type AccessOp } from "../../src/sources/guard.js";
import { runCli, type CliResult } from "../helpers.js";

export const DEMO_ID = "c0ffee00-1111-4222-8333-444444444444";
export const RUN_ID = "bfbd1fa8-7cb3-4f74-927b-ae69add32831";

export interface Traced {
  r: CliResult;
  touched: (path: string) => Array<[AccessOp, string]>;
}

export async function traced(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Traced> {
  const seen: Array<[AccessOp, string]> = [];
  onAccess((op, path) => seen.push([op, resolve(opts.cwd ?? ".", path)]));
  let r: CliResult;
  try {
    r = await runCli(args, opts);
  } finally {
    onAccess(null);
  }
  const touched = (path: string) => {
    const at = [resolve(path), realpathSync(path)];
    return seen.filter(([, p]) => at.some((a) => p === a || p.startsWith(a + sep)));
  };
  return { r, touched };
}

/** A scratch dir with a secret file and an empty HOME beside the evidence. */
export function scratch(name: string): { dir: string; secret: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), `ccf-${name}-`));
  const secret = join(dir, "secret");
  mkdirSync(secret);
  writeFileSync(join(secret, "passwd"), "root:x:0:0:root:/root:/bin/bash\n");
  const home = join(dir, "home");
  mkdirSync(home);
  return { dir, secret, home };
}
