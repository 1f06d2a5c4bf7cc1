// Coverage of council eval's 95% intervals on simulated datasets with known truth (seeded): a share of items
// (Wilson's interval), Cohen's κ (Wilson's interval for the agreement, mapped to κ and rescaled to Fleiss, Cohen &
// Everitt's standard error) and the council-versus-best-member difference (the least of the members' Agresti–Min
// paired intervals, the upper end's critical value raised over the members that could be best), each beside the
// interval it replaced. The figures the CLI README states come from this study at scale 1
// (`pnpm --filter @council/cli study:eval-intervals`); eval-interval-coverage.slow.test.ts runs it at a fifth.
import { cohenKappa, createRng, itemBootstrap } from '@council/scoring';
import { wilsonInterval } from '@council/bias-audit';
import { kappaFigure } from './compute-eval-report.js';
import { councilVsBestInterval } from './compute-eval-report-vs-best.js';

/** `pass`/`FAIL`: whether the rate lies in the target; with `?` when its 95% interval reaches across the target's edge. */
export type CoverageVerdict = 'pass' | 'pass?' | 'FAIL' | 'FAIL?';

/** One row of the study: how often one interval method covered the truth on one shape of dataset. */
export interface CoverageRow {
  part: 'share' | 'kappa' | 'vs-best';
  /** The shape (and sample size) simulated. */
  name: string;
  /** The interval council eval reports, or one it replaced (kept beside it to show what it missed). */
  method: string;
  replaced: boolean;
  /** Datasets whose interval covered the truth, of `runs` datasets that had an interval. */
  hits: number;
  runs: number;
  /** hits / runs, with its Wilson 95% interval (fractions). */
  rate: number;
  lower: number;
  upper: number;
  /**
   * The band the row is held to: 93.5–96.5%, or up to the cap the README states for a row known to over-cover. A
   * replaced method's row is held to the plain band: its verdict is expected to be FAIL where the README says so.
   */
  target: { min: number; max: number };
  verdict: CoverageVerdict;
  /** Why the row's target differs from the plain band, or what the replaced method did; empty otherwise. */
  detail: string;
}

/** The coverage band for every 95% interval. */
export const COVERAGE_TARGET: { min: number; max: number } = { min: 0.935, max: 0.965 };

/** How many of the full study's runs a row makes: `scale` of them, at least 200 datasets. */
export interface CoverageStudyOptions {
  /** 1 (the default) is the full study, the README's figures; the short slow test runs 0.2. */
  scale?: number;
}

/** The rate against its target, the way issue 29's study reads it: `?` where the interval reaches across an edge. */
export function coverageVerdict(spec: {
  rate: number;
  lower: number;
  upper: number;
  target: { min: number; max: number };
}): CoverageVerdict {
  const { rate, lower, upper, target } = spec;
  const pass = rate >= target.min && rate <= target.max;
  const certain = pass ? lower >= target.min && upper <= target.max : upper < target.min || lower > target.max;
  return `${pass ? 'pass' : 'FAIL'}${certain ? '' : '?'}`;
}

function row(spec: {
  part: CoverageRow['part'];
  name: string;
  method: string;
  replaced?: boolean;
  hits: number;
  runs: number;
  max?: number;
  detail?: string;
}): CoverageRow {
  const { hits, runs } = spec;
  const w = wilsonInterval(hits, runs);
  const rate = hits / runs;
  const target = { min: COVERAGE_TARGET.min, max: spec.max ?? COVERAGE_TARGET.max };
  return {
    part: spec.part,
    name: spec.name,
    method: spec.method,
    replaced: spec.replaced ?? false,
    hits,
    runs,
    rate,
    lower: w.lower,
    upper: w.upper,
    target,
    verdict: coverageVerdict({ rate, lower: w.lower, upper: w.upper, target }),
    detail: spec.detail ?? '',
  };
}

/** A row's number of datasets at `scale`: the full study's count, or its share at a smaller scale (at least 200). */
function runsAt(full: number, options: CoverageStudyOptions): number {
  const scale = options.scale ?? 1;
  return scale === 1 ? full : Math.max(200, Math.round(full * scale));
}

/**
 * A share of items: Wilson's interval at 19 items (50% and 85% correct) and 50 items (90%), 2,000 datasets each;
 * and at 19 items with 95% correct, Wilson beside the percentile bootstrap it replaced (400 resamples).
 */
