import { readFileSync } from "node:fs";

/** Where scripts/catalog.mjs writes the help texts, beside catalog.json. */
export const HELP_FILE = "help.json";

/** The widths help is rendered ahead for: a pipe or file (100), a wide terminal (120), a classic one (80). */
export const HELP_WIDTHS = [80, 100, 120] as const;

/** The width help is wrapped to: the terminal's, at most 120; 100 when it is not a terminal. */
export const helpWidth = (columns: number | undefined): number => Math.min(120, columns || 100);

/** The command lines whose help is rendered ahead: `--help` and `-h`, alone or after one command word. */
export function helpLines(commandNames: string[]): string[][] {
  return [[], ...commandNames.map((n) => [n])].flatMap((w) => [
    [...w, "--help"],
    [...w, "-h"],
  ]);
}

/** The key of a command line in help.json: its words and the width. */
export const helpKey = (words: string[], width: number): string => `${width} ${words.join(" ")}`;

interface HelpFile {
  keys: Record<string, number>;
  texts: string[];
}

/**
 * The help yargs prints for `words` at `width`, rendered at build time by the same parser (a test holds
 * the two equal), so `--help` loads neither yargs nor string-width. undefined for any other command line,
 * another width or a build without help.json: yargs then renders it.
 */
export function cachedHelp(words: string[], width: number): string | undefined {
  const last = words[words.length - 1];
  if (words.length > 2 || (last !== "--help" && last !== "-h")) return undefined;
  let file: HelpFile;
  try {
    file = JSON.parse(readFileSync(new URL(`./${HELP_FILE}`, import.meta.url), "utf8")) as HelpFile;
  } catch {
    return undefined;
  }
  const i = file.keys[helpKey(words, width)];
  return i === undefined ? undefined : file.texts[i];
}
