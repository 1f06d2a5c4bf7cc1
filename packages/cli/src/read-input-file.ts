import { readFileSync } from 'node:fs';
import { CliError } from './cli-error.js';

/**
 * A file the user named, as UTF-8 text; one it cannot read is a usage error naming it and the system's reason
 * (`Cannot read the prompts file p.jsonl (ENOENT). Check the path.`), `what` being what the command calls it.
 */
export function readInputFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError({
      code: 'USAGE',
      message: `Cannot read the ${what} ${path} (${code ?? 'error'}). Check the path.`,
      cause: error,
    });
  }
}
