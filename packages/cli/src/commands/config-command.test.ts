import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { runConfigCommand } from './config-command.js';

describe('council config', () => {
  it('path prints the home directory alone, so scripts can use it', async () => {
    const t = testContext({ env: { LLM_COUNCIL_HOME: '/srv/council' } });
    expect(await runConfigCommand({ action: 'path' }, t.ctx)).toBe(0);
    expect(t.out()).toBe('/srv/council\n');
    expect(t.err()).toBe('');
  });

  it('path --json lists every file under the home', async () => {
    const t = testContext({ home: '/h' });
    await runConfigCommand({ action: 'path', json: true }, t.ctx);
    const doc = JSON.parse(t.out()) as { home: string; files: Record<string, string | null> };
    expect(doc.home).toBe('/h');
    expect(doc.files).toMatchObject({
      config: '/h/config.yaml',
      biasStore: '/h/bias_metrics.jsonl',
      history: '/h/history.jsonl',
      outbox: '/h/telemetry/outbox.jsonl',
      sentCursor: '/h/telemetry/sent.cursor',
      deadLetter: '/h/telemetry/dead-letter.jsonl',
    });
  });

  it('show reports keys as present or absent and never prints a value', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-config-'));
    writeFileSync(join(home, 'config.yaml'), 'strategy: risk-averse\nmode_toggle: false\n');
    const canary = 'sk-or-v1-CANARY-0123456789';
    const t = testContext({
      home,
      env: {
        OPENROUTER_API_KEY: canary,
        LLM_COUNCIL_HASH_SECRET: 'SECRET-CANARY',
        LLM_COUNCIL_CLOUD_TOKEN: 'TOKEN-CANARY',
      },
    });
    await runConfigCommand({ action: 'show' }, t.ctx);
    const text = t.out();
    expect(text).toMatch(/OPENROUTER_API_KEY\s+present/);
    expect(text).toMatch(/ANTHROPIC_API_KEY\s+absent/);
    expect(text).toMatch(/hash secret\s+present/);
    expect(text).toMatch(new RegExp(`config file +${join(home, 'config.yaml')}\n`));
    expect(text).toMatch(/history\s+.*history\.jsonl \(missing\)/);
    // The cascade: the user's config.yaml over the built-in defaults.
    expect(text).toContain(`configuration layers  built-in defaults ← ${join(home, 'config.yaml')}`);
    expect(text).toMatch(/defaults\s+strategy risk-averse, mode consensus \(fixed: mode_toggle false\)/);
    const t2 = testContext({
      home,
      env: {
        OPENROUTER_API_KEY: canary,
        LLM_COUNCIL_HASH_SECRET: 'SECRET-CANARY',
        LLM_COUNCIL_CLOUD_TOKEN: 'TOKEN-CANARY',
      },
    });
    await runConfigCommand({ action: 'show', json: true }, t2.ctx);
    const doc = JSON.parse(t2.out()) as {
      keys: Record<string, string>;
      files: Record<string, { exists: boolean }>;
      council: { modeToggle: boolean };
    };
    expect(doc.council.modeToggle).toBe(false);
    expect(doc.keys['OPENROUTER_API_KEY']).toBe('present');
    expect(doc.files['config']?.exists).toBe(true);
    for (const out of [text, t2.out(), t.err(), t2.err()]) {
      expect(out).not.toContain('CANARY');
    }
  });

  it('names the file and key of an invalid configuration', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-config-'));
    writeFileSync(join(home, 'config.yaml'), 'quorum: many\n');
    await expect(runConfigCommand({ action: 'show' }, testContext({ home }).ctx)).rejects.toThrow(
      /config\.yaml.*quorum/,
    );
  });

  it('show prints LLM_COUNCIL_CLOUD_URL without its user-info, which can hold a token', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-config-'));
    const env = {
      LLM_COUNCIL_CLOUD_URL: 'https://acme:URL-TOKEN-CANARY@cloud.example.com/v1/ingest',
      LLM_COUNCIL_CLOUD_TOKEN: 'TOKEN-CANARY',
    };
    const t = testContext({ home, env });
    await runConfigCommand({ action: 'show' }, t.ctx);
    expect(t.out()).toMatch(/cloud\s+https:\/\/cloud\.example\.com\/v1\/ingest, token present\n/);
    const t2 = testContext({ home, env });
    await runConfigCommand({ action: 'show', json: true }, t2.ctx);
    expect((JSON.parse(t2.out()) as { cloudUrl: string }).cloudUrl).toBe('https://cloud.example.com/v1/ingest');
    for (const out of [t.out(), t2.out()]) expect(out).not.toMatch(/CANARY|acme/);
  });

  it('rejects an unknown action as a usage error naming the valid ones', async () => {
    const t = testContext();
    await expect(runConfigCommand({ action: 'edit' }, t.ctx)).rejects.toThrow(
      'Unknown config action "edit": use "council config show", "council config path" or "council config init".',
    );
  });
});
