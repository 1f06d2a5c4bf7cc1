import { homedir } from 'node:os';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { resolveCouncilSettings, safeResolveCouncilSettings } from './resolve-council-settings.js';

// Expected values are written out by hand from DESIGN.md and ADR-015/018's defaults.
const HOME = '/home/tester';

describe('resolveCouncilSettings: defaults', () => {
  it("uses ADR-018's defaults and lays the files out under ~/.llm-council", () => {
    const s = resolveCouncilSettings({ HOME }, { cwd: '/tmp' });
    expect(s.home).toBe('/home/tester/.llm-council');
    expect(s.homeSource).toBe('default');
    expect(s.files).toEqual({
      config: '/home/tester/.llm-council/config.yaml',
      personalities: '/home/tester/.llm-council/personalities',
      orgConfig: null,
      biasStore: '/home/tester/.llm-council/bias_metrics.jsonl',
      contributions: '/home/tester/.llm-council/contributions.jsonl',
      history: '/home/tester/.llm-council/history.jsonl',
      outbox: '/home/tester/.llm-council/telemetry/outbox.jsonl',
      sentCursor: '/home/tester/.llm-council/telemetry/sent.cursor',
      deadLetter: '/home/tester/.llm-council/telemetry/dead-letter.jsonl',
    });
    expect(s.biasPersistence).toBe(false);
    expect(s.consentLevel).toBe(1);
    expect(s.writesBiasRecords).toBe(false);
    expect([s.biasWindow.sessions, s.biasWindow.days, s.minSessions]).toEqual([100, 30, 20]);
    expect(s.biasThresholds).toEqual({ lengthCorrelation: 0.3, positionVariance: 0.5 });
    expect(s.biasAudit).toBeNull();
    expect([s.models, s.chairman, s.org, s.randomSeed, s.cloudUrl]).toEqual([[], null, null, null, null]);
    expect([s.hashSecretSet, s.cloudTokenSet]).toEqual([false, false]);
    expect(s.variablesSet).toEqual([]);
  });

  it("falls back to the operating system's home directory when HOME is not set", () => {
    expect(resolveCouncilSettings({}, { cwd: '/' }).home).toBe(`${homedir()}/.llm-council`);
  });
});

