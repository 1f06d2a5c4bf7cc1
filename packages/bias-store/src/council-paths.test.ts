import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { councilPaths } from './council-paths.js';

describe('councilPaths', () => {
  it('lays out the files under the home directory', () => {
    const h = join('/home/tester', '.llm-council');
    expect(councilPaths(h)).toEqual({
      home: h,
      biasMetrics: join(h, 'bias_metrics.jsonl'),
      contributions: join(h, 'contributions.jsonl'),
      history: join(h, 'history.jsonl'),
      telemetryOutbox: join(h, 'telemetry', 'outbox.jsonl'),
      telemetrySentCursor: join(h, 'telemetry', 'sent.cursor'),
      telemetryDeadLetter: join(h, 'telemetry', 'dead-letter.jsonl'),
      journal: join(h, 'journal'),
    });
  });

  it('keeps a bias store given elsewhere, and the other files under the home', () => {
    const paths = councilPaths('/srv/council', { biasMetrics: '/home/tester/b.jsonl' });
    expect(paths.history).toBe('/srv/council/history.jsonl');
    expect(paths.biasMetrics).toBe('/home/tester/b.jsonl');
  });
});