export function shareCoverageRows(options: CoverageStudyOptions = {}): CoverageRow[] {
  const rng = createRng(7);
  const rows: CoverageRow[] = [];
  const runs = runsAt(2000, options);
  for (const [n, p] of [
    [19, 0.5],
    [19, 0.85],
    [50, 0.9],
  ] as const) {
    let hits = 0;
    for (let r = 0; r < runs; r++) {
      let count = 0;
      for (let i = 0; i < n; i++) if (rng.next() < p) count++;
      const w = wilsonInterval(count, n);
      if (w.lower <= p && p <= w.upper) hits++;
    }
    rows.push(
      row({ part: 'share', name: `${n} items, ${Math.round(100 * p)}% correct`, method: 'Wilson', hits, runs }),
    );
  }
  // The percentile bootstrap of the same share near 100%: what Wilson replaced (19 items, 95% correct).
  let bootHits = 0;
  let wilsonHits = 0;
  for (let r = 0; r < runs; r++) {
    const values = Array.from({ length: 19 }, () => (rng.next() < 0.95 ? 1 : 0));
    const count = values.reduce<number>((a, b) => a + b, 0);
    const boot = itemBootstrap(19, (ix) => ix.reduce((s, i) => s + values[i]!, 0) / 19, { bootstrap: 400, seed: r });
    if (boot.interval!.lower <= 0.95 && 0.95 <= boot.interval!.upper) bootHits++;
    const w = wilsonInterval(count, 19);
    if (w.lower <= 0.95 && 0.95 <= w.upper) wilsonHits++;
  }
  const name = '19 items, 95% correct';
  rows.push(row({ part: 'share', name, method: 'Wilson', hits: wilsonHits, runs }));
  rows.push(
    row({
      part: 'share',
      name,
      method: 'percentile bootstrap',
      replaced: true,
      hits: bootHits,
      runs,
      detail: 'replaced: runs narrow near 100%',
    }),
  );
  return rows;
}

/** The κ row the README states over-covers (at 20 pairs, low κ, the raters' shares different), and its cap. */
export const KAPPA_OVER_COVERING: { name: string; max: number } = {
  name: '45/45/10 against 30/30/40, κ 0.17, 20 pairs',
  max: 0.985,
};

/**
 * Cohen's κ: three shapes of the raters' shares × true κ 0.2, 0.5, 0.8 × 20, 50 and 100 pairs, 2,000 datasets each;
 * every row also with Wilson's agreement interval mapped to κ alone (replaced), and at 20 pairs of 45/45/10 the
 * percentile bootstrap over pairs (replaced before that, 400 resamples).
 */
