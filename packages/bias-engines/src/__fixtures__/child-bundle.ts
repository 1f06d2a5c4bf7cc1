import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles `entry` (with everything it imports) into one ES module, `bias-store.mjs`, that plain `node` child
 * processes can import quickly, and writes each named script beside it. Returns the directory.
 */
export async function bundleForChildren(scripts: Record<string, string>, options: { entry: string }): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bias-engines-children-'));
  chmodSync(dir, 0o755);
  await build({
    entryPoints: [options.entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: join(dir, 'bias-store.mjs'),
    logLevel: 'silent',
  });
  chmodSync(join(dir, 'bias-store.mjs'), 0o644);
  for (const [name, source] of Object.entries(scripts)) writeFileSync(join(dir, name), source, { mode: 0o644 });
  return dir;
}
