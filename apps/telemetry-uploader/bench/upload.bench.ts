import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { defineBenchSuite } from '@council/bench';
import { median } from '@council/bench';
import type { IngestTestServer } from '@council/cli/test';
import { appendOutboxEvents, sampleEvent, startIngestTestServer } from '@council/cli/test';

// Issue 9's targets: upload 100,000 queued events to a loopback ingest server at ≥ 5,000 events/s
// with peak RSS ≤ 150 MB. The uploader runs as the real executable in a child process; a preload
// script reads its peak RSS at exit from /proc/self/status (VmHWM, which starts afresh at exec). Not
// getrusage's maxRSS: on Linux that survives fork and exec, so it would include this process's own size.
const bundle = fileURLToPath(new URL('../dist/council-telemetry.js', import.meta.url));
const events = 100_000;
const runs = 3;

let home = '';
let server: IngestTestServer | undefined;
let rssProbe = '';

function uploadOnce(): Promise<{ seconds: number; peakRssMb: number }> {
  rmSync(join(home, 'telemetry', 'sent.cursor'), { force: true });
  const rssFile = join(home, 'rss.txt');
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', rssProbe, bundle, 'upload'], {
      env: {
        PATH: process.env.PATH ?? '',
        LLM_COUNCIL_HOME: home,
        LLM_COUNCIL_CLOUD_URL: server!.url,
        LLM_COUNCIL_CLOUD_TOKEN: 'bench-token',
        RSS_FILE: rssFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0 || !output.includes(`Sent ${events} events`)) {
        reject(new Error(`council-telemetry exited ${code}: ${output}`));
        return;
      }
      resolve({ seconds, peakRssMb: Number(readFileSync(rssFile, 'utf8')) / 1024 });
    });
  });
}

export const suite = defineBenchSuite({
  name: 'telemetry-uploader',
  setup: async () => {
    home = mkdtempSync(join(tmpdir(), 'council-telemetry-bench-'));
    rssProbe = join(home, 'rss-probe.cjs');
    writeFileSync(
      rssProbe,
      [
        "const fs = require('node:fs');",
        'function peakKb() {',
        "  try { const m = /VmHWM:\\s+(\\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8')); if (m) return Number(m[1]); } catch {}",
        '  return process.resourceUsage().maxRSS;',
        '}',
        "process.on('exit', () => fs.writeFileSync(process.env.RSS_FILE, String(peakKb())));",
        '',
      ].join('\n'),
    );
    const outbox = join(home, 'telemetry', 'outbox.jsonl');
    for (let start = 0; start < events; start += 10_000) {
      appendOutboxEvents(
        outbox,
        Array.from({ length: 10_000 }, (_, i) => sampleEvent(start + i + 1, (((start + i) % 3) + 2) as 2 | 3 | 4)),
      );
    }
    server = await startIngestTestServer({ retain: false });
  },
  teardown: async () => {
    await server?.close();
    rmSync(home, { recursive: true, force: true });
  },
  values: async () => {
    const results = [];
    for (let run = 0; run < runs; run++) results.push(await uploadOnce());
    return [
      {
        name: `upload ${events} events: throughput (median of ${runs})`,
        value: events / median(results.map((r) => r.seconds)),
        unit: 'events/s',
      },
      {
        name: 'upload: events/s target is ≥ 5,000 (ratio > 1 is good)',
        value: events / median(results.map((r) => r.seconds)) / 5000,
        unit: '× target',
      },
      {
        name: `upload ${events} events: peak RSS (median of ${runs})`,
        value: median(results.map((r) => r.peakRssMb)),
        unit: 'MB',
        budget: 150,
      },
      {
        name: `upload ${events} events: peak RSS (max of ${runs})`,
        value: Math.max(...results.map((r) => r.peakRssMb)),
        unit: 'MB',
        budget: 150,
      },
    ];
  },
});
