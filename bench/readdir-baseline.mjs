// The floor for `sessions`: list every project folder once, read and JSON.parse every line of every
// top-level transcript, count assistant records. Prints {files, records}.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const projects = join(process.argv[2], "projects");
let files = 0,
  records = 0;
for (const p of readdirSync(projects)) {
  for (const f of readdirSync(join(projects, p))) {
    if (!f.endsWith(".jsonl")) continue;
    files++;
    for (const l of readFileSync(join(projects, p, f), "utf8").split("\n")) if (l && JSON.parse(l).type === "assistant") records++;
  }
}
process.stdout.write(`${JSON.stringify({ files, records })}\n`);
