import { performance } from 'node:perf_hooks';
import type { BenchSuite } from './bench-suite.js';

export interface BenchRow {
  suite: string;
  name: string;
  /** Median time in ms, or the measured value. */
  median: number;
  unit: string;
  samples: number;
  /** median / baseline median, or median / budget. */
  ratio?: number;
  ratioTo?: string;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function runSuite(suite: BenchSuite): Promise<BenchRow[]> {
  await suite.setup?.();
  try {
    const cases = suite.cases ?? [];
    const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    for (const c of cases) await c.fn(); // warm-up
    const rounds = Math.max(0, ...cases.map((c) => c.iterations ?? 7));
    for (let round = 0; round < rounds; round++) {
      for (const c of cases) {
        if (round >= (c.iterations ?? 7)) continue;
        const start = performance.now();
        await c.fn();
        samples.get(c.name)!.push(performance.now() - start);
      }
    }
    const medians = new Map(cases.map((c) => [c.name, median(samples.get(c.name)!)]));
    const rows: BenchRow[] = cases.map((c) => {
      const m = medians.get(c.name)!;
      const row: BenchRow = {
        suite: suite.name,
        name: c.name,
        median: m,
        unit: 'ms',
        samples: samples.get(c.name)!.length,
      };
      const base = c.baseline === undefined ? undefined : medians.get(c.baseline);
      if (c.baseline !== undefined && base === undefined)
        throw new Error(
          `Benchmark "${c.name}" names baseline "${c.baseline}", which is not a case of suite "${suite.name}".`,
        );
      if (base !== undefined) Object.assign(row, { ratio: m / base, ratioTo: c.baseline });
      else if (c.budgetMs !== undefined)
        Object.assign(row, { ratio: m / c.budgetMs, ratioTo: `budget ${c.budgetMs} ms` });
      return row;
    });
    for (const v of (await suite.values?.()) ?? []) {
      const row: BenchRow = { suite: suite.name, name: v.name, median: v.value, unit: v.unit, samples: 1 };
      if (v.budget !== undefined)
        Object.assign(row, { ratio: v.value / v.budget, ratioTo: `budget ${v.budget} ${v.unit}` });
      rows.push(row);
    }
    return rows;
  } finally {
    await suite.teardown?.();
  }
}
