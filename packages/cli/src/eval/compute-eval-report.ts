import { aggregateBiasAudit, normalQuantile, studentTQuantile, wilsonInterval } from '@council/bias-audit';
import type { BiasMetricReport } from '@council/bias-audit';
import { observationsFromSession } from '@council/core';
import { cohenKappa, itemBootstrap, ordinalAlpha, spearmanRho } from '@council/scoring';
import { evidenceTier } from '../bias-findings.js';
import { countNoun } from '../count-noun.js';
import { checkKeyContent } from './check-key-content.js';
import { peopleAgree } from './eval-item.js';
import type { EvalItem } from './eval-item.js';
import type { EvalJournalLine } from './eval-journal.js';
import { evalCost, evalCostSentence } from './eval-report-cost.js';
import { councilVsBestInterval } from './compute-eval-report-vs-best.js';
import { kappaVariance } from './kappa-standard-error.js';
import type { EvalCost } from './eval-report-cost.js';

/** Fewer items than this give κ, ρ, α and the council-versus-best difference no interval: a handful says nothing. */
export const MIN_ITEMS_FOR_INTERVAL = 5;

export interface Interval {
  lower: number;
  upper: number;
}

/** A figure over items: its estimate (null when undefined or there are no items), its 95% interval and its items. */
export interface EvalFigure {
  estimate: number | null;
  /**
   * 95% interval: for a share, Wilson's score interval; for κ, Wilson's interval of the agreement mapped to κ and
   * rescaled to Fleiss, Cohen & Everitt's standard error ({@link kappaFigure}); for the council against its best
   * member, {@link councilVsBestInterval}'s; for ρ and α, the percentile bootstrap over items. Null below
   * `MIN_ITEMS_FOR_INTERVAL` items or where undefined.
   */
  interval: Interval | null;
  n: number;
}

/** A share of items: `count` of `n`. */
export interface EvalShare extends EvalFigure {
  count: number;
}

export interface EvalMemberRow {
  member: string;
  /** Answers that pass the dataset's deterministic key-content checks. */
  keyContent: EvalShare;
  /** Answers the grader judged to agree with a reference answer (items with only a reference): a judgement, not a check. */
  graded: EvalShare;
  /** Sessions in which the council's peer review ranked this member's answer first (shared firsts count). */
  winRate: EvalShare;
  /** What its answers of the checked items cost, in US dollars; null when a provider did not report a cost. */
  costUsd: number | null;
  /** Correct answers (key content and graded) per US dollar; null when the cost is unknown or zero. */
  correctPerDollar: number | null;
}

export interface EvalCouncilVsBest {
  /** Items where the synthesis and every member's answer were checked. */
  items: number;
  council: number | null;
  /** The member with the highest share correct on those items (the interval allows for any that could be best). */
  best: { member: string; rate: number } | null;
  /**
   * Council's share correct minus the best member's, paired over items; its interval is the least of the paired
   * intervals against each member (Agresti and Min's), the upper end widened for the members within reach of the best
   * so that the whole interval misses 5% where they are tied ({@link councilVsBestInterval}).
   */
  difference: EvalFigure;
}

export interface EvalReviewerRow {
  reviewer: string;
  preferences: {
    /** Pairs this reviewer judged readably. */
    n: number;
    /** Reviews that failed or could not be read. */
    unread: number;
    /** Share of pairs where it chose as people did (a tie as a tie). */
    agreement: EvalShare;
    /** Cohen's κ (categories first, second, tie) between it and people's majority. */
    kappa: EvalFigure;
    /** Share of the pairs where people agree (every vote names the same answer, not a tie) on which it chose as they did. */
    clearPairs: EvalShare;
    /** With --both-orders: share of pairs (both reviews read) where it chose the same answer both ways round. */
    consistency: EvalShare;
  };
  scores: {
    n: number;
    unread: number;
    /** Spearman's ρ between its scores and people's. */
    rho: EvalFigure;
    /** Krippendorff's ordinal α between its scores and people's (same 1–10 scale). */
    alpha: EvalFigure;
  };
  /** Its measured bias over the eval's sessions (bias-audit's report on their records). */
  bias: {
    /** Points above (+) or below (−) the typical reviewer for the same answer. */
    offset: BiasFigure | null;
    /** Points it adds to its own answer beyond its offset. */
    selfPreference: BiasFigure | null;
  };
}

