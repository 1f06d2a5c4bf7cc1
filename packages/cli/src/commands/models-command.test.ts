import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

// `council models` (issue 30 item 15): what `llm models` shows, for a council — from the configuration only.
describe('council models', () => {
  it('lists the configured members, chairman, pools, personalities, model options and key presence', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-models-'));
    writeFileSync(
      join(home, 'config.yaml'),
      [
        'members: [openai/gpt-4o, "anthropic:claude-sonnet-4", careful]',
        'chairman: openai/gpt-4o',
        'pools:',
        '  quick: ["ollama:llama3.2", "ollama:qwen3"]',
        'model_options:',
        '  openai/gpt-4o:',
        '    temperature: 0.3',
        '    system: Be brief.',
        '',
      ].join('\n'),
    );
    mkdirSync(join(home, 'personalities'));
    writeFileSync(
      join(home, 'personalities', 'careful.yaml'),
      'id: careful\nname: Careful Engineer\nmodel: gemini:gemini-2.5-pro\nsystem_prompt: You check every claim.\n',
    );
    const run = async (argv: string[]) => {
      const c = captureIo();
      const env = { LLM_COUNCIL_HOME: home, OPENROUTER_API_KEY: 'sk-or-v1-MODELS-SECRET' };
      const code = await runCli(argv, { version: '1.0.0', io: c.io, env, cwd: home });
      return { code, out: c.out(), err: c.err() };
    };
    const text = await run(['models']);
    expect(text.err).toBe('');
    expect(text.code).toBe(0);
    expect(text.out).toContain('Members\n  openai/gpt-4o\n  anthropic:claude-sonnet-4\n');
    expect(text.out).toContain('  careful (personality "Careful Engineer", model gemini:gemini-2.5-pro)\n');
    expect(text.out).toContain('Chairman openai/gpt-4o\n');
    expect(text.out).toContain('  @quick: ollama:llama3.2, ollama:qwen3\n');
    expect(text.out).toContain('  careful: Careful Engineer, model gemini:gemini-2.5-pro\n');
    expect(text.out).toContain('  openai/gpt-4o: temperature 0.3, system prompt (9 characters)\n');
    // Bare ids go to OpenRouter, whose key is set; anthropic and gemini need one; ollama is local.
    expect(text.out).toMatch(
      / {2}anthropic +no key\n {2}gemini +no key\n {2}ollama +no key \(local server\)\n {2}openrouter +key set\n/,
    );
    expect(text.out).not.toContain('SECRET');
    const json = await run(['models', '--json']);
    expect(JSON.parse(json.out)).toMatchObject({
      members: ['openai/gpt-4o', 'anthropic:claude-sonnet-4', 'careful'],
      chairman: 'openai/gpt-4o',
      pools: { quick: ['ollama:llama3.2', 'ollama:qwen3'] },
      personalities: [{ id: 'careful', name: 'Careful Engineer', model: 'gemini:gemini-2.5-pro' }],
      modelOptions: { 'openai/gpt-4o': { temperature: 0.3, system: 'Be brief.' } },
    });
  });

  it('says how to configure members when there are none', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-models-empty-'));
    const c = captureIo();
    expect(await runCli(['models'], { version: '1.0.0', io: c.io, env: { LLM_COUNCIL_HOME: home }, cwd: home })).toBe(
      0,
    );
    expect(c.out()).toContain(
      'none configured: set members in config.yaml (council config init) or LLM_COUNCIL_MODELS, or pass --models',
    );
    expect(c.out()).toContain('Chairman none (the first member chairs)');
  });
});
