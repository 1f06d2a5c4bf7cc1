import { BiasAuditError } from './bias-audit-error.js';
import type {
  AggregateBiasFlag,
  BiasAggregateReport,
  ChangePoint,
  FamilyTest,
  PooledCorrelationReport,
  PositionTestReport,
  ReviewerProfile,
  SessionAnomaly,
  TrendReport,
} from './bias-aggregate-report.js';
import type { BiasMetricReport } from './bias-metric-report.js';
import type { BiasObservation } from './bias-observation.js';
import type { BootstrapMethod } from './bootstrap-result.js';
import { confidenceTier } from './confidence-tier.js';
import { assertLevel } from './internal/assert.js';
import { blockPermutationTest } from './internal/block-permutation-test.js';
import { isArrayValue } from './internal/is-array-value.js';
import { bootstrapInterval } from './internal/bootstrap-interval.js';
import { mean, median, variance } from './internal/describe.js';
import { weightedHolmAdjust } from './internal/weighted-holm.js';
import { criticalT, tSummary } from './internal/t-summary.js';
import type { TSummary } from './internal/t-summary.js';
import { normalCdf, normalQuantile } from './normal-distribution.js';
import { createSeededRandom } from './seeded-random.js';
import { studentTTwoSided } from './student-t-distribution.js';

/** Options of `aggregateBiasAudit`. */
export interface AggregateBiasAuditOptions {
  /** The end of the window. Default: the current time. Pass it for reproducible reports. */
  now?: Date | string;
  /** Most recent sessions kept. Default 100 (`LLM_COUNCIL_BIAS_WINDOW_SESSIONS`); Infinity keeps all. */
  maxSessions?: number;
  /** Days before `now` kept. Default 30 (`LLM_COUNCIL_BIAS_WINDOW_DAYS`); Infinity keeps all. */
  maxDays?: number;
  /** Sessions needed before any flag is raised. Default 20 (`LLM_COUNCIL_MIN_BIAS_SESSIONS`). */
  minSessions?: number;
  /** Confidence level of every interval. Default 0.95. */
  level?: number;
  /** Family-wise error rate of the flags (Holm). Default 0.05. */
  alpha?: number;
  /** Seed of the bootstrap and permutations. Default 1. */
  seed?: number;
  /** Session-cluster bootstrap replicates for the pooled correlation; 0 turns it off. Default 1000. */
  bootstrapReplicates?: number;
  /** `bca` (default) or `percentile`. */
  bootstrapMethod?: BootstrapMethod;
  /** Most permutations per position test (sequential stopping ends early when p is clearly large). Default 1000. */
  permutations?: number;
  /** Sessions per rolling trend window. Default 10. */
  trendWindowSessions?: number;
  /** Robust SDs (1.4826·MAD) from the median beyond which a session is an anomaly. Default 3.5. */
  anomalyThreshold?: number;
  /** Keep only observations of this council configuration version. */
  configVersion?: string;
  /** Keep only observations where this model is the reviewer or the candidate. */
  model?: string;
  /** Keep only observations of this query category. */
  queryCategory?: string;
}

const DAY_MS = 86_400_000;
/** The largest display position accepted. */
const MAX_POSITION = 65_535;
/** |r| is capped here before Fisher's z so a session with a perfect correlation (e.g. n = 4 with integer scores) stays finite. */
const R_CAP = 0.9999;

/** Observations are used in place (no copy): at 100,000 sessions a copy is two million more objects. */
type Obs = BiasObservation;

interface Session {
  id: string;
  time: number;
  iso: string;
  obs: Obs[];
  /** Sorted ids of every model in the session, and its config versions: for change points. */
  modelKey: string;
  configKey: string;
}

interface LengthPoint {
  n: number;
  r: number;
}

function invalidOption(message: string): BiasAuditError {
  return new BiasAuditError({ code: 'INVALID_OPTION', message });
}

function checkCount(value: number, name: string, limits: { allowInfinite: boolean; min: number }): number {
  const { allowInfinite, min } = limits;
  if (typeof value !== 'number' || Number.isNaN(value) || value < min || (!Number.isInteger(value) && !(allowInfinite && value === Number.POSITIVE_INFINITY))) {
    throw invalidOption(`${name} must be an integer of at least ${min}${allowInfinite ? ' (or Infinity)' : ''}, got ${String(value)}.`);
  }
  return value;
}

function validateObservation(o: BiasObservation, i: number, parsed: Map<string, number>): number {
  const fail = (what: string): never => {
    throw new BiasAuditError({ code: 'INVALID_INPUT', message: `observations[${i}] (session ${String(o?.sessionId)}): ${what}. Fix or drop that record before aggregating.` });
  };
  if (typeof o !== 'object' || o === null) fail('is not an object');
  if (typeof o.sessionId !== 'string' || o.sessionId === '') fail('sessionId must be a non-empty string');
  if (typeof o.reviewer !== 'string' || o.reviewer === '') fail('reviewer must be a non-empty string');
  if (typeof o.candidate !== 'string' || o.candidate === '') fail('candidate must be a non-empty string');
  let time = typeof o.timestamp === 'string' ? parsed.get(o.timestamp) : Number.NaN;
  if (time === undefined) {
    time = Date.parse(o.timestamp);
    parsed.set(o.timestamp, time);
  }
  if (Number.isNaN(time)) fail(`timestamp ${JSON.stringify(o.timestamp)} is not an ISO 8601 date`);
  // Positions index per-session arrays, so they are bounded: no council shows a reviewer 65,536 answers.
  if (!Number.isInteger(o.position) || o.position < 0 || o.position > MAX_POSITION) fail(`position ${String(o.position)} must be a 0-based integer of at most ${MAX_POSITION}`);
  if (!Number.isInteger(o.responseLengthChars) || o.responseLengthChars < 0) fail(`responseLengthChars ${String(o.responseLengthChars)} must be a non-negative integer`);
  if (o.score !== null && (typeof o.score !== 'number' || !Number.isFinite(o.score))) fail(`score ${String(o.score)} must be a finite number or null`);
  if (o.rankPosition !== null && (!Number.isInteger(o.rankPosition) || o.rankPosition < 0)) fail(`rankPosition ${String(o.rankPosition)} must be a 0-based integer or null`);
  return time;
}