export interface BiasFigure {
  estimate: number | null;
  interval: Interval | null;
  sessions: number;
  confidence: string;
  note?: string;
}

export interface EvalReport {
  kind: 'council-eval';
  generatedAt: string;
  journal: string;
  /** True for `--demo`: simulated members that are handed the answers, a walk through the report, not a measurement. */
  demo: boolean;
  /** Who graded reference-only items: a model id, or `simulated`. */
  grader: string;
  items: {
    total: number;
    done: number;
    notDone: number;
    withCouncil: number;
    withPreference: number;
    withScore: number;
  };
  members: EvalMemberRow[];
  /** The chairman's synthesis, checked as a member's answer is (key content and graded together). */
  council: EvalShare;
  councilVsBest: EvalCouncilVsBest;
  reviewers: EvalReviewerRow[];
  /** The bias report's window over the eval's sessions. */
  bias: { sessions: number; confidence: string };
  /** What the done items cost — sessions, grading and judging — and what the cost cap stopped. */
  cost: EvalCost;
  /** Each figure said in a sentence. */
  sentences: string[];
  notes: string[];
}

type Target = string;

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * A share of items with Wilson's score interval. Not the percentile bootstrap: resampling items of a share is the
 * binomial, whose percentile interval collapses to a point at 0 or 100% (0 of 5 → [0%, 0%]) and covers 59% at 19
 * items with 95% correct, Wilson 93% (eval-interval-coverage-study.ts).
 */
function share(values: readonly number[]): EvalShare {
  const n = values.length;
  const count = values.filter((v) => v === 1).length;
  if (n === 0) return { estimate: null, interval: null, n, count };
  return { estimate: count / n, interval: wilsonInterval(count, n), n, count };
}

function figure(
  n: number,
  statistic: (indices: readonly number[]) => number | null,
  options: { bootstrap: number; seed: string },
): EvalFigure {
  if (n === 0) return { estimate: null, interval: null, n };
  const result = itemBootstrap(n, statistic, n < MIN_ITEMS_FOR_INTERVAL ? { ...options, bootstrap: 0 } : options);
  return { estimate: result.estimate, interval: result.interval, n };
}

/**
 * Cohen's κ between people and a judge with a 95% interval. Its shape is Wilson's score interval for the observed
 * agreement p_o (pairs agreeing, of n) mapped through κ = (p_o − p_e)/(1 − p_e) at the observed chance agreement p_e —
 * Cohen's (1960) view, the raters' category shares held fixed — which keeps Wilson's asymmetry and gives perfect
 * agreement on few pairs a lower end. Holding p_e fixed ignores that it is estimated from the same pairs and moves with
 * p_o, so the mapped interval's half-widths around κ̂ are scaled by √(V_FCE / V_Cohen): Fleiss, Cohen & Everitt's
 * (1969) variance of κ̂, which allows for that ({@link kappaVariance}; statsmodels' `std_kappa`), over Cohen's
 * p_o(1 − p_o)/(n(1 − p_e)²). The ratio is estimated on the table with ½ added to each cell (Agresti & Min 2005, Stat.
 * Med. 24, 729–740, for matched pairs): on a few pairs the plug-in variance collapses when rare categories never meet
 * (20 pairs, one category at 70%: coverage 87% without it). And as the ratio is estimated, the scale is t(n − 1)/z, as
 * for a studentized mean. When every pair agrees the mapped interval stands as it is (no disagreement to scale by).
 *
 * Coverage (eval-interval-coverage-study.ts, 2,000 seeded datasets a row, each rate ±1 point): 93.4–96.9% at 20, 50
 * and 100 pairs and true κ 0.2, 0.5 and 0.8, whether both raters share 45/45/10 (first, second, tie), one has 30/30/40,
 * or both 70/20/10 — except 97.6% at κ 0.17 and 20 pairs with the unequal shares, over-covering as the mapped interval
 * alone did (97.7%); 8,000 a row put every other row in 93.6–96.5%. The mapped interval alone covered 98.1–99.0% at
 * κ 0.2 with 70/20/10 and 96.2–97.7% at κ 0.17 with unequal shares. Also tried (8,000 a row; 1,000 for the
 * bootstrap): FCE's variance without the ½ (87–88% at 20 pairs, 70/20/10, κ 0.2) or without the t (91.5% there at
 * κ 0.5), a normal interval on log(1 − κ) (its misses nearly all above the upper end), a bootstrap-t over pairs (26–87%
 * at 20 pairs from κ 0.5 or with a dominant category). None below `MIN_ITEMS_FOR_INTERVAL` pairs; null where κ is
 * undefined (both raters gave one and the same category throughout).
 */
