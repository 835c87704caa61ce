import { col, type Table } from "./model.js";

/** What the tables show of a run of `ccforensics run` (commands/run.ts's RunRow). */
export interface MatrixRun {
  label: string;
  folder: string;
  status: string;
  session: string | null;
  exitCode: number | null;
  signal?: string | null;
  error?: string | null;
  durationMs: number | null;
  answer: string | null;
  command: string[];
  env: Record<string, string>;
  /** The lab servers of the configuration, in `mcpServers` order. */
  servers: Array<{ name: string; kind: string; args: string[]; env: Record<string, string> }>;
}

/** The runs `run` did or skipped; a failed one says why in the table itself (`-o`, markdown), not only on stderr. */
export function matrixRunsTable(rows: MatrixRun[]): Table {
  const failed = rows.some((r) => r.error);
  return {
    id: "run:runs",
    title: "Runs",
    columns: [
      col("label", "label", "id", { priority: 1 }),
      col("folder", "folder", "path"),
      col("status", "status", "text", { priority: 1 }),
      col("session", "session", "id"),
      // A run killed by a signal has no exit code: the signal is its exit.
      col("exitCode", "exit", "text"),
      col("durationMs", "duration", "ms"),
      col("answer", "answer"),
      ...(failed ? [col("error", "error", "text", { priority: 1 })] : []),
    ],
    rows: rows.map((r) => ({ ...r, exitCode: r.exitCode ?? r.signal ?? null })),
  };
}

/** Prompts are long: the table shows `-p "$PROMPT"` (as seed 000 wrote it) and lists each prompt once in the notes. */
export function plannedRunsTable(rows: MatrixRun[]): Table {
  const prompts = new Map<string, Set<string>>();
  for (const r of rows) {
    const p = r.command[r.command.indexOf("-p") + 1] ?? "";
    prompts.set(p, (prompts.get(p) ?? new Set()).add(r.label));
  }
  const names = new Map([...prompts.keys()].map((p, i) => [p, prompts.size === 1 ? "PROMPT" : `PROMPT${i + 1}`]));
  return {
    id: "run:planned",
    title: "Planned runs",
    columns: [
      col("label", "label", "id", { priority: 1 }),
      col("folder", "folder", "path"),
      col("servers", "servers", "text", { priority: 2 }),
      col("env", "env", "text", { priority: 3 }),
      col("command", "command", "text", { priority: 2 }),
    ],
    rows: rows.map((r) => {
      const i = r.command.indexOf("-p") + 1;
      const shown = `${shellLine(r.command.slice(0, i))} "$${names.get(r.command[i]!)}" ${shellLine(r.command.slice(i + 1))}`;
      const servers =
        r.servers
          .map((x) => `${x.name}: ${shellLine([x.kind, ...x.args, ...Object.entries(x.env).map(([k, v]) => `${k}=${v}`)])}`)
          .join("; ") || "none";
      return {
        label: r.label,
        folder: r.folder,
        servers,
        env: Object.entries(r.env)
          .map(([k, v]) => `${k}=${v}`)
          .join(" "),
        command: shown,
      };
    }),
    notes: [...prompts].map(([p, labels]) => `${names.get(p)} (${[...labels].join(", ")}): ${p}`),
  };
}

/** A command line as a POSIX shell would read it back: words outside a safe set single-quoted. */
export function shellLine(argv: string[]): string {
  return argv.map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
}
