import { CliError } from './cli-error.js';
import { readInputFile } from './read-input-file.js';

export interface BatchPrompt {
  /** The `id` field of a JSONL line, else `line-<n>`: what `--resume` matches on. */
  id: string;
  prompt: string;
  line: number;
}

/**
 * Reads a prompts file: `.jsonl` (one `{"prompt": "…", "id"?: "…"}` per line; `question` or `query`
 * are accepted for `prompt`) or plain text (one prompt per non-empty line; lines starting with `#` are
 * comments). A bad line is an error naming the file and line (never quoting it), never silently skipped.
 */
export function readPromptsFile(path: string): BatchPrompt[] {
  const text = readInputFile(path, 'prompts file');
  const jsonl = path.endsWith('.jsonl') || path.endsWith('.ndjson');
  const prompts: BatchPrompt[] = [];
  // Each id and the line it was first given on.
  const ids = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || (!jsonl && trimmed.startsWith('#'))) return;
    let prompt: string;
    let id = `line-${line}`;
    if (jsonl) {
      let value: unknown;
      try {
        value = JSON.parse(trimmed);
      } catch {
        throw new CliError({
          code: 'USAGE',
          message: `${path}:${line} is not valid JSON. Each line must be {"prompt": "…"} (or use a .txt file with one prompt per line).`,
        });
      }
      const obj = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
      const p = obj['prompt'] ?? obj['question'] ?? obj['query'];
      if (typeof p !== 'string' || p.trim() === '')
        throw new CliError({
          code: 'USAGE',
          message: `${path}:${line} has no "prompt" string. Each line must be {"prompt": "…"}.`,
        });
      prompt = p;
      if (obj['id'] !== undefined) {
        if (typeof obj['id'] !== 'string' && typeof obj['id'] !== 'number')
          throw new CliError({ code: 'USAGE', message: `${path}:${line}: "id" must be a string or a number.` });
        id = String(obj['id']);
      }
    } else {
      prompt = trimmed;
    }
    const first = ids.get(id);
    if (first !== undefined) {
      // The file's text is never quoted (it may not be a prompts file at all): an id only when it is a plain name.
      const named = /^[A-Za-z0-9_.-]{1,64}$/.test(id) ? `the id "${id}"` : 'the id of this line';
      throw new CliError({
        code: 'USAGE',
        message: `${path}:${line}: ${named} is already used on line ${first}; ids must be unique for --resume.`,
      });
    }
    ids.set(id, line);
    prompts.push({ id, prompt, line });
  });
  if (prompts.length === 0)
    throw new CliError({
      code: 'USAGE',
      message: `${path} holds no prompts. Write one per line (or {"prompt": "…"} per line in .jsonl).`,
    });
  return prompts;
}