describe('resolveCouncilSettings: every variable', () => {
  it('honours the LLM_COUNCIL_* names exactly', () => {
    const s = resolveCouncilSettings(
      {
        HOME,
        LLM_COUNCIL_HOME: '/data/council',
        LLM_COUNCIL_MODELS: 'a/x, b/y,,',
        LLM_COUNCIL_CHAIRMAN: ' c/z ',
        LLM_COUNCIL_ORG: 'acme',
        LLM_COUNCIL_BIAS_AUDIT: 'TRUE',
        LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
        LLM_COUNCIL_BIAS_CONSENT: 'research',
        LLM_COUNCIL_BIAS_WINDOW_SESSIONS: '50',
        LLM_COUNCIL_BIAS_WINDOW_DAYS: '7',
        LLM_COUNCIL_MIN_BIAS_SESSIONS: '10',
        LLM_COUNCIL_RANDOM_SEED: '42',
        LLM_COUNCIL_BIAS_STORE: 'rel/metrics.jsonl',
        LLM_COUNCIL_HASH_SECRET: 's3cret-s3cret-s3cret',
        LLM_COUNCIL_CLOUD_URL: 'https://cloud.example.com',
        LLM_COUNCIL_CLOUD_TOKEN: 'tok',
        LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD: '0.45',
        LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD: '1.25',
      },
      { cwd: '/work' },
    );
    expect(s.home).toBe('/data/council');
    expect(s.homeSource).toBe('LLM_COUNCIL_HOME');
    expect(s.models).toEqual(['a/x', 'b/y']);
    expect(s.chairman).toBe('c/z');
    expect(s.org).toBe('acme');
    expect(s.orgSource).toBe('LLM_COUNCIL_ORG');
    expect(s.files.orgConfig).toBe('/data/council/organizations/acme/config/system-prompts.yaml');
    expect(s.biasAudit).toBe(true);
    expect(s.biasPersistence).toBe(true);
    expect(s.consentLevel).toBe(4);
    expect(s.writesBiasRecords).toBe(true);
    expect([s.biasWindow.sessions, s.biasWindow.days, s.minSessions]).toEqual([50, 7, 10]);
    expect(s.randomSeed).toBe(42);
    expect(s.files.biasStore).toBe('/work/rel/metrics.jsonl');
    expect(s.files.history).toBe('/data/council/history.jsonl');
    expect(s.hashSecretSet).toBe(true);
    expect(s.cloudUrl).toBe('https://cloud.example.com');
    expect(s.cloudTokenSet).toBe(true);
    expect(s.biasThresholds).toEqual({ lengthCorrelation: 0.45, positionVariance: 1.25 });
    expect(s.variablesSet).toHaveLength(17);
  });

  it('counts empty and blank values as unset', () => {
    const s = resolveCouncilSettings(
      {
        HOME,
        LLM_COUNCIL_HOME: '/srv/c',
        LLM_COUNCIL_BIAS_STORE: '',
        LLM_COUNCIL_BIAS_CONSENT: '  ',
        LLM_COUNCIL_HASH_SECRET: ' \t ',
      },
      { cwd: '/' },
    );
    expect(s.files.biasStore).toBe('/srv/c/bias_metrics.jsonl');
    expect(s.consentLevel).toBe(1);
    expect(s.hashSecretSet).toBe(false);
    expect(s.variablesSet).toEqual(['LLM_COUNCIL_HOME']);
  });

  it('writes bias records only with persistence on and consent ≥ 1', () => {
    expect(
      resolveCouncilSettings({ HOME, LLM_COUNCIL_BIAS_PERSISTENCE: 'true', LLM_COUNCIL_BIAS_CONSENT: '0' })
        .writesBiasRecords,
    ).toBe(false);
    expect(resolveCouncilSettings({ HOME, LLM_COUNCIL_BIAS_PERSISTENCE: 'on' }).writesBiasRecords).toBe(true);
    expect(resolveCouncilSettings({ HOME, LLM_COUNCIL_BIAS_PERSISTENCE: 'no' }).biasPersistence).toBe(false);
  });

  it('reports which provider keys are present, and the base URLs, never a key in what it prints', () => {
    const canary = 'sk-or-v1-CANARY-0123456789';
    const s = resolveCouncilSettings({
      HOME,
      OPENROUTER_API_KEY: canary,
      GOOGLE_API_KEY: ' g ',
      OLLAMA_BASE_URL: 'http://127.0.0.1:9/v1',
      LLM_COUNCIL_HASH_SECRET: 'SECRET-CANARY',
      LLM_COUNCIL_CLOUD_TOKEN: 'TOKEN-CANARY',
    });
    expect(s.apiKeys).toEqual({
      OPENROUTER_API_KEY: true,
      OPENAI_API_KEY: false,
      ANTHROPIC_API_KEY: false,
      GEMINI_API_KEY: false,
      GOOGLE_API_KEY: true,
      OLLAMA_API_KEY: false,
      VLLM_API_KEY: false,
      LMSTUDIO_API_KEY: false,
      LLAMACPP_API_KEY: false,
    });
    expect(s.baseUrls).toEqual({ OLLAMA_BASE_URL: 'http://127.0.0.1:9/v1' });
    for (const shown of [JSON.stringify(s), inspect(s, { depth: 8 }), JSON.stringify({ ...s })]) {
      expect(shown).not.toContain('CANARY');
    }
    // The values are there for the code that needs them, off the enumerable properties.
    expect(s.secrets.providerEnv).toEqual({
      OPENROUTER_API_KEY: canary,
      GOOGLE_API_KEY: 'g',
      OLLAMA_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(s.secrets.hashSecret).toBe('SECRET-CANARY');
    expect(s.secrets.cloudToken).toBe('TOKEN-CANARY');
  });

  it("keeps a base URL's credentials and query keys in the secrets only, and refuses one that is no http(s) URL (issue 27)", () => {
    const set = 'http://someone:PASS-CANARY@127.0.0.1:9/v1?key=KEY-CANARY&alt=1';
    const s = resolveCouncilSettings({ HOME, LLAMACPP_BASE_URL: set });
    expect(s.baseUrls).toEqual({ LLAMACPP_BASE_URL: 'http://127.0.0.1:9/v1?key=[REDACTED]&alt=1' });
    for (const shown of [JSON.stringify(s), inspect(s, { depth: 8 })]) expect(shown).not.toContain('CANARY');
    expect(s.secrets.providerEnv).toEqual({ LLAMACPP_BASE_URL: set });
    for (const value of ['127.0.0.1:8080/v1', 'someone:PASS-CANARY@127.0.0.1/v1', 'ftp://h.example/v1']) {
      const result = safeResolveCouncilSettings({ HOME, OLLAMA_BASE_URL: value });
      expect(result.success).toBe(false);
      if (result.success) continue;
      expect(result.error.message).toBe(
        "OLLAMA_BASE_URL is not an http:// or https:// URL (its value is not shown: it may hold a credential). Give the server's address with its scheme, e.g. http://127.0.0.1:8080/v1, or unset it.",
      );
      // The fallback a doctor goes on with leaves the bad address out (the provider's default applies).
      expect(result.fallback.secrets.providerEnv).toEqual({});
    }
  });
});

describe('resolveCouncilSettings: ~ expansion, in this one place', () => {
  const at = (value: string, cwd = '/work') => resolveCouncilSettings({ HOME, LLM_COUNCIL_HOME: value }, { cwd }).home;

  it("~ alone is the user's home directory", () => {
    expect(at('~')).toBe('/home/tester');
  });

  it("~/x is under the user's home directory", () => {
    expect(at('~/council')).toBe('/home/tester/council');
    expect(at('~/a/b/')).toBe('/home/tester/a/b/');
  });

  it('an absolute path stays as it is', () => {
    expect(at('/srv/council')).toBe('/srv/council');
  });

  it('a relative path is taken from the working directory (documented behaviour)', () => {
    expect(at('council-home', '/work/project')).toBe('/work/project/council-home');
    expect(at('../shared', '/work/project')).toBe('/work/shared');
  });

  it('~user is an error naming the variable, not a directory called "~user"', () => {
    expect(() => at('~bob/council')).toThrow(
      'LLM_COUNCIL_HOME="~bob/council" is not valid: use an absolute path, ~ or ~/… (another user\'s ~name is not expanded). Fix or unset it.',
    );
  });

  it('expands --home and LLM_COUNCIL_BIAS_STORE the same way', () => {
    expect(resolveCouncilSettings({ HOME }, { home: '~/h', cwd: '/' }).home).toBe('/home/tester/h');
    expect(resolveCouncilSettings({ HOME, LLM_COUNCIL_BIAS_STORE: '~/b.jsonl' }, { cwd: '/' }).files.biasStore).toBe(
      '/home/tester/b.jsonl',
    );
    expect(() => resolveCouncilSettings({ HOME }, { home: '~eve', cwd: '/' })).toThrow(
      /^--home "~eve" is not valid: use an absolute path, ~ or ~\/…/,
    );
  });
});

describe('resolveCouncilSettings: invalid values', () => {
  it('names the variable, the value and what to do, as a usage error', () => {
    const error: unknown = (() => {
      try {
        resolveCouncilSettings({ LLM_COUNCIL_BIAS_CONSENT: '5' }, { cwd: '/' });
      } catch (e) {
        return e;
      }
    })();
    expect(CliError.isInstance(error)).toBe(true);
    expect((error as CliError).code).toBe('USAGE');
    expect((error as CliError).message).toBe(
      'LLM_COUNCIL_BIAS_CONSENT="5" is not valid: use 0 (OFF), 1 (LOCAL_ONLY), 2 (ANONYMOUS), 3 (ENHANCED) or 4 (RESEARCH); the names are accepted in any case. Fix or unset it.',
    );
  });

  it.each([
    ['LLM_COUNCIL_BIAS_PERSISTENCE', 'maybe', 'use true or false (1/0, yes/no and on/off are accepted too)'],
    ['LLM_COUNCIL_BIAS_AUDIT', 'sometimes', 'use true or false (1/0, yes/no and on/off are accepted too)'],
    ['LLM_COUNCIL_BIAS_WINDOW_DAYS', '-3', 'use a whole number ≥ 1'],
    ['LLM_COUNCIL_BIAS_WINDOW_DAYS', 'thirty', 'use a whole number ≥ 1'],
    ['LLM_COUNCIL_BIAS_WINDOW_SESSIONS', '0', 'use a whole number ≥ 1'],
    ['LLM_COUNCIL_MIN_BIAS_SESSIONS', '3.5', 'use a whole number ≥ 1'],
    ['LLM_COUNCIL_RANDOM_SEED', 'abc', 'use a whole number'],
    ['LLM_COUNCIL_ORG', '../etc', 'use letters, digits, ".", "_" or "-" only, starting with a letter or digit'],
    ['LLM_COUNCIL_ORG', 'a..b', 'use letters, digits, ".", "_" or "-" only, without ".."'],
  ])('%s=%s', (name, value, accepted) => {
    expect(() => resolveCouncilSettings({ [name]: value }, { cwd: '/' })).toThrow(
      `${name}=${JSON.stringify(value)} is not valid: ${accepted}. Fix or unset it.`,
    );
  });

  it('reports every invalid variable at once', () => {
    const result = safeResolveCouncilSettings(
      { LLM_COUNCIL_BIAS_PERSISTENCE: 'maybe', LLM_COUNCIL_BIAS_WINDOW_SESSIONS: '0', LLM_COUNCIL_BIAS_CONSENT: '9' },
      { cwd: '/' },
    );
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.message).toContain('LLM_COUNCIL_BIAS_PERSISTENCE="maybe"');
      expect(result.error.message).toContain('LLM_COUNCIL_BIAS_WINDOW_SESSIONS="0"');
      expect(result.error.message).toContain('LLM_COUNCIL_BIAS_CONSENT="9"');
    }
  });

  it('gives a fallback with the defaults in place of the invalid values only', () => {
    const result = safeResolveCouncilSettings(
      {
        HOME,
        LLM_COUNCIL_HOME: '/srv/c',
        LLM_COUNCIL_BIAS_WINDOW_DAYS: 'thirty',
        LLM_COUNCIL_BIAS_WINDOW_SESSIONS: '50',
      },
      { cwd: '/' },
    );
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.fallback.home).toBe('/srv/c');
      expect(result.fallback.biasWindow.days).toBe(30);
      expect(result.fallback.biasWindow.sessions).toBe(50);
    }
  });

  it('cuts a long value in the message, and never shows a secret', () => {
    const long = 'x'.repeat(100);
    expect(() =>
      resolveCouncilSettings(
        { LLM_COUNCIL_BIAS_CONSENT: long, LLM_COUNCIL_HASH_SECRET: 'TOPSECRETVALUE' },
        { cwd: '/' },
      ),
    ).toThrow(`LLM_COUNCIL_BIAS_CONSENT="${'x'.repeat(40)}…" is not valid`);
    const result = safeResolveCouncilSettings(
      {
        LLM_COUNCIL_BIAS_CONSENT: 'x',
        LLM_COUNCIL_HASH_SECRET: 'TOPSECRETVALUE',
        LLM_COUNCIL_CLOUD_TOKEN: 'TOKENVALUE',
      },
      { cwd: '/' },
    );
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.message).not.toMatch(/TOPSECRETVALUE|TOKENVALUE/);
  });
});

