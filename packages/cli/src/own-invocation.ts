import { realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** How the user can run this `council` executable again, for the commands a hint prints. */
export interface OwnInvocation {
  /** `council` when that name on PATH is this executable; else `node <its path>`, which works from anywhere. */
  command: string;
  /** Whether `council` on PATH is this executable. */
  onPath: boolean;
  /** The app's directory (`apps/cli`, above `dist/council.js`): what `npm install --global <dir>` puts on PATH. */
  packageDir: string;
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** A path as one shell word: quoted only when it needs to be. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * How this executable (`executable`, the bundle's own file) can be run again: by its name when a `council` on `path`
 * (PATH) resolves, through any links (`npm install --global`, `npm link`), to the same file; else as
 * `node <executable>`. A hint printed with it works as printed, on the PATH or not.
 */
export function ownInvocation(options: { executable: string; path: string | undefined }): OwnInvocation {
  const self = realpathOrNull(options.executable) ?? options.executable;
  const packageDir = dirname(dirname(self));
  const names = process.platform === 'win32' ? ['council.cmd', 'council'] : ['council'];
  for (const dir of (options.path ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      const found = realpathOrNull(join(dir, name));
      // npm's Windows shim is a .cmd file, not a link: trust a shim in a directory npm writes them to.
      if (found === self || (name === 'council.cmd' && found !== null))
        return { command: 'council', onPath: true, packageDir };
    }
  }
  return { command: `node ${shellWord(self)}`, onPath: false, packageDir };
}
