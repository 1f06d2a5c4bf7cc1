import { describe, expect, it } from 'vitest';
import { isDotEnvFile, parseCouncilIgnore } from './councilignore.js';

describe('parseCouncilIgnore', () => {
  const ignore = parseCouncilIgnore(
    ['# secrets and noise', '*.pem', 'secrets/', '/build', 'docs/**/*.png', '!keep.pem', 'logs/*.log', ''].join('\n'),
  );

  it('matches like gitignore and names the deciding pattern', () => {
    expect(ignore.match('server.pem')).toBe('*.pem');
    expect(ignore.match('deploy/certs/server.pem')).toBe('*.pem');
    expect(ignore.match('secrets/prod/db.txt')).toBe('secrets/');
    expect(ignore.match('app/secrets/a.txt')).toBe('secrets/');
    expect(ignore.match('build/out.js')).toBe('/build');
    expect(ignore.match('src/build/out.js')).toBeNull();
    expect(ignore.match('docs/a/b/shot.png')).toBe('docs/**/*.png');
    expect(ignore.match('docs/shot.png')).toBe('docs/**/*.png');
    expect(ignore.match('logs/app.log')).toBe('logs/*.log');
    expect(ignore.match('logs/old/app.log')).toBeNull();
  });

  it('lets a later ! pattern re-include a file', () => {
    expect(ignore.match('keep.pem')).toBeNull();
  });

  it('keeps a file that is a prefix of a directory pattern', () => {
    expect(ignore.match('secrets')).toBeNull();
    expect(ignore.match('secrets.md')).toBeNull();
  });
});

describe('isDotEnvFile', () => {
  it('is true for .env files and false for their documented templates', () => {
    expect(['.env', 'app/.env.local', '.env.production'].map(isDotEnvFile)).toEqual([true, true, true]);
    expect(['.env.example', 'config/.env.sample', 'env.ts', '.environment'].map(isDotEnvFile)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
