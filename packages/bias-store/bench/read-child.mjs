// Reads bias stores with readBiasRecords and reports what it read, seconds and peak RSS as JSON.
// Run in its own process so that its peak resident set size is the reader's alone.
// Usage: node read-child.mjs STORE [sessions]
import { performance } from 'node:perf_hooks';
import { readBiasRecords } from '../dist/index.js';

const [path, sessions] = process.argv.slice(2);
const start = performance.now();
const cpuStart = process.cpuUsage();
const result = await readBiasRecords({
  inputs: [path],
  window: {
    now: new Date('2100-01-01T00:00:00Z'),
    ...(sessions === undefined ? {} : { sessions: Number(sessions) }),
  },
});
const seconds = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuStart);
const sessionsRead = result.columns.sessionIds.length + result.excluded.beyondSessions / 20;
console.log(
  JSON.stringify({
    records: result.records,
    kept: result.columns.length,
    sessionsKept: result.columns.sessionIds.length,
    sessionsRead,
    skipped: result.skipped,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssKb: process.resourceUsage().maxRSS,
  }),
);
