import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Script } from "node:vm";

/** Beside main.cjs: the sha256 of the bundle it was made from, then V8's code cache for it (scripts/bundle.mjs). */
export const CACHE_SUFFIX = ".cache";

export interface LoadedBundle {
  exports: Record<string, unknown>;
  script: Script;
  /** Whether V8 took the cache: false without one, for another bundle, or another Node or V8 flags. */
  cacheUsed: boolean;
}

/**
 * Runs the CommonJS bundle at `path` as Node's require would, but compiled with the code cache made at build
 * time: compiling 850 KB was ~17 ms of a one-line `requests`, and the cache holds the functions a run
 * compiles too. V8 checks only the source's length against a cache, so the cache names the bundle's sha256
 * and is used only for that bundle; V8 itself turns down one from another version or other flags.
 */
export function loadBundle(path: string, useCache = true): LoadedBundle {
  const vm = process.getBuiltinModule("node:vm");
  const source = readFileSync(path, "utf8");
  const cachedData = useCache ? cacheFor(path, source) : undefined;
  // Node's own wrapper, plus the import() the bundle's packages left outside are loaded with (scripts/bundle.mjs):
  // a script compiled from a code cache loses the dynamic-import hook Node would give it.
  const wrapped = `(function (exports, require, module, __filename, __dirname, __import) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: path, cachedData });
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const require = process.getBuiltinModule("node:module").createRequire(path);
  run.call(module.exports, module.exports, require, module, path, dirname(path), (spec: string) => import(spec));
  return { exports: module.exports, script, cacheUsed: cachedData !== undefined && !script.cachedDataRejected };
}

/** The sha256 a cache file starts with. */
export const sourceDigest = (source: string): Buffer =>
  process.getBuiltinModule("node:crypto").createHash("sha256").update(source).digest();

function cacheFor(path: string, source: string): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path + CACHE_SUFFIX);
  } catch {
    return undefined;
  }
  return file.length > 32 && file.subarray(0, 32).equals(sourceDigest(source)) ? file.subarray(32) : undefined;
}
