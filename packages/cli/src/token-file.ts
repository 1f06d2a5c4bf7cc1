import { readFileSync } from 'node:fs';
import { CliError } from './cli-error.js';

/**
 * The token held in a file (`--token-file`), so a secret need not appear in a command line (`ps`, shell history).
 * The file's surrounding whitespace is no part of the token (`echo` ends it with a newline). A missing, unreadable
 * or empty file is a usage error naming the file; the token is never shown. The caller checks the token itself
 * (`checkedServerToken`: visible ASCII, 32+ characters off loopback).
 */
export function readTokenFile(path: string): { token: string; source: string } {
  const usage = (message: string) => new CliError({ code: 'USAGE', message });
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'is not readable by you'
            : `cannot be read (${code})`;
    throw usage(
      `--token-file ${path} ${why}: give a readable file holding the token (e.g. one written by \`openssl rand -base64 32 > token\`).`,
    );
  }
  const token = text.trim();
  if (token === '')
    throw usage(`--token-file ${path} is empty: write the token into it (e.g. \`openssl rand -base64 32 > ${path}\`).`);
  return { token, source: `--token-file ${path}` };
}
