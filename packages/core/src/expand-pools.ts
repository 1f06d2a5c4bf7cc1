import { CouncilError } from './council-error.js';

/** Levenshtein distance, for "did you mean" on a mistyped pool name. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[b.length]!;
}

function unknownPool(options: {
  name: string;
  pools: Readonly<Record<string, readonly string[]>>;
  source: string;
}): CouncilError {
  const names = Object.keys(options.pools).sort();
  const near = names
    .filter((n) => distance(n.toLowerCase(), options.name.toLowerCase()) <= 2)
    .sort((a, b) => distance(a, options.name) - distance(b, options.name))[0];
  const defined = names.length === 0 ? 'no pools are defined' : `the pools are ${names.map((n) => `@${n}`).join(', ')}`;
  return new CouncilError({
    code: 'UNKNOWN_POOL',
    message: `Unknown model pool "@${options.name}" in ${options.source}: ${defined}${near === undefined ? '' : ` (did you mean @${near}?)`}. Define it under pools: in config.yaml, e.g. pools: { ${options.name}: [model-a, model-b] }.`,
  });
}

/**
 * Replaces each `@name` in a list of member ids with the models of the configuration's pool of that name (in
 * order; an id named twice is kept once), leaving other ids as they are: `--models @deep`, `--models @quick,x/y`,
 * or `@deep` in `members`. Throws `UNKNOWN_POOL` naming the pool, `source` (e.g. "--models") and the pools defined.
 */
export function expandPools(
  ids: readonly string[],
  options: { pools: Readonly<Record<string, readonly string[]>>; source: string },
): string[] {
  const out: string[] = [];
  for (const id of ids) {
    if (!id.startsWith('@')) {
      if (!out.includes(id)) out.push(id);
      continue;
    }
    const pool = Object.hasOwn(options.pools, id.slice(1)) ? options.pools[id.slice(1)] : undefined;
    if (pool === undefined) throw unknownPool({ name: id.slice(1), pools: options.pools, source: options.source });
    for (const member of pool) if (!out.includes(member)) out.push(member);
  }
  return out;
}