export function kappaFigure(
  human: readonly (0 | 1 | 'tie')[],
  judge: readonly (0 | 1 | 'tie')[],
  categories: readonly (0 | 1 | 'tie')[],
): EvalFigure {
  const n = human.length;
  if (n === 0) return { estimate: null, interval: null, n };
  const { kappa, expected } = cohenKappa(human, judge, { categories });
  if (kappa === null || n < MIN_ITEMS_FOR_INTERVAL) return { estimate: kappa, interval: null, n };
  const agreeing = human.filter((h, i) => h === judge[i]).length;
  const w = wilsonInterval(agreeing, n);
  const toKappa = (po: number) => Math.max(-1, (po - expected) / (1 - expected));
  const mapped = { lower: toKappa(w.lower), upper: toKappa(w.upper) };
  if (agreeing === n) return { estimate: kappa, interval: mapped, n };
  const index = new Map(categories.map((c, i) => [c, i]));
  const smoothed = categories.map(() => categories.map(() => 0.5));
  human.forEach((h, i) => smoothed[index.get(h)!]![index.get(judge[i]!)!]!++);
  const { perPair } = kappaVariance(smoothed);
  if (perPair === null) return { estimate: kappa, interval: mapped, n }; // not with ½ in every cell: p_e < 1
  const po = smoothed.reduce((s, row, i) => s + row[i]!, 0) / (n + 0.5 * categories.length ** 2);
  const scale = (studentTQuantile(0.975, n - 1) / normalQuantile(0.975)) * Math.sqrt(perPair / (po * (1 - po)));
  return {
    estimate: kappa,
    interval: {
      lower: Math.max(-1, kappa - scale * (kappa - mapped.lower)),
      upper: Math.min(1, kappa + scale * (mapped.upper - kappa)),
    },
    n,
  };
}

/**
 * The council's share correct minus its best member's on the same items, with {@link councilVsBestInterval}'s 95%
 * interval (none below `MIN_ITEMS_FOR_INTERVAL` items, or with `bootstrap` 0); null with no items or no member.
 */
function councilVsBestFigure(
  complete: readonly { correct: ReadonlyMap<Target, boolean> }[],
  answering: readonly string[],
  options: { bootstrap: number; seed: string },
): EvalFigure {
  const n = complete.length;
  if (n === 0 || answering.length === 0) return { estimate: null, interval: null, n };
  const values = (t: Target) => complete.map((c) => (c.correct.get(t) ? 1 : 0));
  const council = values('council');
  const members = answering.map(values);
  const estimate = mean(council) - Math.max(...members.map(mean));
  const interval =
    n < MIN_ITEMS_FOR_INTERVAL || options.bootstrap === 0
      ? null
      : councilVsBestInterval(council, members, { draws: options.bootstrap, seed: options.seed });
  return { estimate, interval, n };
}

const safe =
  <T>(f: (ix: readonly number[]) => T | null) =>
  (ix: readonly number[]): T | null => {
    try {
      return f(ix);
    } catch {
      return null;
    }
  };

function biasFigure(metric: BiasMetricReport | undefined): BiasFigure | null {
  if (metric === undefined) return null;
  return {
    estimate: metric.estimate,
    interval:
      metric.ciLower === null || metric.ciUpper === null ? null : { lower: metric.ciLower, upper: metric.ciUpper },
    sessions: metric.sessions,
    confidence: metric.confidence,
    ...(metric.note === undefined ? {} : { note: metric.note }),
  };
}

