import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repositoryRoot: string = fileURLToPath(new URL('../../../', import.meta.url));

export interface ReleaseCheckRun {
  status: number | null;
  /** stdout then stderr: the check prints one `ok`/`FAIL` line per step, and its detail lines indented. */
  output: string;
}

/** Runs `node scripts/release-check.mjs` with these arguments, as `pnpm release:check` does. */
export function runReleaseCheck(args: readonly string[]): ReleaseCheckRun {
  const result = spawnSync(process.execPath, [join(repositoryRoot, 'scripts/release-check.mjs'), ...args], {
    cwd: repositoryRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The names of the packages and apps a release packs (`packages/*`, `apps/*`), read from their manifests. */
export function releasedPackageNames(): string[] {
  return ['packages', 'apps'].flatMap((folder) =>
    readdirSync(join(repositoryRoot, folder))
      .map((name) => join(repositoryRoot, folder, name, 'package.json'))
      .filter((path) => existsSync(path))
      .map((path) => (JSON.parse(readFileSync(path, 'utf8')) as { name: string }).name),
  );
}

/** A copy of the repository as the check copies it (with the builds), for a test to break on purpose. */
export function copyRepository(to: string): void {
  const skipped = new Set(['node_modules', '.git', '.turbo', 'coverage', 'test-artifacts']);
  cpSync(repositoryRoot, to, { recursive: true, filter: (path) => !skipped.has(basename(path)) });
}
