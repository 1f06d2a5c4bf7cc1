import type { CommandContext } from '../command-context.js';
import { safeCommandSettings } from '../command-context.js';
import { CliError } from '../cli-error.js';
import { keysFilePath, readKeysFile, writeKeysFile } from '../settings/keys-file.js';
import { PROVIDER_VARIABLES } from '../settings/provider-variables.js';

export interface KeysCommandOptions {
  action: string;
  provider: string | undefined;
  json: boolean;
}

/** The longest key read from stdin; real keys are a few hundred bytes. */
const MAX_KEY_BYTES = 16 * 1024;

function usage(message: string): CliError {
  return new CliError({ code: 'USAGE', message });
}

function providerRow(name: string | undefined) {
  const names = PROVIDER_VARIABLES.map((p) => p.provider).join(', ');
  if (name === undefined) throw usage(`Name the provider, one of ${names}: council keys set openrouter.`);
  const row = PROVIDER_VARIABLES.find((p) => p.provider === name.toLowerCase());
  if (row === undefined) throw usage(`"${name}" is not a provider Council knows; use one of ${names}.`);
  return row;
}

/**
 * Reads a key typed at a terminal without echoing it (raw mode, one line), or piped in (to its end). Never from
 * argv: a key in a command line is in the shell history and in every `ps` listing.
 */
async function readKey(ctx: CommandContext, provider: string): Promise<string> {
  if (ctx.io.stdinIsTTY === true && process.stdin.isTTY === true) {
    ctx.io.stderr(`Paste the ${provider} API key, then Enter (it is not shown): `);
    return new Promise((resolve, reject) => {
      const stdin = process.stdin;
      let text = '';
      const finish = (error?: Error) => {
        stdin.setRawMode(false);
        stdin.pause();
        stdin.off('data', onData);
        ctx.io.stderr('\n');
        if (error === undefined) resolve(text);
        else reject(error);
      };
      const onData = (chunk: Buffer) => {
        for (const char of chunk.toString('utf8')) {
          if (char === '\r' || char === '\n') return finish();
          if (char === '\u0003') return finish(usage('Cancelled: no key was saved.'));
          if (char === '\u007f' || char === '\b') text = text.slice(0, -1);
          else text += char;
        }
      };
      stdin.setRawMode(true);
      stdin.resume();
      stdin.on('data', onData);
    });
  }
  if (ctx.io.readStdin === undefined) throw usage('No standard input to read the key from: pipe the key in.');
  const bytes = await ctx.io.readStdin({ maxBytes: MAX_KEY_BYTES });
  if (bytes.length > MAX_KEY_BYTES)
    throw usage(`The key on stdin is longer than ${MAX_KEY_BYTES} bytes; nothing was saved.`);
  return bytes.toString('utf8');
}

/**
 * `council keys`: provider API keys in `<home>/keys`, so a user need not export variables. `set <provider>` reads the
 * key from stdin (never argv, never echoed) and writes the file 0600; `list` shows which providers have a key and
 * where it comes from (a variable in the environment wins over the file), never a key or part of one; `remove`
 * deletes one; `path` prints the file's path.
 */
export async function runKeysCommand(options: KeysCommandOptions, ctx: CommandContext): Promise<number> {
  const resolved = safeCommandSettings(ctx);
  // A keys file open to others makes the settings fail; this command still runs, to say so and to fix it.
  const home = resolved.success ? resolved.value.home : resolved.fallback.home;
  const path = keysFilePath(home);
  const file = readKeysFile(home);
  const s = ctx.out;
  switch (options.action) {
    case 'path':
      ctx.io.stdout(`${path}\n`);
      return 0;
    case 'set': {
      const row = providerRow(options.provider);
      if (file.status === 'refused') throw usage(file.problem);
      const key = (await readKey(ctx, row.provider)).trim();
      if (key === '') throw usage(`No key was given on stdin; nothing was saved for ${row.provider}.`);
      if (/\s/.test(key)) throw usage(`The key holds white space; give the key alone. Nothing was saved.`);
      const name = row.keyVariables[0];
      saveKeys(home, path, { ...file.keys, [name]: key });
      const shadowed = row.keyVariables.some((v) => (ctx.env[v] ?? '').trim() !== '');
      ctx.io.stderr(
        `Saved the ${row.provider} key as ${name} in ${path} (mode 0600).${shadowed ? ` Note: ${row.keyVariables.find((v) => (ctx.env[v] ?? '').trim() !== '')} is set in the environment, and it wins over the file.` : ''}\n`,
      );
      return 0;
    }
    case 'remove': {
      const row = providerRow(options.provider);
      if (file.status === 'refused') throw usage(file.problem);
      const kept = Object.fromEntries(
        Object.entries(file.keys).filter(([name]) => !(row.keyVariables as readonly string[]).includes(name)),
      );
      const removed = Object.keys(kept).length !== Object.keys(file.keys).length;
      saveKeys(home, path, kept);
      ctx.io.stderr(
        removed ? `Removed the ${row.provider} key from ${path}.\n` : `${path} holds no ${row.provider} key.\n`,
      );
      return 0;
    }
    case 'list': {
      const rows = PROVIDER_VARIABLES.map((p) => {
        const fromEnv = p.keyVariables.find((v) => (ctx.env[v] ?? '').trim() !== '');
        const fromFile = p.keyVariables.find((v) => file.keys[v] !== undefined);
        const source: 'environment' | 'keys file' | null =
          fromEnv !== undefined ? 'environment' : fromFile !== undefined ? 'keys file' : null;
        return {
          provider: p.provider,
          key: source !== null,
          source,
          variable: fromEnv ?? fromFile ?? null,
          required: p.keyRequired,
        };
      });
      if (options.json) {
        ctx.io.stdout(
          `${JSON.stringify({ keysFile: path, keysFileStatus: file.status, ...(file.status === 'refused' ? { problem: file.problem } : {}), providers: rows }, null, 2)}\n`,
        );
        return file.status === 'refused' ? 1 : 0;
      }
      const lines = rows.map(
        (r) =>
          `  ${r.provider.padEnd(10)} ${
            r.source === null
              ? s.dim(r.required ? 'no key' : 'no key (a local server needs none unless started with one)')
              : `key set (${r.variable}, from the ${r.source})`
          }`,
      );
      ctx.io.stdout(
        [
          `Provider keys (never printed). Keys file: ${path}${file.status === 'absent' ? ' (none yet)' : ''}`,
          ...lines,
          '',
          'Set one with: council keys set <provider> (reads the key from stdin). A variable in the environment wins over the file.',
          '',
        ].join('\n'),
      );
      if (file.status === 'refused') {
        ctx.io.stderr(`${file.problem}\n`);
        return 1;
      }
      return 0;
    }
    default:
      throw usage(
        `Unknown keys action "${options.action}": use "council keys list", "council keys set <provider>", "council keys remove <provider>" or "council keys path".`,
      );
  }
}

/** `writeKeysFile`, its failure said as what happened to the file: nothing changed (the old file stays whole). */
function saveKeys(home: string, path: string, keys: Readonly<Record<string, string>>): void {
  try {
    writeKeysFile(home, keys);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'an error';
    throw new CliError({
      code: 'RUNTIME',
      message: `Could not write ${path} (${code}): nothing was changed, the keys file is as it was. Free some space or check the home's permissions, then run the command again.`,
      cause: error,
    });
  }
}
