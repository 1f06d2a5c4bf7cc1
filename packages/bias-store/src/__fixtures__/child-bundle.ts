import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles the package's source (with zod) into one ES module that plain `node` child processes can
 * import quickly, and writes each named script beside it. The directory is world-readable so a
 * child may run as another user. Returns the directory. `entry` replaces `child-entry.ts`, e.g. to run
 * a test against an older copy of the package.
 */
export async function bundleForChildren(
  scripts: Record<string, string>,
  options: { entry?: string } = {},
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bias-store-children-'));
  chmodSync(dir, 0o755);
  await build({
    entryPoints: [options.entry ?? fileURLToPath(new URL('./child-entry.ts', import.meta.url))],
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