/**
 * The eval report from the dataset and the run's journal: per member, accuracy against the key-content checks and
 * (apart, labelled) the grader's judgement against reference answers, win rate in peer review and correct answers per
 * dollar; the synthesis against the best single member, paired over items; per reviewer, agreement with human
 * preferences (κ, raw agreement, accuracy where people agree) and human scores (Spearman's ρ, Krippendorff's ordinal α),
 * beside its offset and self-preference from bias-audit's report over the eval's sessions. A share's 95% interval is
 * Wilson's; κ's is Wilson's for the agreement mapped to κ, rescaled to Fleiss, Cohen & Everitt's standard error; the
 * council against its best member takes the least of its paired intervals against each member (moment selection,
 * seeded multiplier draws); ρ and α a percentile bootstrap over items (seeded); none below `MIN_ITEMS_FOR_INTERVAL`
 * items; a figure with no items is null — never NaN.
 */
export function computeEvalReport(options: {
  items: readonly EvalItem[];
  journal: ReadonlyMap<string, EvalJournalLine>;
  config: { grader: string; demo: boolean; bootstrap: number; seed: number | string };
  journalPath: string;
  now: Date;
}): EvalReport {
  const { items, journal } = options;
  const boot = (what: string) => ({ bootstrap: options.config.bootstrap, seed: `${options.config.seed}:${what}` });
  const done = items.filter((i) => journal.has(i.id));
  const notes: string[] = [];

  // Per council item: each target's correctness, and whether it came from a check or a grader.
  const checked: { item: EvalItem; line: EvalJournalLine; key: boolean; correct: Map<Target, boolean> }[] = [];
  const members: string[] = [];
  const see = (m: string) => {
    if (!members.includes(m)) members.push(m);
  };
  for (const item of done) {
    const line = journal.get(item.id)!;
    const session = line.session;
    if (session === null) continue;
    for (const s of session.stage1) see(s.member);
    const correct = new Map<Target, boolean>();
    if (item.accept) {
      for (const s of session.stage1) if (s.text !== null) correct.set(s.member, checkKeyContent(s.text, item.accept));
      if (session.synthesis) correct.set('council', checkKeyContent(session.synthesis.text, item.accept));
    } else {
      for (const g of line.grades) if (g.correct !== null) correct.set(g.target, g.correct);
    }
    checked.push({ item, line, key: item.accept !== undefined, correct });
  }
  for (const item of done) for (const j of journal.get(item.id)!.judgements) see(j.reviewer);

  const valuesOf = (target: Target, key: boolean | null): number[] =>
    checked
      .filter((c) => key === null || c.key === key)
      .flatMap((c) => (c.correct.has(target) ? [c.correct.get(target) ? 1 : 0] : []));

  const memberRows: EvalMemberRow[] = members.map((member) => {
    const wins = checked.flatMap(({ line }) => {
      const entry = line.session!.leaderboard.find((e) => e.candidate === member);
      return entry === undefined ? [] : [entry.finalRank === 1 ? 1 : 0];
    });
    let cost: number | null = 0;
    for (const { line } of checked) {
      const answer = line.session!.stage1.find((s) => s.member === member);
      if (answer === undefined) continue;
      const c = answer.usage?.costUsd;
      cost = cost === null || c === undefined ? null : cost + c;
    }
    const correctCount = valuesOf(member, null).filter((v) => v === 1).length;
    return {
      member,
      keyContent: share(valuesOf(member, true)),
      graded: share(valuesOf(member, false)),
      winRate: share(wins),
      costUsd: checked.length === 0 ? null : cost,
      correctPerDollar: cost === null || cost <= 0 ? null : correctCount / cost,
    };
  });
  const council = share(valuesOf('council', null));

  // The synthesis against the best single member, over items where every one of them was checked.
  const answering = memberRows.filter((r) => r.keyContent.n + r.graded.n > 0).map((r) => r.member);
  const complete = checked.filter((c) => c.correct.has('council') && answering.every((m) => c.correct.has(m)));
  if (checked.length > complete.length && complete.length > 0)
    notes.push(
      `The council-versus-best-member comparison uses ${complete.length} of the ${checked.length} checked items where the synthesis and every member's answer could be checked.`,
    );
  const rateOf = (m: Target) => mean(complete.map((c) => (c.correct.get(m) ? 1 : 0)));
  const best =
    complete.length === 0
      ? null
      : answering.reduce<{ member: string; rate: number } | null>((b, m) => {
          const rate = rateOf(m);
          return b === null || rate > b.rate ? { member: m, rate } : b;
        }, null);
  const councilVsBest: EvalCouncilVsBest = {
    items: complete.length,
    council: complete.length === 0 ? null : rateOf('council'),
    best,
    difference: councilVsBestFigure(complete, answering, boot('council-vs-best')),
  };

  // Bias over the eval's sessions: bias-audit's report on their observations, read from the journal (so also with --no-persist).
  const sessions = checked.map(({ line }) => ({ ...line.session!, query: '' }));
  const observations = sessions.flatMap((s) => observationsFromSession(s));
  const biasReport =
    observations.length === 0
      ? null
      : aggregateBiasAudit(observations, {
          window: { sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY, now: options.now },
        });

  const reviewers: EvalReviewerRow[] = members
    .filter(
      (m) =>
        done.some((i) => journal.get(i.id)!.judgements.some((j) => j.reviewer === m)) ||
        biasReport?.reviewers.some((r) => r.reviewer === m),
    )
    .map((reviewer) => {
      const prefs: { human: 0 | 1 | 'tie'; agree: boolean; judge: 0 | 1 | 'tie' }[] = [];
      const scores: { human: number; judge: number }[] = [];
      let unreadPrefs = 0;
      const consistency: number[] = [];
      let unreadScores = 0;
      for (const item of done) {
        for (const j of journal.get(item.id)!.judgements) {
          if (j.reviewer !== reviewer) continue;
          if (j.kind === 'preference' && item.preference) {
            if (j.consistent !== undefined) consistency.push(j.consistent ? 1 : 0);
            if (j.preferred === null || j.preferred === undefined) unreadPrefs++;
            else
              prefs.push({
                human: item.preference.preferred,
                agree: peopleAgree(item.preference.votes),
                judge: j.preferred,
              });
          } else if (j.kind === 'score' && item.humanScore) {
            if (j.score === null || j.score === undefined) unreadScores++;
            else scores.push({ human: item.humanScore.score, judge: j.score });
          }
        }
      }
      const clear = prefs.filter((p) => p.agree).map((p) => (p.judge === p.human ? 1 : 0));
      const categories = [0, 1, 'tie'] as const;
      return {
        reviewer,
        preferences: {
          n: prefs.length,
          unread: unreadPrefs,
          agreement: share(prefs.map((p) => (p.judge === p.human ? 1 : 0))),
          kappa: kappaFigure(
            prefs.map((p) => p.human),
            prefs.map((p) => p.judge),
            categories,
          ),
          clearPairs: share(clear),
          consistency: share(consistency),
        },
        scores: {
          n: scores.length,
          unread: unreadScores,
          rho: figure(
            scores.length,
            safe(
              (ix) =>
                spearmanRho(
                  ix.map((i) => scores[i]!.human),
                  ix.map((i) => scores[i]!.judge),
                ).rho,
            ),
            boot(`rho:${reviewer}`),
          ),
          alpha: figure(
            scores.length,
            (ix) => ordinalAlpha(ix.map((i) => [scores[i]!.human, scores[i]!.judge])).alpha,
            boot(`alpha:${reviewer}`),
          ),
        },
        bias: {
          offset: biasFigure(biasReport?.reviewers.find((r) => r.reviewer === reviewer)?.offset),
          selfPreference: biasFigure(
            biasReport?.selfPreference.find((m) => m.metric === `self_preference[${reviewer}]`),
          ),
        },
      };
    });

  if (options.config.demo)
    notes.unshift(
      'Demo: the simulated members are handed each item’s answer with a chance equal to their built-in quality, and review by their simulated personas; the figures show how the report reads, not how good any model is.',
    );
  if (items.length > done.length)
    notes.push(
      `${items.length - done.length} of ${items.length} items are not done (failed or not run yet): run again with --resume; the figures cover the ${done.length} done.`,
    );
  const report: EvalReport = {
    kind: 'council-eval',
    generatedAt: options.now.toISOString(),
    journal: options.journalPath,
    demo: options.config.demo,
    grader: options.config.grader,
    items: {
      total: items.length,
      done: done.length,
      notDone: items.length - done.length,
      withCouncil: checked.length,
      withPreference: done.filter((i) => i.preference).length,
      withScore: done.filter((i) => i.humanScore).length,
    },
    members: memberRows,
    council,
    councilVsBest,
    reviewers,
    bias: { sessions: biasReport?.window.sessions ?? 0, confidence: biasReport?.confidence ?? 'insufficient_data' },
    cost: evalCost(done.map((i) => journal.get(i.id)!)),
    sentences: [],
    notes,
  };
  report.sentences = [...describeEvalReport(report), evalCostSentence(report.cost)];
  return report;
}