/** Pearson r of two equally long lists, or null when n < 3 or a side is constant. */
function correlation(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  if (n < 3) return null;
  const mx = mean(x);
  const my = mean(y);
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Fisher's z of one session's r, bias-corrected: z − r / (2n − 5). Hotelling (1953) gives
 * E[z] − ζ = ρ/(2(n − 1))·[1 + (5 + ρ²)/(4(n − 1)) + …] and E[r] = ρ·[1 − (1 − ρ²)/(2(n − 1)) + …], whose
 * ratio is ≈ 1/(2n − 5.5) for small ρ; the usual first-order z − r/(2(n − 1)) leaves a bias of 0.015 at
 * n = 5, ρ = 0.3 (a sixth of the pooled SE over 50 sessions, costing ~1% of coverage); 1/(2n − 5) leaves
 * under 0.003 for n = 5, ρ ≤ 0.8 by simulation.
 */
function fisherZCorrected(p: LengthPoint): number {
  const r = Math.max(-R_CAP, Math.min(R_CAP, p.r));
  return Math.atanh(r) - r / (2 * p.n - 5);
}

/**
 * Fisher-z pooling of per-session correlations with weights n − 3, and its interval on the z scale.
 * The standard error is the between-session (sandwich) one, √(Σw²(z − z̄)² / (Σw)² · S/(S − 1)), with
 * a t quantile on S − 1 df: the textbook 1/√Σ(n − 3) assumes Var z = 1/(n − 3), which at n = 5 is 7%
 * too large for plain z and larger still after the bias correction, and ignores heterogeneity
 * between sessions. With a single usable session the textbook interval is used.
 */
function poolFisher(points: readonly LengthPoint[], level: number): { z: number; weight: number; lower: number; upper: number; sessions: number } | null {
  let weight = 0;
  let sum = 0;
  const used: { w: number; z: number }[] = [];
  for (const p of points) {
    if (p.n < 4) continue;
    const w = p.n - 3;
    const z = fisherZCorrected(p);
    weight += w;
    sum += w * z;
    used.push({ w, z });
  }
  if (weight === 0) return null;
  const zBar = sum / weight;
  const k = used.length;
  let half: number;
  let spread = 0;
  let largest = 0;
  for (const u of used) {
    spread += u.w * u.w * (u.z - zBar) ** 2;
    largest = Math.max(largest, Math.abs(u.z - zBar));
  }
  // Sessions that agree to rounding error have no between-session spread to estimate from.
  if (k >= 2 && largest > 1e-12 * Math.max(1, Math.abs(zBar))) {
    half = criticalT(level, k - 1) * Math.sqrt((spread / (weight * weight)) * (k / (k - 1)));
  } else {
    half = normalQuantile(1 - (1 - level) / 2) / Math.sqrt(weight);
  }
  return { z: zBar, weight, lower: zBar - half, upper: zBar + half, sessions: k };
}

/**
 * Cross-session bias aggregation (ADR-018 phases 2 and 3) over `BiasObservation`s: a pooled
 * length–score correlation, position effects with a permutation test, reviewer profiles,
 * self-preference, affinity and anchoring, trends, anomalies and change points. Every figure is a
 * `BiasMetricReport` (N, estimate, interval, window, tier); flags are Holm-corrected together and
 * raised only from `minSessions` sessions on.
 */
export function aggregateBiasAudit(observations: readonly BiasObservation[], options: AggregateBiasAuditOptions = {}): BiasAggregateReport {
  if (!isArrayValue(observations)) throw new BiasAuditError({ code: 'INVALID_INPUT', message: 'observations must be an array of BiasObservation records.' });
  const nowMs = options.now === undefined ? Date.now() : options.now instanceof Date ? options.now.getTime() : Date.parse(options.now);
  if (Number.isNaN(nowMs)) throw invalidOption(`now must be a Date or an ISO 8601 string, got ${String(options.now)}.`);
  const maxSessions = checkCount(options.maxSessions ?? 100, 'maxSessions', { allowInfinite: true, min: 1 });
  const maxDays = options.maxDays ?? 30;
  if (typeof maxDays !== 'number' || !(maxDays > 0)) throw invalidOption(`maxDays must be a positive number of days (or Infinity), got ${String(maxDays)}.`);
  const minSessions = checkCount(options.minSessions ?? 20, 'minSessions', { allowInfinite: false, min: 1 });
  const level = options.level ?? 0.95;
  assertLevel(level, 'level');
  const alpha = options.alpha ?? 0.05;
  assertLevel(alpha, 'alpha');
  const seed = options.seed ?? 1;
  createSeededRandom(seed); // validates the seed
  const replicates = checkCount(options.bootstrapReplicates ?? 1000, 'bootstrapReplicates', { allowInfinite: false, min: 0 });
  if (replicates > 0 && replicates < 10) throw invalidOption(`bootstrapReplicates must be 0 (off) or at least 10, got ${replicates}.`);
  const bootstrapMethod = options.bootstrapMethod ?? 'bca';
  if (bootstrapMethod !== 'bca' && bootstrapMethod !== 'percentile') throw invalidOption(`bootstrapMethod must be "bca" or "percentile", got ${String(bootstrapMethod)}.`);
  const permutations = checkCount(options.permutations ?? 1000, 'permutations', { allowInfinite: false, min: 0 });
  const trendWindow = checkCount(options.trendWindowSessions ?? 10, 'trendWindowSessions', { allowInfinite: false, min: 2 });
  const anomalyThreshold = options.anomalyThreshold ?? 3.5;
  if (typeof anomalyThreshold !== 'number' || !(anomalyThreshold > 0)) throw invalidOption(`anomalyThreshold must be a positive number of robust SDs, got ${String(anomalyThreshold)}.`);

  // 1. Validate, filter, window.
  const sessionsById = new Map<string, Session>();
  let filteredOut = 0;
  let outsideWindow = 0;
  const earliest = nowMs - maxDays * DAY_MS;
  const parsedTimes = new Map<string, number>();
  observations.forEach((o, i) => {
    const time = validateObservation(o, i, parsedTimes);
    if (
      (options.configVersion !== undefined && o.configVersion !== options.configVersion) ||
      (options.model !== undefined && o.reviewer !== options.model && o.candidate !== options.model) ||
      (options.queryCategory !== undefined && o.queryCategory !== options.queryCategory)
    ) {
      filteredOut++;
      return;
    }
    if (time > nowMs || time < earliest) {
      outsideWindow++;
      return;
    }
    let session = sessionsById.get(o.sessionId);
    if (!session) {
      session = { id: o.sessionId, time, iso: '', obs: [], modelKey: '', configKey: '' };
      sessionsById.set(o.sessionId, session);
    }
    session.time = Math.min(session.time, time);
    session.obs.push(o);
  });
  let sessions = [...sessionsById.values()].sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let beyondMaxSessions = 0;
  if (sessions.length > maxSessions) {
    const dropped = sessions.slice(0, sessions.length - maxSessions);
    beyondMaxSessions = dropped.reduce((s, x) => s + x.obs.length, 0);
    sessions = sessions.slice(sessions.length - maxSessions);
  }
  for (const s of sessions) s.iso = new Date(s.time).toISOString();
  const S = sessions.length;
  const windowStart = S > 0 ? sessions[0]!.iso : null;
  const windowEnd = S > 0 ? sessions[S - 1]!.iso : null;
  const meetsMinimum = S >= minSessions;
  const notes: string[] = [];
  if (!meetsMinimum) notes.push(`${S} session(s) in the window, fewer than minSessions = ${minSessions}: figures are shown per their tier, but no bias flag is raised.`);

  const metric = (spec: {
    metric: string;
    sessions: number;
    sampleSize: number;
    unit: BiasMetricReport['unit'];
    intervalMethod: string;
    estimate: number | null;
    lower: number | null;
    upper: number | null;
    pValue?: number | null;
    note?: string;
  }): BiasMetricReport => {
    const tier = confidenceTier(spec.sessions);
    const base = {
      metric: spec.metric,
      level,
      sampleSize: spec.sampleSize,
      unit: spec.unit,
      sessions: spec.sessions,
      windowStart,
      windowEnd,
      confidence: tier,
      intervalMethod: spec.intervalMethod,
    };
    if (tier === 'insufficient_data') {
      const reason = spec.note?.startsWith('Not computable') ? ` ${spec.note}` : '';
      return { ...base, estimate: null, ciLower: null, ciUpper: null, pValue: null, note: `Collecting data: ${spec.sessions} session(s), fewer than 10, so no estimate is shown.${reason}` };
    }
    const report: BiasMetricReport = { ...base, estimate: spec.estimate, ciLower: spec.lower, ciUpper: spec.upper };
    if (spec.pValue !== undefined) report.pValue = spec.pValue;
    const notesHere = [spec.note, tier === 'preliminary' ? 'High volatility: fewer than 20 sessions.' : undefined].filter((x): x is string => x !== undefined);
    if (notesHere.length > 0) report.note = notesHere.join(' ');
    return report;
  };
  const fromT = (spec: { metric: string; summary: TSummary; sampleSize: number; unit: BiasMetricReport['unit'] }): BiasMetricReport =>
    spec.summary.computable
      ? metric({ ...spec, sessions: spec.summary.n, intervalMethod: 't_across_sessions', estimate: spec.summary.estimate, lower: spec.summary.lower, upper: spec.summary.upper, pValue: spec.summary.pValue })
      : metric({ ...spec, sessions: spec.summary.n, intervalMethod: 't_across_sessions', estimate: spec.summary.estimate, lower: null, upper: null, pValue: null, note: `Not computable: ${spec.summary.reason}.` });

  // 2. Per-session quantities. Model names are interned to integers and each session is worked on
  //    in small typed arrays: this loop is what the 1,000- and 100,000-session budgets pay for.
  const idOf = new Map<string, number>();
  const names: string[] = [];
  const intern = (name: string): number => {
    let id = idOf.get(name);
    if (id === undefined) {
      id = names.length;
      idOf.set(name, id);
      names.push(name);
    }
    return id;
  };
  const lengthPoints: (LengthPoint | null)[] = [];
  const positionValues = new Map<number, number[]>(); // position → per-session mean centred score
  const primacyValues: number[] = [];
  const recencyValues: number[] = [];
  const rankValues = new Map<number, number[]>();
  const positionSpread: (number | null)[] = [];
  const anchoringValues: number[] = [];
  const meanScores: (number | null)[] = [];
  const harshById = new Map<number, number[]>();
  const selfById = new Map<number, number[]>();
  const selfRawById = new Map<number, number[]>();
  const affinityByPair = new Map<number, number[]>();
  const reviewerTotals = new Map<number, { sum: number; sumSq: number; n: number; sessions: number }>();
  // A block is one reviewer's view of a session; `groups` gives each block the id of the order it was
  // shown, so the permutation test relabels a shared order once for all the reviewers who saw it.
  const scoreBlocks = { values: [] as number[], labels: [] as number[], starts: [] as number[], groups: [] as number[] };
  const rankBlocks = { values: [] as number[], labels: [] as number[], starts: [] as number[], groups: [] as number[] };
  let orderGroups = 0;
  let candidatePairs = 0;
  let scoredObservations = 0;
  let positionedScoreSessions = 0;
  let rankedSessions = 0;
  const PAIR = 1 << 20;

  // Per-session working arrays, reused across sessions (grown when a session needs more) rather than
  // allocated anew for each of up to 100,000 sessions; each is reset over the range a session uses.
  const scratch = { f64: new Map<string, Float64Array>(), i32: new Map<string, Int32Array>() };
  const f64 = (name: string, size: number, value: number): Float64Array => {
    let buffer = scratch.f64.get(name);
    if (buffer === undefined || buffer.length < size) scratch.f64.set(name, (buffer = new Float64Array(Math.max(size, 2 * (buffer?.length ?? 8)))));
    return buffer.fill(value, 0, size);
  };
  const i32 = (name: string, size: number, value: number): Int32Array => {
    let buffer = scratch.i32.get(name);
    if (buffer === undefined || buffer.length < size) scratch.i32.set(name, (buffer = new Int32Array(Math.max(size, 2 * (buffer?.length ?? 8)))));
    return buffer.fill(value, 0, size);
  };

  for (const session of sessions) {
    const obs = session.obs;
    const n = obs.length;
    // Local indices of reviewers and candidates (linear search: a council has a handful of members).
    const revIds: number[] = [];
    const candIds: number[] = [];
    const revOf = i32('revOf', n, 0);
    const candOf = i32('candOf', n, 0);
    for (let i = 0; i < n; i++) {
      const rid = intern(obs[i]!.reviewer);
      const cid = intern(obs[i]!.candidate);
      let r = revIds.indexOf(rid);
      if (r < 0) r = revIds.push(rid) - 1;
      let c = candIds.indexOf(cid);
      if (c < 0) c = candIds.push(cid) - 1;
      revOf[i] = r;
      candOf[i] = c;
    }
    const R = revIds.length;
    const C = candIds.length;
    // Which reviewers were shown the same order (the same position for every candidate).
    const shownAt = i32('shownAt', R * C, -1);
    for (let i = 0; i < n; i++) shownAt[revOf[i]! * C + candOf[i]!] = obs[i]!.position;
    const orderGroupOf = i32('orderGroupOf', R, 0);
    const groupOfOrder = new Map<string, number>();
    for (let b = 0; b < R; b++) {
      const key = shownAt.subarray(b * C, (b + 1) * C).join(',');
      let group = groupOfOrder.get(key);
      if (group === undefined) {
        group = orderGroups++;
        groupOfOrder.set(key, group);
      }
      orderGroupOf[b] = group;
    }
    session.modelKey = [...new Set([...revIds, ...candIds])].sort((x, y) => x - y).join(',');
    let configKey = obs[0]?.configVersion ?? '(none)';
    for (let i = 1; i < n; i++) {
      const v = obs[i]!.configVersion ?? '(none)';
      if (v !== configKey && !configKey.split(',').includes(v)) configKey = [...configKey.split(','), v].sort().join(',');
    }
    session.configKey = configKey;
    const matrix = f64('matrix', R * C, Number.NaN);
    const candSum = f64('candSum', C, 0);
    const candCount = i32('candCount', C, 0);
    const candLength = f64('candLength', C, -1);
    let scoreSum = 0;
    let scoreCount = 0;
    for (let i = 0; i < n; i++) {
      const o = obs[i]!;
      const c = candOf[i]!;
      if (candLength[c]! < 0) candLength[c] = o.responseLengthChars;
      if (o.score === null) continue;
      matrix[revOf[i]! * C + c] = o.score;
      candSum[c]! += o.score;
      candCount[c]!++;
      scoreSum += o.score;
      scoreCount++;
    }
    scoredObservations += scoreCount;
    const sessionMean = scoreCount > 0 ? scoreSum / scoreCount : 0;
    meanScores.push(scoreCount > 0 ? sessionMean : null);

    // Length: a candidate's mean score against its response length.
    const lengths: number[] = [];
    const means: number[] = [];
    for (let c = 0; c < C; c++) {
      if (candCount[c]! === 0) continue;
      lengths.push(candLength[c]!);
      means.push(candSum[c]! / candCount[c]!);
    }
    const r = correlation(lengths, means);
    lengthPoints.push(r === null ? null : { n: lengths.length, r });
    if (r !== null) candidatePairs += lengths.length;

    // Position: block-centred scores and rank points, a block being one reviewer's view of the session.
    const revScoreSum = f64('revScoreSum', R, 0);
    const revScoreCount = i32('revScoreCount', R, 0);
    const revRankCount = i32('revRankCount', R, 0);
    const revFirst = i32('revFirst', R, 2147483647);
    const revLast = i32('revLast', R, -1);
    for (let i = 0; i < n; i++) {
      const o = obs[i]!;
      const b = revOf[i]!;
      if (o.rankPosition !== null) revRankCount[b]!++;
      if (o.score === null) continue;
      revScoreSum[b]! += o.score;
      revScoreCount[b]!++;
      if (o.position < revFirst[b]!) revFirst[b] = o.position;
      if (o.position > revLast[b]!) revLast[b] = o.position;
    }
    let maxPosition = 0;
    for (let i = 0; i < n; i++) if (obs[i]!.position > maxPosition) maxPosition = obs[i]!.position;
    const posSum = f64('posSum', maxPosition + 1, 0);
    const posCount = i32('posCount', maxPosition + 1, 0);
    const rankSum = f64('rankSum', maxPosition + 1, 0);
    const rankCount = i32('rankCount', maxPosition + 1, 0);
    let primacySum = 0;
    let primacyCount = 0;
    let recencySum = 0;
    let recencyCount = 0;
    let hadScoreBlock = false;
    let hadRankBlock = false;
    for (let b = 0; b < R; b++) {
      if (revScoreCount[b]! >= 2) {
        hadScoreBlock = true;
        const m = revScoreSum[b]! / revScoreCount[b]!;
        scoreBlocks.starts.push(scoreBlocks.values.length);
        scoreBlocks.groups.push(orderGroupOf[b]!);
        for (let i = 0; i < n; i++) {
          const o = obs[i]!;
          if (revOf[i] !== b || o.score === null) continue;
          const centred = o.score - m;
          scoreBlocks.values.push(centred);
          scoreBlocks.labels.push(o.position);
          posSum[o.position]! += centred;
          posCount[o.position]!++;
          if (o.position === revFirst[b]) {
            primacySum += centred;
            primacyCount++;
          }
          if (o.position === revLast[b]) {
            recencySum += centred;
            recencyCount++;
          }
        }
      }
      const k = revRankCount[b]!;
      if (k >= 2) {
        // Rank points enter the rank effects for every ranking reviewer, but the rank permutation test
        // only for reviewers that ranked without scoring: the others are already in the score test.
        const rankOnly = revScoreCount[b]! < 2;
        if (rankOnly) {
          hadRankBlock = true;
          rankBlocks.starts.push(rankBlocks.values.length);
          rankBlocks.groups.push(orderGroupOf[b]!);
        }
        let pointSum = 0;
        for (let i = 0; i < n; i++) {
          const rank = obs[i]!.rankPosition;
          if (revOf[i] === b && rank !== null) pointSum += 1 - Math.min(rank, k - 1) / (k - 1);
        }
        const m = pointSum / k;
        for (let i = 0; i < n; i++) {
          const o = obs[i]!;
          if (revOf[i] !== b || o.rankPosition === null) continue;
          const centred = 1 - Math.min(o.rankPosition, k - 1) / (k - 1) - m;
          if (rankOnly) {
            rankBlocks.values.push(centred);
            rankBlocks.labels.push(o.position);
          }
          rankSum[o.position]! += centred;
          rankCount[o.position]!++;
        }
      }
    }
    if (hadScoreBlock) positionedScoreSessions++;
    if (hadRankBlock) rankedSessions++;
    const spreadMeans: number[] = [];
    for (let p = 0; p <= maxPosition; p++) {
      if (posCount[p]! > 0) {
        push(positionValues, p, posSum[p]! / posCount[p]!);
        spreadMeans.push(posSum[p]! / posCount[p]!);
      }
      if (rankCount[p]! > 0) push(rankValues, p, rankSum[p]! / rankCount[p]!);
    }
    positionSpread.push(spreadMeans.length >= 2 ? variance(spreadMeans, 0) : null);
    if (primacyCount > 0) primacyValues.push(primacySum / primacyCount);
    if (recencyCount > 0) recencyValues.push(recencySum / recencyCount);

    // Anchoring: display position against |score − session mean|.
    if (scoreCount >= 3) {
      const anchorPos: number[] = [];
      const anchorDev: number[] = [];
      for (const o of obs) {
        if (o.score === null) continue;
        anchorPos.push(o.position);
        anchorDev.push(Math.abs(o.score - sessionMean));
      }
      const anchor = correlation(anchorPos, anchorDev);
      if (anchor !== null) anchoringValues.push(anchor);
    }

    // Reviewers: deviation from the others' mean on the same candidate → harshness, self-preference, affinity.
    const deviation = f64('deviation', C, 0);
    for (let b = 0; b < R; b++) {
      const rid = revIds[b]!;
      if (revScoreCount[b]! === 0) continue;
      let totals = reviewerTotals.get(rid);
      if (!totals) reviewerTotals.set(rid, (totals = { sum: 0, sumSq: 0, n: 0, sessions: 0 }));
      totals.sessions++;
      let nonSelfSum = 0;
      let nonSelfCount = 0;
      let ownDeviation = Number.NaN;
      deviation.fill(Number.NaN);
      for (let c = 0; c < C; c++) {
        const score = matrix[b * C + c]!;
        if (Number.isNaN(score)) continue;
        totals.sum += score;
        totals.sumSq += score * score;
        totals.n++;
        let others = 0;
        let count = 0;
        for (let o = 0; o < R; o++) {
          if (o === b) continue;
          const s = matrix[o * C + c]!;
          if (!Number.isNaN(s)) {
            others += s;
            count++;
          }
        }
        if (count === 0) continue;
        const d = score - others / count;
        if (candIds[c] === rid) ownDeviation = d;
        else {
          deviation[c] = d;
          nonSelfSum += d;
          nonSelfCount++;
        }
      }
      if (nonSelfCount === 0) continue;
      const harshness = nonSelfSum / nonSelfCount;
      push(harshById, rid, harshness);
      if (!Number.isNaN(ownDeviation)) {
        push(selfById, rid, ownDeviation - harshness);
        push(selfRawById, rid, ownDeviation);
      }
      if (nonSelfCount >= 2) {
        for (let c = 0; c < C; c++) if (!Number.isNaN(deviation[c]!)) push(affinityByPair, rid * PAIR + candIds[c]!, deviation[c]! - harshness);
      }
    }
  }
  const byName = <V>(map: Map<number, V>): Map<string, V> => new Map([...map].map(([id, v]) => [names[id]!, v]));
  const harshBy = byName(harshById);
  const selfBy = byName(selfById);
  const selfRawBy = byName(selfRawById);
  const reviewerScores = byName(reviewerTotals);
  const affinityBy = new Map([...affinityByPair].map(([key, v]) => [`${names[Math.floor(key / PAIR)]!}→${names[key % PAIR]!}`, v]));

  // 3. Pooled length–score correlation.
  const validPoints = lengthPoints.filter((p): p is LengthPoint => p !== null);
  const pooled = poolFisher(validPoints, level);
  let lengthTestP: number | null = null;
  {
    let num = 0;
    let den = 0;
    for (const p of validPoints) {
      num += (p.n - 1) * p.r;
      den += p.n - 1;
    }
    if (den > 0) lengthTestP = 2 * normalCdf(-Math.abs(num / Math.sqrt(den)));
  }
  const fisherSessions = validPoints.filter((p) => p.n >= 4);
  let lengthCorrelation: PooledCorrelationReport;
  {
    const base =
      pooled === null
        ? metric({
            metric: 'length_score_correlation',
            sessions: fisherSessions.length,
            sampleSize: candidatePairs,
            unit: 'candidate_pairs',
            intervalMethod: 'fisher_z_sandwich',
            estimate: null,
            lower: null,
            upper: null,
            pValue: null,
            note: 'Not computable: no session had 4 or more scored candidates with differing lengths and scores.',
          })
        : metric({
            metric: 'length_score_correlation',
            sessions: fisherSessions.length,
            sampleSize: candidatePairs,
            unit: 'candidate_pairs',
            intervalMethod: 'fisher_z_sandwich',
            estimate: Math.tanh(pooled.z),
            lower: Math.tanh(pooled.lower),
            upper: Math.tanh(pooled.upper),
            pValue: lengthTestP,
            note: 'Estimate: Fisher z (bias-corrected, z − r/(2n − 5)) pooled with weights n − 3; interval: between-session standard error, t on sessions − 1 df. p-value: the pooled score test Σ(n − 1)r / √Σ(n − 1).',
          });
    let boot: PooledCorrelationReport['bootstrap'] = null;
    if (pooled !== null && replicates > 0 && fisherSessions.length >= 2 && base.estimate !== null) {
      const zs = Float64Array.from(fisherSessions, fisherZCorrected);
      const ws = Float64Array.from(fisherSessions, (p) => p.n - 3);
      const k = zs.length;
      const random = createSeededRandom(seed + 101);
      const values = new Float64Array(replicates);
      const wzs = zs.map((z, i) => z * ws[i]!);
      const scale = k / 4294967296;
      for (let b = 0; b < replicates; b++) {
        let sw = 0;
        let swz = 0;
        for (let i = 0; i < k; i++) {
          const j = Math.floor(random.uint32() * scale);
          sw += ws[j]!;
          swz += wzs[j]!;
        }
        values[b] = swz / sw;
      }
      const totalW = ws.reduce((s, w) => s + w, 0);
      const totalWz = ws.reduce((s, w, i) => s + w * zs[i]!, 0);
      const jackknife = Array.from(zs, (z, i) => (totalWz - ws[i]! * z) / (totalW - ws[i]!));
      // The replicates are the same bias-corrected pooled z as the estimate, read off on the z scale and
      // back-transformed. The interval is expanded for the number of sessions (see bootstrapInterval):
      // the plain percentile/BCa interval of a weighted mean over 50 sessions is about 3.5% too narrow
      // (bootstrap variance (k − 1)/k of the unbiased one, normal instead of t quantiles) and covered
      // ρ = 0.3 in only 93.0% of runs.
      const interval = bootstrapInterval({ estimate: pooled.z, replicates: values, level, method: bootstrapMethod, jackknife, expansionSampleSize: k });
      if (interval.computable) boot = { ciLower: Math.tanh(interval.lower), ciUpper: Math.tanh(interval.upper), method: bootstrapMethod, replicates: interval.replicates };
    }
    lengthCorrelation = { ...base, bootstrap: base.estimate === null ? null : boot };
  }

  // 4. Position effects and tests.
  const positions = [...positionValues.keys()].sort((a, b) => a - b);
  const effects = positions.map((p) =>
    fromT({ metric: `position_effect[${p}]`, summary: tSummary(positionValues.get(p)!, level), sampleSize: positionValues.get(p)!.length, unit: 'sessions' }),
  );
  const rankEffects = [...rankValues.keys()]
    .sort((a, b) => a - b)
    .map((p) => fromT({ metric: `rank_position_effect[${p}]`, summary: tSummary(rankValues.get(p)!, level), sampleSize: rankValues.get(p)!.length, unit: 'sessions' }));
  const primacy = fromT({ metric: 'primacy_effect', summary: tSummary(primacyValues, level), sampleSize: primacyValues.length, unit: 'sessions' });
  const recency = fromT({ metric: 'recency_effect', summary: tSummary(recencyValues, level), sampleSize: recencyValues.length, unit: 'sessions' });
  const positionTests: PositionTestReport[] = [];
  if (permutations > 0) {
    const run = (basis: 'scores' | 'ranks', blocks: typeof scoreBlocks, setup: { sessionsWith: number; offset: number }): void => {
      const { sessionsWith, offset } = setup;
      if (blocks.starts.length === 0 || sessionsWith < 2) return;
      const result = blockPermutationTest({
        values: Float64Array.from(blocks.values),
        labels: Int32Array.from(blocks.labels),
        blockStarts: blocks.starts,
        blockGroups: blocks.groups,
        permutations,
        seed: seed + offset,
      });
      positionTests.push({ basis, statistic: result.statistic, pValue: result.pValue, permutations: result.permutations, blocks: result.blocks });
    };
    run('scores', scoreBlocks, { sessionsWith: positionedScoreSessions, offset: 202 });
    run('ranks', rankBlocks, { sessionsWith: rankedSessions, offset: 303 });
  }

  // 5. Reviewer profiles.
  const reviewerNames = [...reviewerScores.keys()].sort();
  const reviewerMeans = reviewerNames.map((r) => reviewerScores.get(r)!.sum / reviewerScores.get(r)!.n);
  const k = reviewerNames.length;
  const meanOfMeans = k > 0 ? mean(reviewerMeans) : 0;
  const sdOfMeans = k > 1 ? Math.sqrt(variance(reviewerMeans, 1)) : 0;
  const reviewers: ReviewerProfile[] = reviewerNames.map((reviewer, i) => {
    const s = reviewerScores.get(reviewer)!;
    const m = s.sum / s.n;
    const sd = s.n > 1 ? Math.sqrt(Math.max(0, (s.sumSq - s.n * m * m) / (s.n - 1))) : 0;
    const harsh = harshBy.get(reviewer) ?? [];
    return {
      reviewer,
      mean: m,
      standardDeviation: sd,
      n: s.n,
      sessions: s.sessions,
      harshnessZ: sdOfMeans > 0 ? (reviewerMeans[i]! - meanOfMeans) / sdOfMeans : null,
      maxAbsHarshnessZ: k > 0 ? (k - 1) / Math.sqrt(k) : 0,
      harshness: fromT({ metric: `harshness[${reviewer}]`, summary: tSummary(harsh, level), sampleSize: harsh.length, unit: 'sessions' }),
    };
  });
  if (k > 0 && k <= 4) {
    notes.push(`With ${k} reviewer(s) a harshness z-score cannot exceed (k − 1)/√k = ${((k - 1) / Math.sqrt(k)).toFixed(3)}, so a fixed |z| > 1.5 rule could never fire; harsh/generous flags come from the paired t test instead.`);
  }

  // 6. Self-preference, affinity, anchoring.
  const selfPreference = [...selfBy.keys()].sort().map((reviewer) => {
    const report = fromT({ metric: `self_preference[${reviewer}]`, summary: tSummary(selfBy.get(reviewer)!, level), sampleSize: selfBy.get(reviewer)!.length, unit: 'sessions' });
    if (report.estimate !== null) {
      const raw = mean(selfRawBy.get(reviewer)!);
      report.note = [report.note, `Unadjusted own score − others' consensus: ${raw.toFixed(3)}; the estimate subtracts the reviewer's harshness on other candidates.`].filter(Boolean).join(' ');
    }
    return report;
  });
  const affinity = [...affinityBy.keys()].sort().map((pair) =>
    fromT({ metric: `affinity[${pair}]`, summary: tSummary(affinityBy.get(pair)!, level), sampleSize: affinityBy.get(pair)!.length, unit: 'sessions' }),
  );
  const anchoring = fromT({ metric: 'anchoring', summary: tSummary(anchoringValues, level), sampleSize: anchoringValues.length, unit: 'sessions' });

  // 7. Trends, anomalies, change points.
  const trends: TrendReport[] = [];
  const trendOf = (indicator: TrendReport['indicator'], series: (number | null)[]): void => {
    const xs: number[] = [];
    const ys: number[] = [];
    series.forEach((v, i) => {
      if (v !== null) {
        xs.push((sessions[i]!.time - sessions[0]!.time) / DAY_MS);
        ys.push(v);
      }
    });
    let estimate: number | null = null;
    let lower: number | null = null;
    let upper: number | null = null;
    let pValue: number | null = null;
    let note: string | undefined;
    if (xs.length >= 3 && variance(xs, 0) > 0) {
      const mx = mean(xs);
      const my = mean(ys);
      let sxx = 0;
      let sxy = 0;
      for (let i = 0; i < xs.length; i++) {
        sxx += (xs[i]! - mx) ** 2;
        sxy += (xs[i]! - mx) * (ys[i]! - my);
      }
      const slope = sxy / sxx;
      let sse = 0;
      for (let i = 0; i < xs.length; i++) sse += (ys[i]! - my - slope * (xs[i]! - mx)) ** 2;
      const df = xs.length - 2;
      const se = Math.sqrt(sse / df / sxx);
      estimate = slope;
      if (se > 1e-12 * Math.max(1, Math.abs(slope))) {
        const t = criticalT(level, df);
        lower = slope - t * se;
        upper = slope + t * se;
        pValue = studentTTwoSided(slope / se, df);
      } else note = 'The indicator lies exactly on a line; no interval.';
    } else note = 'Not computable: needs the indicator from 3 or more sessions spread over time.';
    const slopePerDay = metric({ metric: `${indicator}_slope_per_day`, sessions: xs.length, sampleSize: xs.length, unit: 'sessions', intervalMethod: 'ols_t', estimate, lower, upper, pValue, ...(note ? { note } : {}) });
    const windows: BiasMetricReport[] = [];
    const step = Math.max(1, Math.floor(trendWindow / 2));
    for (let start = 0; start + trendWindow <= S; start += step) {
      const slice = series.slice(start, start + trendWindow);
      const span = { windowStart: sessions[start]!.iso, windowEnd: sessions[start + trendWindow - 1]!.iso };
      if (indicator === 'length_score_correlation') {
        const pts = lengthPoints.slice(start, start + trendWindow).filter((p): p is LengthPoint => p !== null);
        const pool = poolFisher(pts, level);
        const used = pts.filter((p) => p.n >= 4).length;
        windows.push({
          ...metric({
            metric: `${indicator}[window]`,
            sessions: used,
            sampleSize: pts.reduce((s, p) => s + p.n, 0),
            unit: 'candidate_pairs',
            intervalMethod: 'fisher_z_sandwich',
            estimate: pool ? Math.tanh(pool.z) : null,
            lower: pool ? Math.tanh(pool.lower) : null,
            upper: pool ? Math.tanh(pool.upper) : null,
          }),
          ...span,
        });
      } else {
        const values = slice.filter((v): v is number => v !== null);
        windows.push({ ...fromT({ metric: `${indicator}[window]`, summary: tSummary(values, level), sampleSize: values.length, unit: 'sessions' }), ...span });
      }
    }
    trends.push({ indicator, slopePerDay, windows });
  };
  if (S > 0) {
    trendOf('length_score_correlation', lengthPoints.map((p) => (p === null ? null : p.r)));
    trendOf('position_spread', positionSpread);
  }
  const anomalies: SessionAnomaly[] = [];
  const findAnomalies = (indicator: SessionAnomaly['indicator'], series: (number | null)[]): void => {
    const values = series.filter((v): v is number => v !== null);
    if (values.length < 5) return;
    const med = median(values);
    const robustSd = 1.4826 * median(values.map((v) => Math.abs(v - med)));
    if (!(robustSd > 0)) return;
    series.forEach((v, i) => {
      if (v === null) return;
      const robustZ = (v - med) / robustSd;
      if (Math.abs(robustZ) > anomalyThreshold) anomalies.push({ sessionId: sessions[i]!.id, timestamp: sessions[i]!.iso, indicator, value: v, median: med, robustSd, robustZ });
    });
  };
  findAnomalies('length_score_correlation', lengthPoints.map((p) => (p === null ? null : p.r)));
  findAnomalies('position_spread', positionSpread);
  findAnomalies('mean_score', meanScores);
  const changePoints: ChangePoint[] = [];
  let previousConfig: string | null = null;
  let previousModels: string | null = null;
  for (const session of sessions) {
    const configs = session.configKey;
    const models = session.modelKey;
    if (previousConfig !== null && configs !== previousConfig) changePoints.push({ sessionId: session.id, timestamp: session.iso, kind: 'config_version', from: previousConfig, to: configs });
    if (previousModels !== null && models !== previousModels) {
      const toNames = (key: string): string => key.split(',').map((id) => names[Number(id)]!).sort().join(',');
      changePoints.push({ sessionId: session.id, timestamp: session.iso, kind: 'models', from: toNames(previousModels), to: toNames(models) });
    }
    previousConfig = configs;
    previousModels = models;
  }
  if (changePoints.length > 0) notes.push(`${changePoints.length} change point(s) in the window: consider filtering by configVersion or model, since pooling across a model change mixes two councils.`);

  // 8. Flags: weighted Holm over all hypotheses, each family sharing alpha equally.
  interface Hypothesis {
    code: AggregateBiasFlag['code'];
    subject: string | null;
    report: BiasMetricReport;
    pValue: number;
  }
  const families: { family: FamilyTest['family']; hypotheses: Hypothesis[] }[] = [];
  const testable = (r: BiasMetricReport): r is BiasMetricReport & { pValue: number; estimate: number } =>
    typeof r.pValue === 'number' && r.estimate !== null;
  if (testable(lengthCorrelation)) families.push({ family: 'length', hypotheses: [{ code: 'LENGTH_BIAS_DETECTED', subject: null, report: lengthCorrelation, pValue: lengthCorrelation.pValue }] });
  if (positionTests.length > 0 && confidenceTier(Math.max(positionedScoreSessions, rankedSessions)) !== 'insufficient_data') {
    // The flag carries the largest position effect as its estimate (scores first, then rank points).
    const strongest = (list: BiasMetricReport[]): BiasMetricReport | null =>
      list.reduce<BiasMetricReport | null>((best, e) => (e.estimate !== null && (best === null || Math.abs(e.estimate) > Math.abs(best.estimate!)) ? e : best), null);
    const report = strongest(effects) ?? strongest(rankEffects);
    if (report !== null) {
      families.push({ family: 'position', hypotheses: positionTests.map((t) => ({ code: 'POSITION_BIAS_DETECTED' as const, subject: null, report, pValue: t.pValue })) });
    }
  }
  const calibration = reviewers
    .filter((r) => testable(r.harshness))
    .map((r): Hypothesis => ({ code: r.harshness.estimate! < 0 ? 'HARSH_REVIEWER' : 'GENEROUS_REVIEWER', subject: r.reviewer, report: r.harshness, pValue: r.harshness.pValue ?? 1 }));
  if (calibration.length > 0) families.push({ family: 'reviewer_calibration', hypotheses: calibration });
  const selfHypotheses = selfPreference.filter(testable).map((r) => ({ code: 'SELF_PREFERENCE' as const, subject: r.metric.slice('self_preference['.length, -1), report: r, pValue: r.pValue }));
  if (selfHypotheses.length > 0) families.push({ family: 'self_preference', hypotheses: selfHypotheses });
  const affinityHypotheses = affinity.filter(testable).map((r) => ({ code: 'REVIEWER_AFFINITY' as const, subject: r.metric.slice('affinity['.length, -1), report: r, pValue: r.pValue }));
  if (affinityHypotheses.length > 0) families.push({ family: 'affinity', hypotheses: affinityHypotheses });
  if (testable(anchoring)) families.push({ family: 'anchoring', hypotheses: [{ code: 'ANCHORING', subject: null, report: anchoring, pValue: anchoring.pValue }] });

  // Weighted Holm over every hypothesis (Holm 1979, weighted form), weight 1/(families · family size):
  // each family gets an equal share of alpha, split evenly among its hypotheses, and a rejected
  // hypothesis passes on only its own share. Passing on the whole family's share once its smallest p
  // is rejected (Holm on the Bonferroni family p-values) would let the family's other, possibly true,
  // hypotheses and the remaining families all use the same alpha, which lifts the family-wise error rate.
  const familyP = families.map((f) => Math.min(1, f.hypotheses.length * Math.min(...f.hypotheses.map((h) => h.pValue))));
  const all = families.flatMap((f, i) => f.hypotheses.map((h) => ({ h, family: i, weight: 1 / (families.length * f.hypotheses.length) })));
  const itemAdjusted = weightedHolmAdjust(
    all.map((item) => item.h.pValue),
    all.map((item) => item.weight),
  );
  const familyAdjusted = families.map(() => 1);
  all.forEach((item, i) => (familyAdjusted[item.family] = Math.min(familyAdjusted[item.family]!, itemAdjusted[i]!)));
  const tests: FamilyTest[] = families.map((f, i) => ({
    family: f.family,
    pValue: familyP[i]!,
    hypotheses: f.hypotheses.length,
    adjustedPValue: familyAdjusted[i]!,
    rejected: meetsMinimum && familyAdjusted[i]! <= alpha,
  }));
  const flags: AggregateBiasFlag[] = [];
  all.forEach(({ h }, i) => {
    const adjusted = itemAdjusted[i]!;
    if (!meetsMinimum || adjusted > alpha) return;
    if (h.code === 'SELF_PREFERENCE' && h.report.estimate! <= 0) return;
    flags.push({ code: h.code, subject: h.subject, metric: h.report.metric, estimate: h.report.estimate!, pValue: h.pValue, adjustedPValue: adjusted });
  });

  return {
    window: {
      now: new Date(nowMs).toISOString(),
      maxSessions,
      maxDays,
      start: windowStart,
      end: windowEnd,
      sessions: S,
      observations: sessions.reduce((s, x) => s + x.obs.length, 0),
      excluded: { filteredOut, outsideWindow, beyondMaxSessions },
    },
    confidence: confidenceTier(S),
    minSessions,
    meetsMinimum,
    level,
    alpha,
    lengthCorrelation,
    position: { effects, primacy, recency, rankEffects, tests: positionTests },
    reviewers,
    selfPreference,
    affinity,
    anchoring,
    trends,
    anomalies,
    changePoints,
    tests,
    flags,
    notes: scoredObservations === 0 && S > 0 ? [...notes, 'No observation in the window carries a score; only rank-based figures are available.'] : notes,
  };
}
