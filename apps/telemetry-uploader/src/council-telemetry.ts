import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { runTelemetryCli } from '@council/cli/run';
import packageJson from '../package.json' with { type: 'json' };

// The `council-telemetry` executable. SIGINT/SIGTERM stop `--watch` after the run in progress
// (the cursor only moves after a 2xx, so stopping harder loses nothing either); a second signal ends at once.
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    controller.abort();
    process.once(signal, () => process.exit(130));
  });
}

// Memory: each batch leaves short-lived garbage (parsed lines, request and response copies) that V8
// would otherwise let pile up in old space for tens of MB before collecting. A full collection every
// 20 batches (2,000 events at most) keeps a 100,000-event upload's peak RSS near 125 MB instead of ~170 MB
// (VmHWM, measured by the benchmark), at no measurable cost in throughput. Only the executable does this;
// embedders of runTelemetryCli keep their own heap policy.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
let commits = 0;
const afterCommit = (): void => {
  if (++commits % 20 === 0) collect();
};

try {
  process.exitCode = await runTelemetryCli(process.argv.slice(2), {
    version: packageJson.version,
    signal: controller.signal,
    afterCommit,
  });
} catch (error) {
  // Expected failures are TelemetryUploadErrors, reported by runTelemetryCli; anything else is a bug.
  // One line, no stack trace; the cursor only moves after a 2xx, so nothing queued is lost by stopping here.
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stderr.write(
    `council-telemetry: unexpected error (${what.replace(/\s+/g, ' ').slice(0, 300)}). The queued events are untouched; please report this.\n`,
  );
  process.exitCode = 1;
}