/** A share as a whole percentage: "84%". */
export const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** "0.67", "−0.67" (the typographic minus), and "0.00" for a figure that rounds to zero, never "−0.00". */
export const num = (x: number, digits = 2): string => {
  const magnitude = Math.abs(x).toFixed(digits);
  return `${x < 0 && Number(magnitude) !== 0 ? '−' : ''}${magnitude}`;
};

/** `num` with a plus sign on a positive figure: "+0.67", "−0.67"; a figure that rounds to zero has no sign. */
export const signed = (x: number, digits = 2): string =>
  `${x > 0 && Number(x.toFixed(digits)) !== 0 ? '+' : ''}${num(x, digits)}`;

/** "16 of 19 (84%, 95% interval 62%–94%)". */
export function describeShare(s: EvalShare): string {
  if (s.estimate === null || s.interval === null) return 'none';
  return `${s.count} of ${s.n} (${pct(s.estimate)}, 95% interval ${pct(s.interval.lower)}–${pct(s.interval.upper)})`;
}

function describeFigure(f: EvalFigure, name: string, legend = ''): string {
  if (f.n === 0) return `no ${name}: no items`;
  if (f.estimate === null)
    return `${name} is undefined on ${f.n === 1 ? 'this one item' : `these ${f.n} items`} (one side does not vary)`;
  const interval =
    f.interval === null
      ? f.n < MIN_ITEMS_FOR_INTERVAL
        ? `${countNoun(f.n, 'item')} ${f.n === 1 ? 'is' : 'are'} too few for an interval`
        : 'no interval, as it is undefined in most resamples'
      : `95% interval ${num(f.interval.lower)} to ${num(f.interval.upper)}`;
  return `${name} ${num(f.estimate)} (${[legend, interval].filter((x) => x !== '').join('; ')})`;
}

