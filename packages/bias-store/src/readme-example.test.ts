import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleForChildren } from './__fixtures__/child-bundle.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';

const tempDir = useTempDirs();

describe('README', () => {
  it('its example runs and writes a record without the query', async () => {
    const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    const example = /## Example\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const home = tempDir();
    const dir = await bundleForChildren({});
    try {
      // The example is TypeScript without type annotations, so it runs as JavaScript against the bundled source.
      const script = example!
        .replace("from '@council/bias-store'", "from './bias-store.mjs'")
        .replaceAll('/tmp/council-example', home);
      writeFileSync(join(dir, 'example.mjs'), script);
      const output = execFileSync(process.execPath, [join(dir, 'example.mjs')], { encoding: 'utf8' });
      expect(output).toContain("queryCategory: 'coding'");
      const line = readFileSync(join(home, 'bias_metrics.jsonl'), 'utf8');
      expect(line).toContain('"query_metadata":{"category":"coding","token_count_bucket":"0-100","language":"en"}');
      expect(line).not.toContain('merge two sorted');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
