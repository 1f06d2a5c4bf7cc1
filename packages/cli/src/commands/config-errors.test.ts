import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

// Issue 30 (a wording fault noticed): a bad config.yaml value says which key, by its model id when it is one, and what
// the value must be — not `model_options.….temperature` and zod's "Too big: expected number to be <=2". Through the CLI.

async function configShow(yaml: string) {
  const home = mkdtempSync(join(tmpdir(), 'council-config-errors-'));
  writeFileSync(join(home, 'config.yaml'), yaml);
  const c = captureIo();
  const code = await runCli(['config', 'show'], {
    version: '1.0.0',
    io: c.io,
    env: { LLM_COUNCIL_HOME: home },
    cwd: home,
  });
  return { code, err: c.err(), file: join(home, 'config.yaml') };
}

describe('config.yaml errors name the key and say what it must be', () => {
  it('a model_options value out of range names the model id and the bound', async () => {
    const r = await configShow('model_options:\n  openai/gpt-4o:\n    temperature: 5\n');
    expect(r.code).toBe(2);
    expect(r.err).toBe(`council: ${r.file}: "model_options.openai/gpt-4o.temperature" (line 3) must be at most 2.\n`);
  });

  it('each kind of bound in words, model ids of every form shown, and a key of no known form still hidden', async () => {
    const yaml = [
      'quorum: 0', // line 1
      'retries: 1.5',
      'max_cost_usd: 0',
      'max_reply_bytes: 5',
      'model_options:', // line 5
      '  ollama/llama3.2:3b:',
      '    system: ""',
      '    temp: 1',
      '  simulated:ada:',
      '    temperature: -1', // line 10
      '  "root:x:0:0:CANARY:/root:/bin/bash":',
      '    temperature: 9',
      'pools:',
      '  deep: []', // line 14
      '',
    ].join('\n');
    const r = await configShow(yaml);
    expect(r.code).toBe(2);
    const problems = r.err.replace(`council: ${r.file}: `, '').trim().replace(/\.$/, '').split('; ');
    expect(problems.sort()).toEqual(
      [
        '"quorum" (line 1) must be at least 1',
        '"retries" (line 2) must be a whole number',
        '"max_cost_usd" (line 3) must be a positive number',
        '"max_reply_bytes" (line 4) must be at least 1,024',
        '"model_options.ollama/llama3.2:3b.system" (line 7) must not be empty',
        'unknown key "model_options.ollama/llama3.2:3b.temp" (line 8)',
        'accepted keys: system, temperature',
        '"model_options.simulated:ada.temperature" (line 10) must be at least 0',
        // Not a model id: the file may not be Council's, so the key is not shown.
        '"model_options.….temperature" (line 12) must be at most 2',
        // A schema's own wording is kept.
        '"pools.deep" (line 14) must name at least one model',
      ].sort(),
    );
    expect(r.err).not.toContain('CANARY');
    expect(r.err).not.toMatch(/Too (big|small)|expected number|a int\b/);
  });
});
