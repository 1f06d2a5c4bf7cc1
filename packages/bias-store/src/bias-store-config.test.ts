import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBiasStoreConfig, safeParseBiasStoreConfig } from './bias-store-config.js';

const home = '/home/tester';

describe('parseBiasStoreConfig', () => {
  it("uses ADR-018's defaults", () => {
    expect(parseBiasStoreConfig({ HOME: home })).toEqual({
      persistence: false,
      consent: 1,
      writesBiasRecords: false,
      home: join(home, '.llm-council'),
      storePath: join(home, '.llm-council', 'bias_metrics.jsonl'),
      windowSessions: 100,
      windowDays: 30,
      minSessions: 20,
      hashSecret: null,
    });
  });

  it('reads every variable', () => {
    const config = parseBiasStoreConfig({
      HOME: home,
      LLM_COUNCIL_HOME: '~/council',
      LLM_COUNCIL_BIAS_PERSISTENCE: 'TRUE',
      LLM_COUNCIL_BIAS_STORE: '/data/bias.jsonl',
      LLM_COUNCIL_BIAS_WINDOW_SESSIONS: '50',
      LLM_COUNCIL_BIAS_WINDOW_DAYS: '7',
      LLM_COUNCIL_MIN_BIAS_SESSIONS: '10',
      LLM_COUNCIL_BIAS_CONSENT: 'research',
      LLM_COUNCIL_HASH_SECRET: 's3cret-s3cret-s3cret',
    });
    expect(config).toEqual({
      persistence: true,
      consent: 4,
      writesBiasRecords: true,
      home: join(home, 'council'),
      storePath: '/data/bias.jsonl',
      windowSessions: 50,
      windowDays: 7,
      minSessions: 10,
      hashSecret: 's3cret-s3cret-s3cret',
    });
  });

  it('puts the store under LLM_COUNCIL_HOME when LLM_COUNCIL_BIAS_STORE is unset or empty', () => {
    expect(parseBiasStoreConfig({ HOME: home, LLM_COUNCIL_HOME: '/srv/c', LLM_COUNCIL_BIAS_STORE: '' }).storePath).toBe('/srv/c/bias_metrics.jsonl');
  });

  it('writes bias records only with persistence on and consent ≥ 1', () => {
    expect(parseBiasStoreConfig({ HOME: home, LLM_COUNCIL_BIAS_PERSISTENCE: 'true', LLM_COUNCIL_BIAS_CONSENT: '0' }).writesBiasRecords).toBe(false);
    expect(parseBiasStoreConfig({ HOME: home, LLM_COUNCIL_BIAS_PERSISTENCE: 'true' }).writesBiasRecords).toBe(true);
  });

  it('names each invalid variable and its accepted values, all at once', () => {
    const result = safeParseBiasStoreConfig({
      HOME: home,
      LLM_COUNCIL_BIAS_PERSISTENCE: 'yes',
      LLM_COUNCIL_BIAS_WINDOW_SESSIONS: '0',
      LLM_COUNCIL_BIAS_WINDOW_DAYS: '3.5',
      LLM_COUNCIL_MIN_BIAS_SESSIONS: 'many',
      LLM_COUNCIL_BIAS_CONSENT: '9',
    });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.code).toBe('INVALID_CONFIG');
      const m = result.error.message;
      expect(m).toContain('LLM_COUNCIL_BIAS_PERSISTENCE is "yes"; use true or false');
      expect(m).toContain('LLM_COUNCIL_BIAS_WINDOW_SESSIONS is "0"; use a whole number of 1 or more');
      expect(m).toContain('LLM_COUNCIL_BIAS_WINDOW_DAYS is "3.5"');
      expect(m).toContain('LLM_COUNCIL_MIN_BIAS_SESSIONS is "many"');
      expect(m).toMatch(/LLM_COUNCIL_BIAS_CONSENT is "9"; use 0 \(OFF\), 1 \(LOCAL_ONLY\).*4 \(RESEARCH\)/);
    }
  });

  it('fails at consent 4 without LLM_COUNCIL_HASH_SECRET: there is no default secret', () => {
    expect(() => parseBiasStoreConfig({ HOME: home, LLM_COUNCIL_BIAS_CONSENT: '4' })).toThrow(/LLM_COUNCIL_HASH_SECRET is not set; there is no default secret/);
    expect(() => parseBiasStoreConfig({ HOME: home, LLM_COUNCIL_BIAS_CONSENT: '4', LLM_COUNCIL_HASH_SECRET: '' })).toThrow(/no default secret/);
    expect(() => parseBiasStoreConfig({ HOME: home, LLM_COUNCIL_BIAS_CONSENT: '4', LLM_COUNCIL_HASH_SECRET: ' \t ' })).toThrow(/no default secret/);
  });

  it('never prints the secret', () => {
    const result = safeParseBiasStoreConfig({ HOME: home, LLM_COUNCIL_HASH_SECRET: 'TOPSECRETVALUE', LLM_COUNCIL_BIAS_CONSENT: 'x' });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.message).not.toContain('TOPSECRETVALUE');
  });
});
