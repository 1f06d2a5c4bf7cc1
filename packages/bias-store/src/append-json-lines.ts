import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirectory } from './make-directory.js';

/**
 * Appends items as JSON lines in one write on an append-only descriptor (file 0600, directory 0700),
 * starting with a newline when a crash left the file without one, so a torn line stays alone and the
 * new lines parse.
 */
export function appendJsonLines(path: string, items: readonly unknown[]): void {
  if (items.length === 0) return;
  makeDirectory(dirname(path));
  const fd = openSync(path, 'a+', 0o600);
  try {
    const size = fstatSync(fd).size;
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    writeSync(fd, prefix + items.map((e) => JSON.stringify(e)).join('\n') + '\n');
  } finally {
    closeSync(fd);
  }
}
