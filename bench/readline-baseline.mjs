// node:readline + JSON.parse on every line, the same dedup sum as the shared baseline-split.mjs (common.mjs).
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { file, makeAcc } from "./shared/common.mjs";

const acc = makeAcc();
let lines = 0;
for await (const l of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
  if (!l) continue;
  lines++;
  acc.add(JSON.parse(l));
}
acc.finish({ lines });