/** Landis and Koch's words for a κ (or α): how far past chance the agreement is. */
export function agreementWord(x: number): string {
  if (x < 0) return 'worse than chance';
  if (x < 0.2) return 'slight';
  if (x < 0.4) return 'fair';
  if (x < 0.6) return 'moderate';
  if (x < 0.8) return 'substantial';
  return 'almost perfect';
}

const excludesZero = (i: Interval | null): boolean => i !== null && (i.lower > 0 || i.upper < 0);

/** Every figure of the report as a sentence a team lead can read. */
export function describeEvalReport(report: EvalReport): string[] {
  const out: string[] = [];
  for (const m of report.members) {
    if (m.keyContent.n > 0)
      out.push(`${m.member}'s answer passed the key-content check on ${describeShare(m.keyContent)} items.`);
    if (m.graded.n > 0)
      out.push(
        `On items with only a reference answer, ${report.grader === 'simulated' ? 'the demo’s simulated grader' : `the grader ${report.grader}`} judged ${m.member}'s answer right on ${describeShare(m.graded)} items — a model's judgement, not a check.`,
      );
    if (m.winRate.n > 0)
      out.push(`The council's peer review ranked its answer first in ${describeShare(m.winRate)} sessions.`);
    if (m.correctPerDollar !== null)
      out.push(
        `It gave ${m.correctPerDollar.toFixed(1)} correct answers per US dollar ($${m.costUsd!.toFixed(4)} for its answers).`,
      );
    else if (m.keyContent.n + m.graded.n > 0)
      out.push(
        m.costUsd === 0
          ? 'Its answers cost nothing, so quality per dollar is not defined.'
          : 'Its cost was not reported, so there is no quality per dollar.',
      );
  }
  if (report.council.n > 0)
    out.push(`The council's synthesis (the chairman's answer) was right on ${describeShare(report.council)} items.`);
  const vs = report.councilVsBest;
  const diff = vs.difference;
  if (vs.best !== null && vs.council !== null && diff.estimate !== null) {
    const verdict =
      diff.interval === null
        ? 'too few items to tell whether the council beats its best member'
        : excludesZero(diff.interval)
          ? diff.interval.lower > 0
            ? 'the council is better than its best member on items like these'
            : 'the best member alone is better than the council on items like these'
          : 'the interval includes zero, so these items cannot tell whether the council beats its best member';
    out.push(
      `Is the council better than its best member? On ${vs.items} items the synthesis was right ${pct(vs.council)} of the time and the best single member (${vs.best.member}) ${pct(vs.best.rate)}: ${signed(diff.estimate * 100, 0)} points${diff.interval ? ` (95% interval ${signed(diff.interval.lower * 100, 0)} to ${signed(diff.interval.upper * 100, 0)}, allowing for any member that could be the best)` : ''} — ${verdict}.`,
    );
  }
  for (const r of report.reviewers) {
    const p = r.preferences;
    if (p.n > 0) {
      const k = p.kappa;
      const reading =
        k.estimate === null
          ? ''
          : k.interval === null
            ? `: ${agreementWord(k.estimate)}, on too few pairs to say more`
            : k.interval.lower > 0
              ? `: ${agreementWord(k.estimate)} agreement beyond chance`
              : k.interval.upper < 0
                ? ': it disagrees with people more often than chance would'
                : `: ${agreementWord(k.estimate)}, and chance alone could give this`;
      out.push(
        `As a judge, ${r.reviewer} chose as people did on ${describeShare(p.agreement)} answer pairs; ${describeFigure(k, 'Cohen’s κ')}${reading}.${p.clearPairs.n > 0 ? ` On the pairs where people agree on a winner, it picked that one in ${describeShare(p.clearPairs)} pairs.` : ''}${p.unread > 0 ? ` ${p.unread} of its reviews could not be read.` : ''}${p.consistency.n > 0 ? ` Shown each pair both ways round, it chose the same answer on ${describeShare(p.consistency)} pairs; where the order changed its choice, the pair counts as a tie.` : ''}`,
      );
    }
    const s = r.scores;
    if (s.n > 0)
      out.push(
        `Its scores of ${countNoun(s.n, 'answer')} against people's: ${describeFigure(s.rho, 'Spearman’s ρ', '1: the same order, 0: unrelated')}; ${describeFigure(s.alpha, 'Krippendorff’s α', '1: the same scores, 0: chance')}.${s.unread > 0 ? ` ${s.unread} of its reviews could not be read.` : ''}`,
      );
    const o = r.bias.offset;
    if (o !== null && o.estimate !== null)
      out.push(
        `Over the eval's ${o.sessions} sessions it scores ${Math.abs(o.estimate).toFixed(2)} points ${o.estimate >= 0 ? 'above' : 'below'} the typical reviewer for the same answer${o.interval ? ` (95% interval ${signed(o.interval.lower)} to ${signed(o.interval.upper)})` : ''}; evidence: ${evidenceTier(o.confidence)}.`,
      );
    const sp = r.bias.selfPreference;
    if (sp !== null && sp.estimate !== null)
      out.push(
        `It gives its own answers ${signed(sp.estimate)} points beyond its offset${sp.interval ? ` (95% interval ${signed(sp.interval.lower)} to ${signed(sp.interval.upper)})` : ''}.`,
      );
  }
  if (report.items.done > 0 && report.items.withPreference + report.items.withScore === 0)
    out.push('No item has a human preference or score, so agreement with people is not measured.');
  if (report.bias.sessions > 0 && report.bias.confidence === 'insufficient_data')
    out.push(
      `The bias figures need at least 10 sessions; this eval has ${report.bias.sessions}, so none is shown (run more items, or read \`council bias-report\` over more sessions).`,
    );
  if (report.items.done === 0) out.push('No item is done yet, so there is nothing to report.');
  return out;
}
