// The HTML report is tested in a real browser (Debian's chromium driven by playwright-core).
// On a fresh Debian machine running as root, install it; elsewhere, say what to do.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (existsSync(chromiumPath)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    console.error(
      `Chromium was not found at ${chromiumPath}; the HTML report's browser test needs it.\n` +
        'Install Debian\'s "chromium" package (apt-get install chromium), or set CHROMIUM_PATH to a Chromium binary.',
    );
    process.exit(1);
  }
  console.error('Chromium not found; installing Debian\'s chromium package for the browser tests…');
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) {
      console.error(`"apt-get ${args.join(' ')}" failed; install chromium by hand and run again.`);
      process.exit(1);
    }
  }
}
