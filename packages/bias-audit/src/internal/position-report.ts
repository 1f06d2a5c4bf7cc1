import type { PositionBiasReport, PositionTestReport } from '../bias-aggregate-report.js';
import type { BiasMetricReport } from '../bias-metric-report.js';
import type { HypothesisFamily } from './bias-flags.js';
import { blockPermutationTest } from './block-permutation-test.js';
import type { PositionDesign, PositionIdentifiability } from './position-design.js';
import { POSITION_SHARE_MINIMUM } from './position-design.js';
import { positionWaldTest } from './position-wald-test.js';
import type { ReportContext } from './report-context.js';
import type { PositionBlocks } from './session-indicators.js';

/** A figure the design cannot identify: no estimate, interval or p-value; its note says why (tier notes kept). */
export function notEstimableFigure(figure: BiasMetricReport, reason: string): BiasMetricReport {
  const { pValue, ...rest } = figure;
  const kept = figure.note === undefined || figure.note.startsWith('Not computable') ? [] : [figure.note];
  return {
    ...rest,
    estimate: null,
    ciLower: null,
    ciUpper: null,
    ...(pValue === undefined ? {} : { pValue: null }),
    note: [`Not estimable: ${reason}.`, ...kept].join(' '),
    estimable: false,
  };
}

/**
 * Step 4 of `aggregateBiasAudit`: per display position (and rank position) the mean centred score, primacy and
 * recency, and the tests of "no position effect" — block permutations when `resamples` > 0, else the Wald F test.
 * When the display orders do not identify position (`identifiability`: fixed by author or sorted by length), every
 * figure is not estimable, there is no test and no hypothesis, and `identifiability` says why.
 */
export function positionReport(
  context: ReportContext,
  tests: { resamples: number; seed: number; design: PositionDesign; identifiability: PositionIdentifiability },
): { position: PositionBiasReport; family: HypothesisFamily } {
  const { identifiability, design } = tests;
  const { indicators, margins } = context;
  const { fromT, tHypothesis } = context.figures;
  const { resamples, seed } = tests;
  const positions = [...indicators.positionValues.keys()].sort((a, b) => a - b);
  const effects = positions.map((p) =>
    fromT({ metric: `position_effect[${p}]`, values: indicators.positionValues.get(p)!, margin: margins.position }),
  );
  const rankPositions = [...indicators.rankValues.keys()].sort((a, b) => a - b);
  const rankEffects = rankPositions.map((p) =>
    fromT({
      metric: `rank_position_effect[${p}]`,
      values: indicators.rankValues.get(p)!,
      margin: margins.rankPosition,
    }),
  );
  const primacy = fromT({ metric: 'primacy_effect', values: indicators.primacyValues });
  const recency = fromT({ metric: 'recency_effect', values: indicators.recencyValues });
  const positionTests: PositionTestReport[] = [];
  const testPositions = (spec: {
    basis: PositionTestReport['basis'];
    values: Map<number, Float64Array>;
    sessionsOf: Map<number, Int32Array>;
    blocks: PositionBlocks;
    sessions: number;
    offset: number;
  }): void => {
    if (spec.sessions < 2) return;
    if (resamples > 0 && spec.blocks.starts.length > 0) {
      const result = blockPermutationTest({
        values: Float64Array.from(spec.blocks.values),
        labels: Int32Array.from(spec.blocks.labels),
        blockStarts: spec.blocks.starts,
        blockGroups: spec.blocks.groups,
        permutations: resamples,
        seed: seed + spec.offset,
      });
      positionTests.push({
        basis: spec.basis,
        method: 'permutation',
        statistic: result.statistic,
        pValue: result.pValue,
        permutations: result.permutations,
        sessions: spec.sessions,
      });
      return;
    }
    const wald = positionWaldTest(spec.values, spec.sessionsOf);
    if (wald !== null)
      positionTests.push({
        basis: spec.basis,
        method: 'wald_f',
        statistic: wald.statistic,
        pValue: wald.pValue,
        permutations: 0,
        sessions: wald.sessions,
      });
  };
  // A test of "no position effect" on orders fixed by author or sorted by length would test the authors or length.
  if (identifiability.estimable)
    testPositions({
      basis: 'scores',
      values: indicators.positionValues,
      sessionsOf: indicators.positionSessions,
      blocks: indicators.scoreBlocks,
      sessions: indicators.positionedScoreSessions,
      offset: 202,
    });
  if (identifiability.estimable && indicators.rankedSessions >= 2) {
    testPositions({
      basis: 'ranks',
      values: indicators.rankValues,
      sessionsOf: indicators.rankSessions,
      blocks: indicators.rankBlocks,
      sessions: indicators.rankedSessions,
      offset: 303,
    });
  }
  const positionHypotheses = [
    ...effects.flatMap((f) =>
      tHypothesis({ code: 'POSITION_BIAS_DETECTED', subject: null, figure: f, margin: margins.position }),
    ),
    // Rank points speak for position only where no score does (reviewers that rank without scoring).
    ...(indicators.rankedSessions >= 2
      ? rankEffects.flatMap((f) =>
          tHypothesis({ code: 'POSITION_BIAS_DETECTED', subject: null, figure: f, margin: margins.rankPosition }),
        )
      : []),
  ];
  if (!identifiability.estimable) {
    const blank = (f: BiasMetricReport): BiasMetricReport => notEstimableFigure(f, identifiability.reason);
    return {
      position: {
        effects: effects.map(blank),
        primacy: blank(primacy),
        recency: blank(recency),
        rankEffects: rankEffects.map(blank),
        tests: [],
        identifiability: {
          estimable: false,
          cause: identifiability.cause,
          reason: identifiability.reason,
          withinAuthorShare: design.withinAuthorShare ?? 1,
          withinLengthShare: design.withinLengthShare ?? 1,
          minimumShare: POSITION_SHARE_MINIMUM,
        },
      },
      family: { family: 'position', hypotheses: [] },
    };
  }
  return {
    position: { effects, primacy, recency, rankEffects, tests: positionTests },
    family: { family: 'position', hypotheses: positionHypotheses },
  };
}
