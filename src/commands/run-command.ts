import { checkArgv } from "./options.js";
import type { Argv, CommandSpec } from "./registry.js";
import { resolveZone } from "./tz.js";
import { sessionFilter } from "./since.js";
import { RuntimeError, StrictError, UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { documentChunks, writeDocument, type Format } from "../render/emit.js";
import type { Palette } from "../render/palette.js";
import { checkColumns, fitWidth, parseColumns, type TerminalLayout } from "../render/layout.js";
import { sanitize } from "../render/sanitize.js";
import { withZone } from "../render/zone.js";
import { setFollowLinks } from "../sources/guard.js";

/** Colour is for terminal tables only; the other formats never paint, so they need not load chalk. */
async function paletteOf(format: Format, color: boolean | undefined, isTTY: boolean, env: NodeJS.ProcessEnv): Promise<Palette> {
  if (format !== "table") return { heading: String, delta: String, dim: String };
  return (await import("../render/palette.js")).paletteFor({ color }, { isTTY, env });
}

/**
 * Runs one parsed command and prints its document: checks, the command's run, --strict, redaction, files,
 * warnings, stdout or -o. Loaded only once a command is to run (main.ts), so --help does not pay for it.
 */
export async function runCommand(spec: CommandSpec, a: CommandArgv, io: Io): Promise<void> {
  // Per run, and off again after it: an in-process run (a test, the next command) never inherits it.
  setFollowLinks(a["follow-links"] === true);
  try {
    await runOne(spec, a, io);
  } finally {
    setFollowLinks(false);
  }
}

type CommandArgv = Argv & { json?: boolean; redact?: boolean; output?: string; tz?: string; wide?: boolean; columns?: unknown };

async function runOne(spec: CommandSpec, a: CommandArgv, io: Io): Promise<void> {
  checkArgv(a, spec);
  if (a.json) a.format = "json";
  a.format ??= "table";
  // A command with its own --columns (compare) picks them for every format; elsewhere they shape terminal tables only.
  const ownColumns = spec.options?.columns !== undefined;
  const columns = ownColumns ? undefined : parseColumns(a.columns);
  if (a.format !== "table" && (a.wide || columns))
    throw new UsageError(`--${a.wide ? "wide" : "columns"} shapes terminal tables; it does not apply to --format ${a.format}`);
  // JSON prints UTC; the zone shows only in the other formats, in --since/--until dates and in the
  // newest-session note (no target with stdin on a terminal, for a command whose target it stands in for:
  // `sessions`, `debug` or `rpc` never print it, and asking Intl for the local zone costs ~20 ms).
  const noTarget = a.target === undefined && (a.targets === undefined || a.targets.length === 0);
  const takesTarget = spec.positionals !== undefined && ("target" in spec.positionals || "targets" in spec.positionals);
  const localShown = a.format !== "json" || a.since !== undefined || a.until !== undefined || (io.stdinIsTTY && noTarget && takesTarget);
  const zone = resolveZone(a.tz, io.env, (w) => io.stderr.write(`ccforensics: ${sanitize(w)}\n`), localShown);
  a.filter = sessionFilter({ ...a, tz: zone });
  Object.assign(a, {
    tz: zone,
    stdin: io.stdin,
    env: io.env,
    cwd: io.cwd,
    stdinIsTTY: io.stdinIsTTY,
    stderr: io.stderr,
    stderrIsTTY: io.stderrIsTTY,
  });
  // Tables, markdown and HTML show times in the zone; JSON and CSV keep ISO UTC, and UTC needs no context.
  const shownZone = a.format === "table" || a.format === "markdown" || a.format === "html" ? zone : "UTC";
  await withZone(shownZone, async () => {
    // Checked before the evidence is read: a refused -o should not cost a long scan.
    // -o's checks and writer load only for -o.
    const outputFile = a.output !== undefined ? await import("./output-file.js") : undefined;
    let file = outputFile?.checkOutputPath({ path: a.output!, claudeDir: a.claudeDir, env: io.env, cwd: io.cwd, inputPaths: [] });
    const out = await spec.run(a);
    if (spec.serves) return;
    const shown = a.redact ? (await import("../report/redact.js")).redactOutput(out) : out;
    checkColumns(shown.document, columns);
    // The one output step: files (charts) first, so a refused path fails before stdout is used; their
    // contents redacted with the document, their paths and guards as given.
    if (out.files?.length)
      await (
        await import("../output/files.js")
      ).writeFiles(
        out.files.map((f, i) => ({ ...f, spec: shown.files?.[i]?.spec ?? f.spec })),
        { env: io.env, cwd: io.cwd, claudeDir: a.claudeDir, inputPaths: out.inputs.map((i) => i.path).filter((p) => p !== "-") },
      );
    const warn = (w: string) => void io.stderr.write(`ccforensics: ${sanitize(w)}\n`);
    for (const w of shown.document.warnings) warn(w);
    if (outputFile && file !== undefined && a.output !== undefined) {
      // Now the inputs are known, their config dirs are protected too.
      file = outputFile.checkOutputPath({
        path: a.output,
        claudeDir: a.claudeDir,
        env: io.env,
        cwd: io.cwd,
        inputPaths: out.inputs.map((i) => i.path).filter((p) => p !== "-"),
      });
      // A file is not a terminal: every column, unless COLUMNS or --columns say otherwise.
      const layout: TerminalLayout = { width: fitWidth(io.env, false, undefined, a.wide === true, warn), columns };
      await outputFile.writeFileDocument(
        file,
        a.output,
        await documentChunks(shown, a.format, await paletteOf(a.format, a.color, false, io.env), layout),
      );
    } else {
      const layout: TerminalLayout = { width: fitWidth(io.env, io.stdoutIsTTY, io.columns, a.wide === true, warn), columns };
      await writeDocument(io.stdout, shown, a.format, await paletteOf(a.format, a.color, io.stdoutIsTTY, io.env), layout);
    }
    if (shown.next) io.stderr.write(`${sanitize(shown.next)}\n`);
    if (out.failure) throw new RuntimeError(out.failure);
    // After the document: a script that gates on malformed input still gets what was read (exit 1 says it).
    // A damaged line was read, but it is not JSON as written (CONTRACT: a JSON text is UTF-8; FORMATS 1.15): the same failure.
    const h = out.health;
    if (a.strict && (h.malformedCount > 0 || h.damagedCount > 0)) {
      const first = [
        ...h.malformed.map((m) => `  ${m.file}:${m.line}: ${m.reason}`),
        ...h.damaged.map((d) => `  ${d.file}:${d.line}: ${d.reason} (read all the same)`),
      ].slice(0, 10);
      const what = [
        h.malformedCount > 0 ? `${h.malformedCount} malformed line(s)` : "",
        h.damagedCount > 0 ? `${h.damagedCount} damaged-line entr${h.damagedCount === 1 ? "y" : "ies"}` : "",
      ].filter(Boolean);
      throw new StrictError(`--strict: ${what.join(" and ")}:\n${first.join("\n")}`);
    }
  });
}
