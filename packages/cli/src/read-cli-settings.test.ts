import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCliSettings } from './read-cli-settings.js';

describe('readCliSettings', () => {
  it('uses ADR-018 defaults when nothing is set', () => {
    const s = readCliSettings({ env: {}, cwd: '/tmp' });
    expect(s.home).toBe(join(homedir(), '.llm-council'));
    expect(s.homeSource).toBe('default');
    expect(s.files.biasStore).toBe(join(homedir(), '.llm-council', 'bias_metrics.jsonl'));
    expect(s.files.outbox).toBe(join(homedir(), '.llm-council', 'telemetry', 'outbox.jsonl'));
    expect(s.biasPersistence).toBe(false);
    expect(s.consentLevel).toBe(1);
    expect([s.windowSessions, s.windowDays, s.minSessions]).toEqual([100, 30, 20]);
    expect(s.files.orgConfig).toBeNull();
  });

  it('honours the LLM_COUNCIL_* names exactly, and --home over LLM_COUNCIL_HOME', () => {
    const env = {
      LLM_COUNCIL_HOME: '/data/council',
      LLM_COUNCIL_MODELS: 'a/x, b/y',
      LLM_COUNCIL_CHAIRMAN: 'c/z',
      LLM_COUNCIL_ORG: 'acme',
      LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
      LLM_COUNCIL_BIAS_CONSENT: '3',
      LLM_COUNCIL_BIAS_WINDOW_SESSIONS: '50',
      LLM_COUNCIL_BIAS_STORE: 'rel/metrics.jsonl',
    };
    const s = readCliSettings({ env, cwd: '/work' });
    expect(s.home).toBe('/data/council');
    expect(s.models).toEqual(['a/x', 'b/y']);
    expect(s.chairman).toBe('c/z');
    expect(s.files.orgConfig).toBe('/data/council/organizations/acme/config/system-prompts.yaml');
    expect(s.biasPersistence).toBe(true);
    expect(s.consentLevel).toBe(3);
    expect(s.windowSessions).toBe(50);
    expect(s.files.biasStore).toBe('/work/rel/metrics.jsonl');
    expect(readCliSettings({ env, cwd: '/work', home: 'h' }).home).toBe('/work/h');
  });

  it('names the variable and the accepted values when a value is invalid', () => {
    expect(() => readCliSettings({ env: { LLM_COUNCIL_BIAS_CONSENT: '5' }, cwd: '/' })).toThrow(
      'LLM_COUNCIL_BIAS_CONSENT="5" is not valid: use 0 (off), 1 (local only), 2 (anonymous), 3 (enhanced) or 4 (research). Fix or unset it.',
    );
    expect(() => readCliSettings({ env: { LLM_COUNCIL_BIAS_PERSISTENCE: 'maybe' }, cwd: '/' })).toThrow(/LLM_COUNCIL_BIAS_PERSISTENCE="maybe".*true or false/);
    expect(() => readCliSettings({ env: { LLM_COUNCIL_BIAS_WINDOW_DAYS: '-3' }, cwd: '/' })).toThrow(/LLM_COUNCIL_BIAS_WINDOW_DAYS/);
    expect(() => readCliSettings({ env: { LLM_COUNCIL_ORG: '../etc' }, cwd: '/' })).toThrow(/LLM_COUNCIL_ORG/);
  });
});