describe('resolveCouncilSettings: ADR-015 thresholds', () => {
  const thresholds = (env: Record<string, string>) => resolveCouncilSettings(env, { cwd: '/' }).biasThresholds;

  it('parses decimals, including the ends of the range', () => {
    expect(thresholds({ LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD: '0.5' })).toEqual({
      lengthCorrelation: 0.5,
      positionVariance: 0.5,
    });
    expect(
      thresholds({ LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD: '0', LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD: '0' }),
    ).toEqual({ lengthCorrelation: 0, positionVariance: 0 });
    expect(
      thresholds({ LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD: '1', LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD: '12' }),
    ).toEqual({ lengthCorrelation: 1, positionVariance: 12 });
    expect(thresholds({ LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD: '.25' }).lengthCorrelation).toBe(0.25);
  });

  it.each(['1.5', '-0.1', 'high', '0.3.1', 'NaN', 'Infinity', '1e-1'])(
    'rejects LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD=%s',
    (value) => {
      expect(() => thresholds({ LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD: value })).toThrow(
        `LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD=${JSON.stringify(value)} is not valid: use a number from 0 to 1, the |r| above which length bias is flagged (default 0.3). Fix or unset it.`,
      );
    },
  );

  it.each(['-1', 'lots', 'Infinity'])('rejects LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD=%s', (value) => {
    expect(() => thresholds({ LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD: value })).toThrow(
      `LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD=${JSON.stringify(value)} is not valid: use a number of 0 or more, the variance of per-position mean scores above which position bias is flagged (default 0.5). Fix or unset it.`,
    );
  });
});

