import { checkOutputPath, writeFileDocument } from "./output-file.js";
import { checkArgv } from "./options.js";
import type { Argv, CommandSpec } from "./registry.js";
import { resolveZone } from "./tz.js";
import { sessionFilter } from "./since.js";
import { RuntimeError, StrictError, UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { documentChunks, writeDocument } from "../render/emit.js";
import { paletteFor } from "../render/palette.js";
import { checkColumns, fitWidth, parseColumns, type TerminalLayout } from "../render/layout.js";
import { sanitize } from "../render/sanitize.js";
import { withZone } from "../render/zone.js";
import { writeFiles } from "../output/files.js";
import { redactOutput } from "../report/redact.js";

/**
 * Runs one parsed command and prints its document: checks, the command's run, --strict, redaction, files,
 * warnings, stdout or -o. Loaded only once a command is to run (main.ts), so --help does not pay for it.
 */
export async function runCommand(
  spec: CommandSpec,
  a: Argv & { json?: boolean; redact?: boolean; output?: string; tz?: string; wide?: boolean; columns?: unknown },
  io: Io,
): Promise<void> {
  checkArgv(a, spec);
  if (a.json) a.format = "json";
  a.format ??= "table";
  // A command with its own --columns (compare) picks them for every format; elsewhere they shape terminal tables only.
  const ownColumns = spec.options?.columns !== undefined;
  const columns = ownColumns ? undefined : parseColumns(a.columns);
  if (a.format !== "table" && (a.wide || columns))
    throw new UsageError(`--${a.wide ? "wide" : "columns"} shapes terminal tables; it does not apply to --format ${a.format}`);
  const zone = resolveZone(a.tz, io.env, (w) => io.stderr.write(`ccforensics: ${sanitize(w)}\n`));
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
    let file =
      a.output !== undefined
        ? checkOutputPath({ path: a.output, claudeDir: a.claudeDir, env: io.env, cwd: io.cwd, inputPaths: [] })
        : undefined;
    const out = await spec.run(a);
    if (spec.serves) return;
    if (a.strict && out.health.malformedCount > 0) {
      const first = out.health.malformed.slice(0, 10).map((m) => `  ${m.file}:${m.line}: ${m.reason}`);
      throw new StrictError(`--strict: ${out.health.malformedCount} malformed line(s):\n${first.join("\n")}`);
    }
    const shown = a.redact ? redactOutput(out) : out;
    checkColumns(shown.document, columns);
    // The one output step: files (charts) first, so a refused path fails before stdout is used; their
    // contents redacted with the document, their paths and guards as given.
    await writeFiles(
      (out.files ?? []).map((f, i) => ({ ...f, spec: shown.files?.[i]?.spec ?? f.spec })),
      io.cwd,
    );
    const warn = (w: string) => void io.stderr.write(`ccforensics: ${sanitize(w)}\n`);
    for (const w of shown.document.warnings) warn(w);
    if (file !== undefined && a.output !== undefined) {
      // Now the inputs are known, their config dirs are protected too.
      file = checkOutputPath({
        path: a.output,
        claudeDir: a.claudeDir,
        env: io.env,
        cwd: io.cwd,
        inputPaths: out.inputs.map((i) => i.path).filter((p) => p !== "-"),
      });
      // A file is not a terminal: every column, unless COLUMNS or --columns say otherwise.
      const layout: TerminalLayout = { width: fitWidth(io.env, false, undefined, a.wide === true, warn), columns };
      await writeFileDocument(
        file,
        a.output,
        await documentChunks(shown, a.format, paletteFor({ color: a.color }, { isTTY: false, env: io.env }), layout),
      );
    } else {
      const layout: TerminalLayout = { width: fitWidth(io.env, io.stdoutIsTTY, io.columns, a.wide === true, warn), columns };
      await writeDocument(io.stdout, shown, a.format, paletteFor({ color: a.color }, { isTTY: io.stdoutIsTTY, env: io.env }), layout);
    }
    if (shown.next) io.stderr.write(`${sanitize(shown.next)}\n`);
    if (out.failure) throw new RuntimeError(out.failure);
  });
}
