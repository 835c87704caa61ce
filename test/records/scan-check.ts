import assert from "node:assert/strict";
import { jsScan, jsScanCounts, jsScanUnits } from "../../src/records/skeleton.js";
import { escapes, fours, loadBytes, scan, uEscapes, units } from "../../src/records/wasm-string.js";

/**
 * One string body `b` between quotes, after `lead` spaces and before `tail`: the WASM scan and the
 * JavaScript byte loop find the same closing quote and count the same UTF-16 units, and when
 * JSON.parse takes the string the scan stops at its closing quote with its length (never there when
 * JSON.parse refuses it). Both count the same escapes and 4-byte sequences, and as many as the body holds.
 */
export function checkScan(lead: number, b: string, tail: string): void {
  const bytes = Buffer.from(`${" ".repeat(lead)}"${b}"${tail}`, "utf8");
  loadBytes(bytes);
  const w = scan(lead + 1, bytes.length);
  const wu = units();
  const wc = { escapes: escapes(), fours: fours(), uEscapes: uEscapes() };
  const j = jsScan(bytes, lead + 1, bytes.length);
  assert.equal(w >= 0 ? w : -1, j, "closing quote");
  if (j >= 0) {
    assert.equal(wu, jsScanUnits(), "units");
    assert.deepStrictEqual(wc, jsScanCounts(), "escapes and 4-byte sequences");
  }
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
    const raw = bytes.subarray(lead + 1, end);
    assert.equal(wc.escapes, (raw.toString("latin1").match(/\\(u[0-9a-fA-F]{4}|.)/g) ?? []).length, "escapes");
    assert.equal(wc.fours, raw.filter((c) => c >= 0xf0).length, "4-byte sequences");
    assert.equal(
      wc.uEscapes,
      (raw.toString("latin1").match(/\\(u[0-9a-fA-F]{4}|.)/g) ?? []).filter((x) => x[1] === "u").length,
      "\\u escapes",
    );
  } else assert.notEqual(w, end);
}
