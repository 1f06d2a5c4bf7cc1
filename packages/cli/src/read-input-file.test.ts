import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInputFile } from './read-input-file.js';
import { readPromptsFile } from './read-prompts-file.js';

describe('readInputFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'council-read-input-'));

  it('reads a file as UTF-8 text', () => {
    const path = join(dir, 'q.txt');
    writeFileSync(path, 'Grüße\n');
    expect(readInputFile(path, 'prompts file')).toBe('Grüße\n');
  });

  it('a missing file or a directory is a usage error naming what, the path and the reason', () => {
    const missing = join(dir, 'none.jsonl');
    expect(() => readInputFile(missing, 'prompts file')).toThrow(
      expect.objectContaining({
        code: 'USAGE',
        message: `Cannot read the prompts file ${missing} (ENOENT). Check the path.`,
      }),
    );
    expect(() => readInputFile(dir, 'dataset')).toThrow(`Cannot read the dataset ${dir} (EISDIR). Check the path.`);
  });

  it("is what batch's prompts file reader says for a file it cannot read", () => {
    expect(() => readPromptsFile(join(dir, 'gone.txt'))).toThrow(
      /^Cannot read the prompts file .*gone\.txt \(ENOENT\)/,
    );
  });
});
