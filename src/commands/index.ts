import type { CommandSpec } from "./registry.js";
import { requestsCommand } from "./requests-spec.js";
import { inventoryCommand } from "./inventory.js";
import { sessionsCommand } from "./sessions.js";

/** Every command the CLI knows, in help order. Add a command by adding its spec here. */
export const COMMANDS: CommandSpec[] = [sessionsCommand, requestsCommand, inventoryCommand];
