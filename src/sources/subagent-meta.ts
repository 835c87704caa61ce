import { closeSync, readSync } from "node:fs";
import { admitDiscovered, errnoText, openEvidenceSized, skip } from "./guard.js";
import { parseJsonBounded } from "./json-depth.js";

/**
 * A sidecar is a few dozen bytes (`{"agentType":"general-purpose","toolUseId":"toolu_…"}`); one far larger
 * is no sidecar Claude Code wrote, and is not read (JSON.parse of this much costs nothing to speak of).
 */
export const META_MAX_BYTES = 16 * 1024;

/** A tool_use id as the API writes them (`toolu_…`, `call_…`): anything else is not used as a join key. */
const TOOL_USE_ID = /^[A-Za-z0-9_-]{1,200}$/;

const UNUSED = "its toolUseId is not used to join the subagent to its parent's Task/Agent result";

/** `…/agent-<id>.jsonl` → `…/agent-<id>.meta.json`, the sidecar beside it (FORMATS.md 3); undefined for any other name. */
export function metaPathOf(agentFile: string): string | undefined {
  return /(?:^|[\\/])agent-[^\\/]+\.jsonl$/.test(agentFile) ? `${agentFile.slice(0, -".jsonl".length)}.meta.json` : undefined;
}

/**
 * The tool_use id of the parent's Task/Agent call, as a subagent file's `agent-<id>.meta.json`
 * `{agentType, toolUseId}` names it (FORMATS.md 3, 4.6) `[2ND]`. No sidecar, or one without `toolUseId`
 * (it is optional): undefined, no word. A sidecar that cannot be used (outside `root`, not a regular file,
 * too big, unreadable, not JSON, not an object, a `toolUseId` that is no id) is damage: it is listed in
 * `health.skipped` and on stderr with the reason, and the join falls back to the prompt.
 */
export function readSubagentToolUseId(agentFile: string, root: string): string | undefined {
  const path = metaPathOf(agentFile);
  if (path === undefined) return undefined;
  // The guard names links leaving the tree, dangling links and non-files; a plain missing file is no news.
  const real = admitDiscovered(path, root);
  if (real === undefined) return undefined;
  let text: string;
  try {
    text = readBounded(real);
  } catch (e) {
    if (e instanceof Damaged) skip(path, `${e.message}: ${UNUSED}`);
    else skip(path, `unreadable subagent sidecar (${errnoText(e)}): ${UNUSED}`);
    return undefined;
  }
  let v: unknown;
  try {
    v = parseJsonBounded(text, undefined);
  } catch {
    v = undefined;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    skip(path, `subagent sidecar is not a JSON object: ${UNUSED}`);
    return undefined;
  }
  const id = (v as Record<string, unknown>).toolUseId;
  if (id === undefined || id === null) return undefined;
  if (typeof id !== "string" || !TOOL_USE_ID.test(id)) {
    skip(path, `subagent sidecar's toolUseId is not a tool_use id: ${UNUSED}`);
    return undefined;
  }
  return id;
}

class Damaged extends Error {}

/** The sidecar's text, read up to META_MAX_BYTES + 1 so a bigger one is told without reading it all. */
function readBounded(real: string): string {
  const { fd, size } = openEvidenceSized(real);
  try {
    if (size > META_MAX_BYTES)
      throw new Damaged(`subagent sidecar of ${size} bytes, over the ${META_MAX_BYTES} a sidecar can be; not read`);
    const buf = Buffer.alloc(META_MAX_BYTES + 1);
    let n = 0;
    for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    if (n > META_MAX_BYTES) throw new Damaged(`subagent sidecar grew past ${META_MAX_BYTES} bytes while read; not read`);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(buf.subarray(0, n));
    } catch {
      throw new Damaged("subagent sidecar is not UTF-8 text");
    }
  } finally {
    closeSync(fd);
  }
}
