// Node reading the bytes: 1 MiB fs.readSync into one buffer, optionally hashing (--sha256). The floor
// under any reader of the file; prints {bytes, sha256?} as one JSON line.
import { closeSync, openSync, readSync } from "node:fs";
import { createHash } from "node:crypto";

const [file, flag] = process.argv.slice(2);
const hash = flag === "--sha256" ? createHash("sha256") : undefined;
const buf = Buffer.allocUnsafe(1 << 20);
const fd = openSync(file, "r");
let bytes = 0;
for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; bytes += n) hash?.update(buf.subarray(0, n));
closeSync(fd);
process.stdout.write(`${JSON.stringify({ bytes, sha256: hash?.digest("hex") })}\n`);
