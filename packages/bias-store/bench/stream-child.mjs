// Streams a bias store with scan() and reports records, bytes, seconds and peak RSS as JSON.
// Run in its own process so that its peak resident set size is the store's alone.
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createBiasStore } from '../dist/index.js';

const path = process.argv[2];
const store = createBiasStore({ path });
const start = performance.now();
const cpuStart = process.cpuUsage();
let records = 0;
let skipped = 0;
for await (const entry of store.scan()) {
  if (entry.kind === 'item') records++;
  else skipped++;
}
const seconds = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuStart);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const bytes = (await store.files()).reduce((sum, f) => sum + statSync(f.path).size, 0);
console.log(JSON.stringify({ records, skipped, bytes, seconds, cpuSeconds, maxRssKb: process.resourceUsage().maxRSS }));