export function kappaCoverageRows(options: CoverageStudyOptions = {}): CoverageRow[] {
  // Rater b copies rater a with probability q, else draws from its own shares. With both raters' shares 45/45/10
  // (first, second, tie) population κ = q exactly; the second shape gives b other shares (30/30/40), and the third a
  // dominant category (70/20/10), where Cohen's mapped interval alone, holding the shares fixed, runs wide.
  const shapes = [
    { name: '45/45/10', a: [0.45, 0.45, 0.1], b: [0.45, 0.45, 0.1] },
    { name: '45/45/10 against 30/30/40', a: [0.45, 0.45, 0.1], b: [0.3, 0.3, 0.4] },
    { name: '70/20/10', a: [0.7, 0.2, 0.1], b: [0.7, 0.2, 0.1] },
  ];
  const rows: CoverageRow[] = [];
  const datasets = runsAt(2000, options);
  for (const shape of shapes) {
    const rng = createRng(`kappa:${shape.name}`);
    const drawFrom = (shares: readonly number[]) => () => {
      const u = rng.next();
      return u < shares[0]! ? 0 : u < shares[0]! + shares[1]! ? 1 : ('tie' as const);
    };
    const drawA = drawFrom(shape.a);
    const drawB = drawFrom(shape.b);
    for (const q of [0.2, 0.5, 0.8]) {
      // Population κ: p_o = q + (1 − q)·Σ a_k b_k; b's shares are q·a + (1 − q)·b.
      const chance = shape.a.reduce((s, x, k) => s + x * shape.b[k]!, 0);
      const po = q + (1 - q) * chance;
      const pe = shape.a.reduce((s, x, k) => s + x * (q * x + (1 - q) * shape.b[k]!), 0);
      const truth = (po - pe) / (1 - pe);
      for (const n of [20, 50, 100]) {
        let hits = 0;
        let mappedHits = 0;
        let runs = 0;
        let bootHits = 0;
        let bootRuns = 0;
        const withBootstrap = shape.name === '45/45/10' && n === 20;
        for (let r = 0; r < datasets; r++) {
          const a = Array.from({ length: n }, drawA);
          const b = a.map((x) => (rng.next() < q ? x : drawB()));
          const { interval } = kappaFigure(a, b, [0, 1, 'tie']);
          if (interval !== null) {
            runs++;
            if (interval.lower <= truth && truth <= interval.upper) hits++;
            // What it rescales: Wilson's interval for the agreement mapped to κ at the observed p_e (Cohen 1960).
            const { expected } = cohenKappa(a, b, { categories: [0, 1, 'tie'] });
            const w = wilsonInterval(a.filter((x, i) => x === b[i]).length, n);
            const toKappa = (po: number) => Math.max(-1, (po - expected) / (1 - expected));
            if (toKappa(w.lower) <= truth && truth <= toKappa(w.upper)) mappedHits++;
          }
          if (!withBootstrap) continue;
          // What it replaced: the percentile bootstrap over pairs.
          const boot = itemBootstrap(
            n,
            (ix) =>
              cohenKappa(
                ix.map((i) => a[i]!),
                ix.map((i) => b[i]!),
                { categories: [0, 1, 'tie'] },
              ).kappa,
            { bootstrap: 400, seed: r },
          );
          if (boot.interval === null) continue;
          bootRuns++;
          if (boot.interval.lower <= truth && truth <= boot.interval.upper) bootHits++;
        }
        const name = `${shape.name}, κ ${truth.toFixed(2)}, ${n} pairs`;
        const overCovering = name === KAPPA_OVER_COVERING.name;
        rows.push(
          row({
            part: 'kappa',
            name,
            method: 'mapped Wilson, rescaled to FCE',
            hits,
            runs,
            ...(overCovering
              ? { max: KAPPA_OVER_COVERING.max, detail: 'over-covers at low κ, 20 pairs, unequal shares (README)' }
              : {}),
          }),
        );
        rows.push(row({ part: 'kappa', name, method: 'mapped Wilson alone', replaced: true, hits: mappedHits, runs }));
        if (withBootstrap)
          rows.push(
            row({
              part: 'kappa',
              name,
              method: 'percentile bootstrap',
              replaced: true,
              hits: bootHits,
              runs: bootRuns,
              detail: 'replaced before the mapped interval',
            }),
          );
      }
    }
  }
  return rows;
}

/**
 * The council-versus-best rows the README states run a little wide by design, and their cap: a leader at 20 items,
 * where one member's Agresti–Min interval is itself a little wide (few items differ), and a 10-point lead, where the
 * second member, 1–1.5 standard errors behind, is usually counted among those that could be best while its lower end
 * seldom misses.
 */
export const VS_BEST_WIDE_BY_DESIGN: { pattern: RegExp; max: number } = {
  pattern: /^20 items.*a leader|a leader by 10 points/,
  max: 0.975,
};

/**
 * The council's synthesis (75% right) against its best member: seven shapes of members × 20, 50 and 100 items ×
 * members independent or right and wrong together on half the items; 2,000 datasets at 20 items, 1,000 above, 1,000
 * multiplier draws each. At 50 independent items with two members within 2 points, also the percentile bootstrap with
 * the best chosen again in each resample (replaced, 400 resamples).
 */
