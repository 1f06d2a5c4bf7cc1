/**
 * Joins a negative number to the flag before it (`--timeout -5s` → `--timeout=-5s`) when that flag takes a value,
 * so the flag's own check can say what is wrong with it; the parser would otherwise read `-5s` as short flags and
 * answer "Unknown option `-5`". A lone `-` (stdin, as in `--evidence -`) is joined the same way: the parser would
 * otherwise drop it and say the value is missing. `valueFlags` holds the long names (without `--`) that take a value.
 */
export function joinNegativeValues(argv: readonly string[], valueFlags: ReadonlySet<string>): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    const next = argv[i + 1];
    const name = /^--([^=]+)$/.exec(token)?.[1];
    if (name !== undefined && valueFlags.has(name) && next !== undefined && (/^-\d/.test(next) || next === '-')) {
      joined.push(`${token}=${next}`);
      i++;
    } else {
      joined.push(token);
    }
  }
  return joined;
}

/** The long names (without `--`) of the flags in cac notation that take a value (`--timeout <duration>`). */
export function valueFlagNames(flags: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const flag of flags) {
    const match = /^--([\w-]+)\s+[<[]/.exec(flag);
    if (match) names.add(match[1]!);
  }
  return names;
}

/** Edit distance of two short words (insertions, deletions, substitutions and swaps of neighbours). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate closest to `word`, if it is near enough to be a slip (`--model` for `--models`, `dmeo` for `demo`):
 * at most 1 edit for words of up to 4 letters, 2 for longer ones. Ties go to the first candidate.
 */
export function closestName(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(word.toLowerCase(), name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined) return undefined;
  const limit = word.length <= 4 ? 1 : 2;
  return best.distance <= limit ? best.name : undefined;
}
