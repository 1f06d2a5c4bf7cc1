/** The keys of `T` whose value may be `undefined`. */
type UndefinedKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/** `T` with every key that may be `undefined` made optional and its value defined when present. */
export type OmitUndefined<T> = {
  [K in keyof T as K extends UndefinedKeys<T> ? never : K]: T[K];
} & {
  [K in keyof T as K extends UndefinedKeys<T> ? K : never]?: Exclude<T[K], undefined>;
};

/**
 * `values` without its undefined-valued keys: `omitUndefined({ now: options.now, seed })` has `now` only when
 * `options.now` is defined, and `seed` only when `seed` is, so spreading it leaves a callee's defaults (and its
 * `'key' in options` checks) alone, as `...(x === undefined ? {} : { x })` does one key at a time. `null`, `0`, `''`
 * and `false` are kept; the keys keep their order.
 */
export function omitUndefined<T extends object>(values: T): OmitUndefined<T> {
  const defined: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) defined[key] = value;
  }
  return defined as OmitUndefined<T>;
}
