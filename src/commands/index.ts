import type { CommandSpec } from "./registry.js";
import { guarded } from "./guarded.js";
import { requestsCommand } from "./requests-spec.js";
import { inventoryCommand } from "./inventory.js";
import { sessionsCommand } from "./sessions.js";
import { debugCommand } from "./debug.js";
import { rpcCommand } from "./rpc.js";
import { instructionsCommand } from "./instructions.js";
import { outputsCommand } from "./outputs.js";
import { serversCommand } from "./servers.js";
import { exportCommand } from "./export.js";
import { labCommand } from "./lab.js";
import { runCommand } from "./run.js";
import { reportCommand } from "./report.js";
import { compareCommand } from "./compare.js";
import { demoCommand } from "./demo.js";
import { toolsCommand } from "./tools.js";

/** Every command the CLI knows, in help order. Add a command by adding its spec here. */
export const COMMANDS: CommandSpec[] = [
  sessionsCommand,
  requestsCommand,
  instructionsCommand,
  outputsCommand,
  serversCommand,
  exportCommand,
  debugCommand,
  rpcCommand,
  reportCommand,
  demoCommand,
  compareCommand,
  inventoryCommand,
  toolsCommand,
  labCommand,
  runCommand,
].map(guarded);