describe('resolveCouncilSettings: flags > environment > defaults', () => {
  it('--home over LLM_COUNCIL_HOME over ~/.llm-council, relative to the working directory', () => {
    expect(resolveCouncilSettings({ HOME }, { cwd: '/w' }).home).toBe('/home/tester/.llm-council');
    expect(resolveCouncilSettings({ HOME, LLM_COUNCIL_HOME: '/env/home' }, { cwd: '/w' }).home).toBe('/env/home');
    const flagged = resolveCouncilSettings({ HOME, LLM_COUNCIL_HOME: '/env/home' }, { cwd: '/w', home: 'h' });
    expect(flagged.home).toBe('/w/h');
    expect(flagged.homeSource).toBe('--home');
    expect(flagged.files.history).toBe('/w/h/history.jsonl');
  });

  it('a flag wins over its variable, which is then neither read nor checked', () => {
    const env = {
      HOME,
      LLM_COUNCIL_BIAS_CONSENT: 'not-a-level',
      LLM_COUNCIL_BIAS_PERSISTENCE: 'false',
      LLM_COUNCIL_ORG: 'acme',
      LLM_COUNCIL_BIAS_STORE: '/real/data.jsonl',
    };
    const s = resolveCouncilSettings(env, {
      cwd: '/',
      home: '/demo',
      consentLevel: 1,
      biasPersistence: true,
      org: null,
      biasStore: null,
    });
    expect(s.consentLevel).toBe(1);
    expect(s.biasPersistence).toBe(true);
    expect(s.org).toBeNull();
    expect(s.files.biasStore).toBe('/demo/bias_metrics.jsonl');
    expect(s.variablesSet).toEqual([]);
    expect(resolveCouncilSettings({ HOME, LLM_COUNCIL_ORG: 'acme' }, { cwd: '/', org: 'beta' })).toMatchObject({
      org: 'beta',
      orgSource: '--org',
    });
  });

  it('does not write --home back into the environment it was given', () => {
    const env: Record<string, string> = { HOME };
    resolveCouncilSettings(env, { cwd: '/', home: '/flag/home' });
    expect(env).toEqual({ HOME });
  });
});
