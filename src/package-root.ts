import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface PackageInfo {
  /** The folder holding ccforensics' own package.json: the installed package, or the checkout. */
  root: string;
  version: string;
}

let cached: PackageInfo | undefined;

/**
 * The tool's own package, found by walking up from this module: dist/ in a package, build-test/src/ when the
 * tests compile the sources with themselves. Never the user's cwd.
 */
export function packageInfo(): PackageInfo {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "ccforensics") return (cached = { root: dir, version: pkg.version ?? "0.0.0" });
    } catch {
      // not here: one level up
    }
    dir = dirname(dir);
  }
  return (cached = { root: dirname(fileURLToPath(import.meta.url)), version: "0.0.0" });
}
