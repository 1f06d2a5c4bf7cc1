// Makes sure the pinned pnpm is on PATH and the workspace is installed, so that `npm start` and
// `npm test` work on a machine that has only Node 20 and npm.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const rootPackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const wanted = String(rootPackage.packageManager).replace(/^pnpm@/, '');

function pnpmVersion() {
  try {
    return execFileSync('pnpm', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** Runs a command with inherited output and exits this process with its code if it fails. */
export function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.error) {
    console.error(`Could not start ${command}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
}

export function ensurePnpmAndInstall() {
  const found = pnpmVersion();
  if (found !== wanted) {
    console.error(
      found
        ? `pnpm ${found} found; installing pnpm@${wanted} with npm…`
        : `pnpm not found; installing pnpm@${wanted} with npm…`,
    );
    run('npm', ['install', '--global', `pnpm@${wanted}`]);
    if (pnpmVersion() !== wanted) {
      console.error(
        `pnpm@${wanted} is still not on PATH after "npm install --global". Add npm's global bin folder (npm prefix -g) to PATH and run again.`,
      );
      process.exit(1);
    }
  }
  run('pnpm', ['install', '--frozen-lockfile']);
}
