// Preloaded into the measured ccforensics process (node --import): reports its peak RSS on stderr at exit.
process.on("exit", () => process.stderr.write(`\nBENCH_MAX_RSS=${process.resourceUsage().maxRSS * 1024}\n`));
