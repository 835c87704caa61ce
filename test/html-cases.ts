/**
 * The HTML goldens: one per command and sample that has a markdown golden, same arguments plus
 * `--format html`. The golden test writes/compares them; the browser test loads each in chromium.
 */
export const HTML_CASES: Array<{ golden: string; args: string[] }> = [
  { golden: "basic/requests.html", args: ["requests", "samples/basic/11111111-2222-4333-8444-555555555555.jsonl"] },
  {
    golden: "instructions/instructions.html",
    args: [
      "instructions",
      "samples/instructions/ja-3000-truncated/projects/-Users-lab-runs-empty/a3000000-0000-4000-8000-000000003000.jsonl",
      "--debug-file",
      "samples/instructions/ja-3000-truncated/debug/a3000000-0000-4000-8000-000000003000.txt",
      "--baseline",
      "samples/instructions/baseline/projects/-Users-lab-runs-empty/b0000000-0000-4000-8000-000000000000.jsonl",
      "--wrapper-tokens",
      "51",
    ],
  },
  {
    golden: "outputs/outputs.html",
    args: [
      "outputs",
      "--staircase",
      "--claude-dir",
      "samples/outputs/staircase/claude",
      ...[
        "000000030000",
        "000000045000",
        "000000052000",
        "000000062000",
        "000000066000",
        "000000070000",
        "c00000024000",
        "e50000066000",
        "e60000030000",
        "a00000066000",
        "a00000320000",
      ].map((t) => `5e1c0a52-0003-4000-8000-${t}`),
    ],
  },
  { golden: "logs/debug.html", args: ["debug", "samples/logs/debug/legacy-truncated.debug.txt"] },
  { golden: "logs/rpc.html", args: ["rpc", "samples/logs/rpc/legacy-fallback.lab.jsonl"] },
  {
    golden: "demo/report.html",
    args: [
      "report",
      "c0ffee00",
      "--claude-dir",
      "samples/claude-home",
      "--rpc-log",
      "samples/demo/rpc-log.jsonl",
      "--stream-json",
      "samples/demo/claude-p.stream.jsonl",
    ],
  },
  { golden: "runs/compare.html", args: ["compare", "samples/runs"] },
];
