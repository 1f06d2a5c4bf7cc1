import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandHomePath, resolveCouncilPaths } from './council-paths.js';

describe('resolveCouncilPaths', () => {
  it('lays out the files under ~/.llm-council by default', () => {
    const h = join('/home/tester', '.llm-council');
    expect(resolveCouncilPaths({ HOME: '/home/tester' })).toEqual({
      home: h,
      biasMetrics: join(h, 'bias_metrics.jsonl'),
      history: join(h, 'history.jsonl'),
      telemetryOutbox: join(h, 'telemetry', 'outbox.jsonl'),
      telemetrySentCursor: join(h, 'telemetry', 'sent.cursor'),
      telemetryDeadLetter: join(h, 'telemetry', 'dead-letter.jsonl'),
    });
  });

  it('honours LLM_COUNCIL_HOME and LLM_COUNCIL_BIAS_STORE, expanding ~ and relative paths', () => {
    const paths = resolveCouncilPaths({ HOME: '/home/tester', LLM_COUNCIL_HOME: '/srv/council', LLM_COUNCIL_BIAS_STORE: '~/b.jsonl' });
    expect(paths.history).toBe('/srv/council/history.jsonl');
    expect(paths.biasMetrics).toBe('/home/tester/b.jsonl');
    expect(expandHomePath('rel/x.jsonl', {})).toBe(resolve('rel/x.jsonl'));
  });
});
