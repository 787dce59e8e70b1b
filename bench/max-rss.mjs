// Preloaded into a measured process: prints its peak resident set size on exit.
process.on('exit', () => {
  process.stderr.write(`max-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
