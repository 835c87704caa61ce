import { col, type Table } from "./model.js";

/** What the sessions table shows of each session (commands/sessions.ts's rows carry more for JSON). */
export interface SessionListing {
  sessionId: string;
  project: string | null;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  bytes: number;
  requests: number;
  subagents: number;
  versions: string[];
  malformed: number;
  /** Entries of damage in lines read as records despite it (health.damagedCount over the session's inputs). */
  damaged: number;
  /** An orphan subagent folder: no `<session>.jsonl` beside it (FORMATS.md 11). */
  mainFileMissing: boolean;
}

/** Sessions, newest first (the rows come sorted). */
export function sessionsTable(rows: SessionListing[]): Table {
  return {
    id: "sessions",
    title: "Sessions (newest first)",
    columns: [
      col("sessionId", "session", "id", { priority: 1, marks: [{ key: "mainFileMissing", text: " (main file missing)" }] }),
      col("project", "project (cwd)", "path", { priority: 1 }),
      col("firstTimestamp", "first", "time", { priority: 3 }),
      col("lastTimestamp", "last", "time", { priority: 1 }),
      col("bytes", "size", "bytes", { priority: 2 }),
      col("requests", "requests (main chain)", "int", { priority: 2 }),
      col("subagents", "subagents", "int", { priority: 3 }),
      col("versions", "versions", "text", { priority: 3 }),
      col("malformed", "malformed", "int", { priority: 3 }),
      col("damaged", "damaged", "int", { priority: 3 }),
    ],
    rows: rows.map((r) => ({ ...r })),
    ...(rows.some((r) => r.mainFileMissing)
      ? {
          notes: [
            "main file missing: no <session>.jsonl, only its subagents (an orphan <session>/subagents/ folder, or 2.0.x agent-*.jsonl files beside where it was); its subagents are read instead",
          ],
        }
      : {}),
  };
}
