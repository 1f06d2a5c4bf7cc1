/** One compiled line of a `.councilignore` (gitignore syntax). */
interface IgnoreRule {
  pattern: string;
  negated: boolean;
  regex: RegExp;
}

/** A `.councilignore`'s rules; `match` gives the pattern that decides a path (the last that matches), or null. */
export interface CouncilIgnore {
  /** The pattern (as written) that excludes `path`, or null when it is kept. `path` is relative, with `/`. */
  match(path: string): string | null;
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` any directories (or none), `/**` everything below, a lone `**` anything.
      if (glob[i + 2] === '/') {
        out += '(?:.*/)?';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) out += '\\[';
      else {
        out += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '\\' && i + 1 < glob.length) out += `\\${glob[++i]!}`;
    else out += c.replace(/[.+^${}()|\]\\]/g, '\\$&');
  }
  return out;
}

/**
 * Compiles a `.councilignore` in gitignore's syntax: `#` comments and blank lines skipped, `!` re-includes, a
 * trailing `/` matches a directory (so everything below it), a pattern with a `/` elsewhere is anchored to the
 * file's directory, one without matches at any depth; `*`, `?`, `[…]` and `**` as in git.
 */
export function parseCouncilIgnore(text: string): CouncilIgnore {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    const pattern = line;
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const body = globToRegex(line);
    const prefix = anchored ? '^' : '(?:^|/)';
    // A directory pattern matches what lies below it; a file pattern the path itself or, as a directory, below it.
    const suffix = dirOnly ? '/.*$' : '(?:/.*)?$';
    rules.push({ pattern: negated ? `!${pattern}` : pattern, negated, regex: new RegExp(`${prefix}${body}${suffix}`) });
  }
  return {
    match(path: string): string | null {
      let decided: IgnoreRule | null = null;
      for (const rule of rules) if (rule.regex.test(path)) decided = rule;
      return decided === null || decided.negated ? null : decided.pattern;
    },
  };
}

/** A `.env` file (`.env`, `.env.local`, `.env.production`), not a documented template (`.env.example`, `.sample`, `.template`, `.dist`). */
export function isDotEnvFile(path: string): boolean {
  const base = path.split('/').pop() ?? path;
  return /^\.env(?:\..+)?$/.test(base) && !/\.(?:example|sample|template|dist)$/i.test(base);
}
