// Coverage of council eval's 95% intervals on simulated datasets with known truth (seeded): a share of items
// (Wilson's interval), Cohen's κ (Wilson's interval for the agreement, mapped to κ and rescaled to Fleiss, Cohen &
// Everitt's standard error) and the council-versus-best-member
// difference (the least of the members' Agresti–Min paired intervals, the upper end's critical value raised over the
// members that could be best), each beside the percentile bootstrap it replaced. The figures the CLI README states
// come from this file.
import { cohenKappa, createRng, itemBootstrap } from '@council/scoring';
import { wilsonInterval } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { kappaFigure } from './compute-eval-report.js';
import { councilVsBestInterval } from './compute-eval-report-vs-best.js';

/** Coverage in percent, with its own Wilson interval (the house rule for every rate). */
function coverage(hits: number, runs: number) {
  const w = wilsonInterval(hits, runs);
  return { rate: (100 * hits) / runs, lower: 100 * w.lower, upper: 100 * w.upper };
}

describe('council eval interval coverage (seeded simulations)', () => {
  it('a share of items: Wilson covers 93.5–96.5% where the percentile bootstrap does not', () => {
    const rng = createRng(7);
    const rows: Record<string, ReturnType<typeof coverage>> = {};
    for (const [n, p] of [
      [19, 0.5],
      [19, 0.85],
      [50, 0.9],
    ] as const) {
      let hits = 0;
      const runs = 2000;
      for (let r = 0; r < runs; r++) {
        let count = 0;
        for (let i = 0; i < n; i++) if (rng.next() < p) count++;
        const w = wilsonInterval(count, n);
        if (w.lower <= p && p <= w.upper) hits++;
      }
      rows[`${n}@${p}`] = coverage(hits, runs);
    }
    // The percentile bootstrap of the same share near 100%: what Wilson replaced (19 items, 95% correct).
    let bootHits = 0;
    let wilsonHits = 0;
    for (let r = 0; r < 2000; r++) {
      const values = Array.from({ length: 19 }, () => (rng.next() < 0.95 ? 1 : 0));
      const count = values.reduce<number>((a, b) => a + b, 0);
      const boot = itemBootstrap(19, (ix) => ix.reduce((s, i) => s + values[i]!, 0) / 19, { bootstrap: 400, seed: r });
      if (boot.interval!.lower <= 0.95 && 0.95 <= boot.interval!.upper) bootHits++;
      const w = wilsonInterval(count, 19);
      if (w.lower <= 0.95 && 0.95 <= w.upper) wilsonHits++;
    }
    const nearAll = { bootstrap: coverage(bootHits, 2000), wilson: coverage(wilsonHits, 2000) };
    console.log('share coverage (Wilson)', rows, '19 items at 95%:', nearAll);
    expect(nearAll.bootstrap.rate).toBeLessThan(80);
    expect(nearAll.wilson.rate).toBeGreaterThanOrEqual(92);
    for (const row of Object.values(rows)) {
      expect(row.rate).toBeGreaterThanOrEqual(93.5);
      expect(row.rate).toBeLessThanOrEqual(96.5);
    }
  });

  it("Cohen's κ: the mapped Wilson interval rescaled to Fleiss, Cohen & Everitt's standard error reaches 93.5–96.5% from 20 pairs, where Cohen's mapped interval alone over-covers at low κ and the percentile bootstrap under-covers", () => {
    // Rater b copies rater a with probability q, else draws from its own shares. With both raters' shares 45/45/10
    // (first, second, tie) population κ = q exactly; the second shape gives b other shares (30/30/40), and the third a
    // dominant category (70/20/10), where Cohen's mapped interval alone, holding the shares fixed, runs wide.
    const shapes = [
      { name: '45/45/10', a: [0.45, 0.45, 0.1], b: [0.45, 0.45, 0.1] },
      { name: '45/45/10 against 30/30/40', a: [0.45, 0.45, 0.1], b: [0.3, 0.3, 0.4] },
      { name: '70/20/10', a: [0.7, 0.2, 0.1], b: [0.7, 0.2, 0.1] },
    ];
    const rows: Record<string, ReturnType<typeof coverage>> = {};
    const mappedRows: Record<string, ReturnType<typeof coverage>> = {};
    const bootRows: Record<string, ReturnType<typeof coverage>> = {};
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
          for (let r = 0; r < 2000; r++) {
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
          rows[`${shape.name}, κ ${truth.toFixed(2)}, ${n} pairs`] = coverage(hits, runs);
          mappedRows[`${shape.name}, κ ${truth.toFixed(2)}, ${n} pairs`] = coverage(mappedHits, runs);
          if (withBootstrap) bootRows[`κ ${truth.toFixed(2)}, ${n} pairs`] = coverage(bootHits, bootRuns);
        }
      }
    }
    console.log("Cohen's κ coverage (mapped Wilson interval rescaled to FCE's standard error)", rows);
    console.log("Cohen's κ coverage, Wilson's agreement interval mapped alone (replaced)", mappedRows);
    console.log("Cohen's κ coverage, percentile bootstrap (replaced before that)", bootRows);
    const overCovering = '45/45/10 against 30/30/40, κ 0.17, 20 pairs';
    for (const [name, row] of Object.entries(rows)) {
      if (name === overCovering) continue;
      // Each row's coverage, with its own 95% interval over 2,000 datasets (±1 point), reaches the target band.
      expect(row.upper, name).toBeGreaterThanOrEqual(93.5);
      expect(row.lower, name).toBeLessThanOrEqual(96.5);
    }
    // At 20 pairs, low κ and unequal shares it over-covers, as the mapped interval alone did: stated in the README.
    expect(rows[overCovering]!.rate).toBeGreaterThanOrEqual(93.5);
    expect(rows[overCovering]!.rate).toBeLessThanOrEqual(98.5);
    // Held fixed, the shares made the mapped interval alone over-cover at low κ with a dominant category.
    for (const n of [20, 50, 100]) expect(mappedRows[`70/20/10, κ 0.20, ${n} pairs`]!.lower).toBeGreaterThan(96.5);
    // At 20 pairs the bootstrap ran narrow: below the target at some true κ.
    expect(Math.min(...Object.values(bootRows).map((r) => r.rate))).toBeLessThan(93.5);
  });

  it('the council against its best member: 93.5–96.5% at 20, 50 and 100 items, independent or right and wrong together, beside the percentile bootstrap that ran narrow', () => {
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
    const rows: Record<string, ReturnType<typeof coverage>> = {};
    let percentile: ReturnType<typeof coverage> | null = null;
    // `shared`: the share of items whose difficulty everyone shares (one draw decides every answer, each against its
    // own rate), so the synthesis and the members are right and wrong together, as on real councils; else independent.
    for (const shared of [0, 0.5])
      for (const n of [20, 50, 100])
        for (const shape of shapes) {
          const rng = createRng(`vs-best:${shape.name}:${n}:${shared}`);
          const truth = council - Math.max(...shape.members);
          const runs = n === 20 ? 2000 : 1000; // the cheap rows run twice as many: the smallest samples vary most
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
          rows[`${n} items${shared > 0 ? ', shared difficulty' : ''}: ${shape.name} (${shape.members.join('/')})`] =
            coverage(hits, runs);
          if (withBootstrap) percentile = coverage(bootHits, runs);
        }
    console.log(
      'council-vs-best coverage (Agresti–Min per member, upper end raised over those that could be best)',
      rows,
    );
    console.log(
      'council-vs-best coverage, percentile bootstrap with the best re-chosen (replaced), 50 items, two within 2 points',
      percentile,
    );
    // Every row at least 93.5%; at most 96.5%, but for two kinds of row that over-cover by design (stated in the
    // README): a leader at 20 items, where one member's Agresti–Min interval is itself a little wide (few items
    // differ), and a 10-point lead, where the second member, 1–1.5 standard errors behind, is usually counted among
    // those that could be best while its lower end seldom misses.
    const wideByDesign = (name: string) => /^20 items.*a leader|a leader by 10 points/.test(name);
    for (const [name, row] of Object.entries(rows)) {
      expect(row.rate, name).toBeGreaterThanOrEqual(93.5);
      expect(row.rate, name).toBeLessThanOrEqual(wideByDesign(name) ? 97.5 : 96.5);
    }
    expect(percentile!.rate).toBeLessThan(93.5);
  }, 1_800_000); // 42 rows of 1,000–2,000 datasets, 1,000 multiplier draws each: about 4–5 minutes on one core
});
