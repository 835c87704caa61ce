/**
 * The reader worker's entry (sources/hasher.ts starts it for big files, named by pipeline/runner.ts):
 * the scan of long lines first, so that sources/hash-worker.ts finds it (sources/prescan-table.ts
 * `slotScanner`) when it starts reading into slots. Sources may not import records; this layer may.
 */
import "../records/skeleton-prescan.js";
import "../sources/hash-worker.js";
