// Each published package (core, providers, cli) keeps its own copy of these few lines: none may depend on a
// private package, and a helper this small is not worth a place in another package's public API.

type UndefinedKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/** `T` with every key that may be `undefined` made optional and its `undefined` removed: what `omitUndefined` returns. */
export type OmitUndefined<T> = { [K in Exclude<keyof T, UndefinedKeys<T>>]: T[K] } & {
  [K in UndefinedKeys<T>]?: Exclude<T[K], undefined>;
};

/**
 * `object` without its `undefined`-valued keys (a new object, keys in their order; `null`, `0`, `''` and `false`
 * stay), so spreading `omitUndefined({ seed: options.seed })` adds a `seed` key exactly when `options.seed` is set
 * and leaves a callee's defaults (and its `'key' in options` checks) alone: the short form of
 * `...(options.seed === undefined ? {} : { seed: options.seed })`.
 */
export function omitUndefined<T extends object>(object: T): OmitUndefined<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as OmitUndefined<T>;
}
