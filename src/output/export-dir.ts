import { mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { UsageError } from "../errors.js";
import { configDirHolding, configDirs, evidenceTreeHolding } from "../sources/discover.js";
import { protectedDirs } from "./files.js";

export interface ExportDir {
  to: string;
  claudeDir?: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  inputPaths: string[];
}

/**
 * `export --to DIR`: evidence is read-only, so, as for `-o` and `run --out`, a folder inside a Claude
 * config dir (searched, a default one, an input's, or any folder holding `projects/`) is refused. The
 * folder is made when missing; its table files are replaced.
 */
export function prepareExportDir(t: ExportDir): string {
  const abs = resolve(t.cwd, t.to);
  const home = t.env.HOME || homedir();
  const dirs = protectedDirs(
    [...configDirs({ claudeDir: t.claudeDir, env: t.env, cwd: t.cwd }), join(home, ".claude"), join(home, ".config", "claude")],
    t.inputPaths,
  );
  const holder = configDirHolding(abs, dirs) ?? evidenceTreeHolding(abs);
  if (holder) throw new UsageError(`--to ${t.to}: refusing to write inside the Claude config dir ${holder}`);
  let st;
  try {
    st = statSync(abs);
  } catch {
    try {
      mkdirSync(abs, { recursive: true });
    } catch (e) {
      throw new UsageError(`--to ${t.to}: cannot make the folder: ${(e as Error).message}`);
    }
    return abs;
  }
  if (!st.isDirectory()) throw new UsageError(`--to ${t.to} is not a folder`);
  return abs;
}