export function vsBestCoverageRows(options: CoverageStudyOptions = {}): CoverageRow[] {
  const council = 0.75;
  // A clear leader (20 points: the other members are left out of the critical value), leads of 10 and 5 points
  // (the second member about 0.35–1.5 standard errors behind, usually counted among those that could be best: where
  // an end tuned to near-equals can run narrow), near-equals, and one member far worse than the rest.
  const shapes = [
    { name: 'a leader by 20 points', members: [0.7, 0.5, 0.5] },
    { name: 'a leader by 10 points', members: [0.7, 0.6, 0.5] },
    { name: 'a leader by 5 points', members: [0.7, 0.65, 0.5] },
    { name: 'two within 2 points', members: [0.7, 0.68, 0.5] },
    { name: 'two tied', members: [0.7, 0.7, 0.5] },
    { name: 'two tied, one far worse', members: [0.7, 0.7, 0.2] },
    { name: 'three within 2 points', members: [0.7, 0.69, 0.68] },
  ];
  const rows: CoverageRow[] = [];
  // `shared`: the share of items whose difficulty everyone shares (one draw decides every answer, each against its
  // own rate), so the synthesis and the members are right and wrong together, as on real councils; else independent.
  for (const shared of [0, 0.5])
    for (const n of [20, 50, 100])
      for (const shape of shapes) {
        const rng = createRng(`vs-best:${shape.name}:${n}:${shared}`);
        const truth = council - Math.max(...shape.members);
        const runs = runsAt(n === 20 ? 2000 : 1000, options); // the smallest samples vary most: twice the runs
        let hits = 0;
        let bootHits = 0;
        const withBootstrap = shared === 0 && n === 50 && shape.name === 'two within 2 points';
        for (let r = 0; r < runs; r++) {
          const synthesis: number[] = [];
          const answers: number[][] = shape.members.map(() => []);
          for (let i = 0; i < n; i++) {
            const common = rng.next() < shared ? rng.next() : null;
            synthesis.push((common ?? rng.next()) < council ? 1 : 0);
            shape.members.forEach((p, m) => answers[m]!.push((common ?? rng.next()) < p ? 1 : 0));
          }
          const interval = councilVsBestInterval(synthesis, answers, { draws: 1000, seed: r });
          if (interval.lower <= truth && truth <= interval.upper) hits++;
          if (!withBootstrap) continue;
          // What it replaced: the percentile bootstrap of the difference, the best chosen again in each resample.
          const rate = (v: number[], ix: readonly number[]) => ix.reduce((s, i) => s + v[i]!, 0) / ix.length;
          const boot = itemBootstrap(n, (ix) => rate(synthesis, ix) - Math.max(...answers.map((v) => rate(v, ix))), {
            bootstrap: 400,
            seed: r,
          });
          if (boot.interval!.lower <= truth && truth <= boot.interval!.upper) bootHits++;
        }
        const name = `${n} items${shared > 0 ? ', shared difficulty' : ''}: ${shape.name} (${shape.members.join('/')})`;
        const wide = VS_BEST_WIDE_BY_DESIGN.pattern.test(name);
        rows.push(
          row({
            part: 'vs-best',
            name,
            method: 'Agresti–Min, upper end raised',
            hits,
            runs,
            ...(wide ? { max: VS_BEST_WIDE_BY_DESIGN.max, detail: 'a little wide by design (README)' } : {}),
          }),
        );
        if (withBootstrap)
          rows.push(
            row({
              part: 'vs-best',
              name,
              method: 'percentile bootstrap, best re-chosen',
              replaced: true,
              hits: bootHits,
              runs,
              detail: 'replaced: runs narrow',
            }),
          );
      }
  return rows;
}

/** The study's three parts, by the name `--part` takes. */
export const COVERAGE_STUDY_PARTS: Record<CoverageRow['part'], (options?: CoverageStudyOptions) => CoverageRow[]> = {
  share: shareCoverageRows,
  kappa: kappaCoverageRows,
  'vs-best': vsBestCoverageRows,
};

const COLUMNS = ['part', 'shape', 'interval', 'hits', 'runs', 'rate', '95% interval', 'target', 'verdict', 'detail'];

// Two decimals where the second is not 0 (2,000 runs make rates such as 96.75%), one otherwise.
const percent = (x: number): string => {
  const two = (100 * x).toFixed(2);
  return `${two.endsWith('0') ? two.slice(0, -1) : two}%`;
};
const bound = (x: number): string => (100 * x).toFixed(1);

/** The study's rows as a Markdown table, or as plain text with aligned columns. */
export function formatCoverageTable(rows: readonly CoverageRow[], format: 'markdown' | 'text'): string {
  const body = rows.map((r) => [
    r.part,
    r.name,
    `${r.method}${r.replaced ? ' (replaced)' : ''}`,
    String(r.hits),
    String(r.runs),
    percent(r.rate),
    `${bound(r.lower)}–${bound(r.upper)}%`,
    `${bound(r.target.min)}–${bound(r.target.max)}%`,
    r.verdict,
    r.detail,
  ]);
  if (format === 'markdown') {
    const escape = (s: string): string => s.replaceAll('|', '\\|');
    const numeric = new Set(['hits', 'runs', 'rate', '95% interval', 'target']);
    return [
      `| ${COLUMNS.join(' | ')} |`,
      `|${COLUMNS.map((c) => (numeric.has(c) ? ' ---: ' : ' --- ')).join('|')}|`,
      ...body.map((r) => `| ${r.map(escape).join(' | ')} |`),
    ].join('\n');
  }
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...body.map((r) => r[i]!.length)));
  const line = (r: readonly string[]): string =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(COLUMNS), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
