/** The keys of `T` whose value may be `undefined` (optional ones included). */
type UndefinedKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/** `T` with every key that may be `undefined` made optional and its `undefined` removed: what `omitUndefined` returns. */
export type OmitUndefined<T> = { [K in Exclude<keyof T, UndefinedKeys<T>>]: T[K] } & {
  [K in UndefinedKeys<T>]?: Exclude<T[K], undefined>;
};

/**
 * `object` without its `undefined`-valued keys (a new object, keys in their order; `null`, `0`, `''` and `false`
 * stay), so `{ ...omitUndefined({ seed: options.seed }) }` has a `seed` key exactly when `options.seed` is set:
 * the short form of `...(options.seed === undefined ? {} : { seed: options.seed })`.
 */
export function omitUndefined<T extends object>(object: T): OmitUndefined<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) out[key] = value;
  return out as OmitUndefined<T>;
}
