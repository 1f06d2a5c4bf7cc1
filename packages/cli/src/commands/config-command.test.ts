import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { runConfigCommand } from './config-command.js';

describe('council config', () => {
  it('path prints the home directory alone, so scripts can use it', () => {
    const t = testContext({ env: { LLM_COUNCIL_HOME: '/srv/council' } });
    expect(runConfigCommand({ action: 'path' }, t.ctx)).toBe(0);
    expect(t.out()).toBe('/srv/council\n');
    expect(t.err()).toBe('');
  });

  it('path --json lists every file under the home', () => {
    const t = testContext({ home: '/h' });
    runConfigCommand({ action: 'path', json: true }, t.ctx);
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

  it('show reports keys as present or absent and never prints a value', () => {
    const home = mkdtempSync(join(tmpdir(), 'council-config-'));
    writeFileSync(join(home, 'config.yaml'), 'x: 1\n');
    const canary = 'sk-or-v1-CANARY-0123456789';
    const t = testContext({ home, env: { OPENROUTER_API_KEY: canary, LLM_COUNCIL_HASH_SECRET: 'SECRET-CANARY', LLM_COUNCIL_CLOUD_TOKEN: 'TOKEN-CANARY' } });
    runConfigCommand({ action: 'show' }, t.ctx);
    const text = t.out();
    expect(text).toMatch(/OPENROUTER_API_KEY\s+present/);
    expect(text).toMatch(/ANTHROPIC_API_KEY\s+absent/);
    expect(text).toMatch(/hash secret\s+present/);
    expect(text).toContain(`config file         ${join(home, 'config.yaml')}\n`);
    expect(text).toMatch(/history\s+.*history\.jsonl \(missing\)/);
    const t2 = testContext({ home, env: { OPENROUTER_API_KEY: canary, LLM_COUNCIL_HASH_SECRET: 'SECRET-CANARY', LLM_COUNCIL_CLOUD_TOKEN: 'TOKEN-CANARY' } });
    runConfigCommand({ action: 'show', json: true }, t2.ctx);
    const doc = JSON.parse(t2.out()) as { keys: Record<string, string>; files: Record<string, { exists: boolean }> };
    expect(doc.keys['OPENROUTER_API_KEY']).toBe('present');
    expect(doc.files['config']?.exists).toBe(true);
    for (const out of [text, t2.out(), t.err(), t2.err()]) {
      expect(out).not.toContain('CANARY');
    }
  });

  it('rejects an unknown action as a usage error naming the valid ones', () => {
    const t = testContext();
    expect(() => runConfigCommand({ action: 'edit' }, t.ctx)).toThrow('Unknown config action "edit": use "council config show" or "council config path".');
  });
});
