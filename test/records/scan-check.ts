import assert from "node:assert/strict";
import { jsScan, jsScanUnits } from "../../src/records/skeleton.js";
import { loadBytes, scan, units } from "../../src/records/wasm-string.js";

/**
 * One string body `b` between quotes, after `lead` spaces and before `tail`: the WASM scan and the
 * JavaScript byte loop find the same closing quote and count the same UTF-16 units, and when
 * JSON.parse takes the string the scan stops at its closing quote with its length (never there when
 * JSON.parse refuses it).
 */
export function checkScan(lead: number, b: string, tail: string): void {
  const bytes = Buffer.from(`${" ".repeat(lead)}"${b}"${tail}`, "utf8");
  loadBytes(bytes);
  const w = scan(lead + 1, bytes.length);
  const wu = units();
  const j = jsScan(bytes, lead + 1, bytes.length);
  assert.equal(w >= 0 ? w : -1, j, "closing quote");
  if (j >= 0) assert.equal(wu, jsScanUnits(), "units");
  const end = bytes.length - 1 - tail.length;
  let ref: string | undefined;
  try {
    ref = JSON.parse(bytes.toString("utf8", lead, end + 1)) as string;
  } catch {
    ref = undefined;
  }
  if (ref !== undefined) {
    assert.equal(w, end);
    assert.equal(wu, ref.length);
  } else assert.notEqual(w, end);
}
