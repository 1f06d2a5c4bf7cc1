/**
 * The value of `--name` exactly as typed: the parser (mri) turns number-like values into numbers, so
 * `--token 0123456789` would lose its leading zero and `--host 0x7f000001` become 2130706433.
 */
export function typedOptionValue(argv: readonly string[], name: string, parsed: unknown): unknown {
  if (typeof parsed !== 'number') return parsed;
  let value: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === `--${name}`) value = argv[i + 1];
    else if (arg.startsWith(`--${name}=`)) value = arg.slice(name.length + 3);
  });
  return value ?? parsed;
}
