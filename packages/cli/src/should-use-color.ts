/**
 * Colours follow the usual conventions: off when `NO_COLOR` is set to anything non-empty
 * (no-color.org), when `TERM=dumb`, or when the stream is not a terminal; `FORCE_COLOR` (non-empty,
 * not `0`) turns them on for a non-terminal. `NO_COLOR` wins over `FORCE_COLOR`.
 */
export function shouldUseColor(options: {
  isTTY: boolean;
  env: Readonly<Record<string, string | undefined>>;
}): boolean {
  const { env } = options;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (env['TERM'] === 'dumb') return false;
  return options.isTTY;
}
