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
}

/** Sessions, newest first (the rows come sorted). */
export function sessionsTable(rows: SessionListing[]): Table {
  return {
    id: "sessions",
    title: "Sessions (newest first)",
    columns: [
      col("sessionId", "session", "id", { priority: 1 }),
      col("project", "project (cwd)", "path", { priority: 1 }),
      col("firstTimestamp", "first", "time", { priority: 3 }),
      col("lastTimestamp", "last", "time", { priority: 1 }),
      col("bytes", "size", "bytes", { priority: 2 }),
      col("requests", "requests (main chain)", "int", { priority: 2 }),
      col("subagents", "subagents", "int", { priority: 3 }),
      col("versions", "versions", "text", { priority: 3 }),
      col("malformed", "malformed", "int", { priority: 3 }),
    ],
    rows: rows.map((r) => ({ ...r })),
  };
}
