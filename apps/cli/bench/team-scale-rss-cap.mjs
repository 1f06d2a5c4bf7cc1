// Preloaded into every team-scale row (`node --import`): stops the process once its resident set passes
// COUNCIL_TEAM_RSS_CAP_MB, so a row that would take the shared machine's memory (DuckDB's buffers grow to 80% of RAM
// by default) ends with a clear message instead. The resident set counts native memory (DuckDB's) as well as the heap.
import { memoryUsage } from 'node:process';
import { setInterval } from 'node:timers';

const capMb = Number(process.env.COUNCIL_TEAM_RSS_CAP_MB ?? 0);
if (capMb > 0) {
  setInterval(() => {
    const rssMb = memoryUsage.rss() / 2 ** 20;
    if (rssMb > capMb) {
      process.stderr.write(
        `team-scale: stopped at ${rssMb.toFixed(0)} MB resident, past the cap of ${capMb} MB (COUNCIL_TEAM_RSS_CAP_MB)\n`,
      );
      process.kill(process.pid, 'SIGKILL'); // not exit(): native threads (DuckDB's) may hold it up
    }
  }, 100).unref();
}
