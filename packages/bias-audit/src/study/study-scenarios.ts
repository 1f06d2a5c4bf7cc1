import type { StudyScenario } from './study-scenario.js';
import type { StudySimulation } from './study-simulation.js';

/**
 * The council of the study: 5 members who each review the other 4 answers (no self-review), each in
 * its own random order, on a 1–10 scale with noise SD 0.8 around an answer's expected score (mean 6;
 * answers' quality SD ≈ 0.92, so an answer's mean score over its 4 reviewers has SD 1 within a session),
 * continuous scores clamped to the scale, answers of 3,000 ± 1,000 characters.
 */
export const issue13Council: StudySimulation = {
  models: 5,
  reviewers: 5,
  reviewerNoise: 0.8,
  selfReview: false,
  lengthChars: { mean: 3000, sd: 1000 },
  scale: { min: 1, max: 10 },
};

/** Length 0.4 points per 1,000 characters, primacy 0.25 points per display position, `model-0` 1.2 points harsh. */
const planted: StudySimulation = {
  ...issue13Council,
  lengthSlopePer1000Chars: 0.4,
  primacyPerPosition: 0.25,
  reviewerOffsets: [-1.2],
};

const atMost5 = { max: 0.05 };

const nulls = ([20, 50] as const).flatMap((sessions) =>
  ([false, true] as const).flatMap((selfReview) =>
    ([false, true] as const).map((rounded): StudyScenario => ({
      name: `null-${sessions}${selfReview ? '-self' : ''}${rounded ? '-rounded' : ''}`,
      description: `Nothing planted, ${sessions} sessions, ${selfReview ? 'self-review on (each member also scores its own answer)' : 'no self-review'}, ${rounded ? 'integer' : 'continuous'} scores.`,
      sessions,
      runs: 2000,
      seed: 3_000_000 + sessions * 10_000 + (selfReview ? 2000 : 0) + (rounded ? 1000 : 0),
      simulation: {
        ...issue13Council,
        selfReview,
        scale: rounded ? { min: 1, max: 10, step: 1 } : { min: 1, max: 10 },
      },
      targets: { anyFlag: atMost5 },
    })),
  ),
);

/**
 * Every scenario of issue 13's validity study, in the order of the issue. Runs: 2,000 where a rate is
 * held to a ±1.5-point window (nulls, coverage; Wilson half-width ≈ 1 point), 1,000 for the other
 * 50-session stores, 400 and 200 at 300 sessions (the issue asks ≥ 200).
 */
export const ISSUE_13_SCENARIOS: readonly StudyScenario[] = [
  {
    name: 'planted-50',
    description:
      'Length 0.4 points per 1,000 characters, primacy 0.25 points per position, model-0 1.2 points harsh; 50 sessions.',
    sessions: 50,
    runs: 1000,
    seed: 1_000_000,
    simulation: planted,
  },
  {
    name: 'planted-300',
    description: 'The same three effects; 300 sessions.',
    sessions: 300,
    runs: 400,
    seed: 1_100_000,
    simulation: planted,
    // The issue sets its coverage window at 20 and 50 sessions; here coverage is reported only.
    targets: { exactlyPlanted: { min: 0.95 }, coverage: null },
  },
  {
    name: 'harsh-only-50',
    description: 'model-0 1.2 points harsh, nothing else; 50 sessions.',
    sessions: 50,
    runs: 1000,
    seed: 2_000_000,
    simulation: { ...issue13Council, reviewerOffsets: [-1.2] },
    targets: { anyOtherFlag: atMost5 },
  },
  {
    // Not in the issue's list: a self-preferring reviewer sits in the comparison group of every other
    // reviewer's view of its answer, the same echo as a harsh reviewer's, so it is held to the same rule.
    name: 'self-preference-only-300',
    description:
      "Self-review on; model-0 adds 0.8 points to its own answer, nothing else; 300 sessions (beyond the issue's list).",
    sessions: 300,
    runs: 200,
    seed: 2_100_000,
    simulation: { ...issue13Council, selfReview: true, selfPreference: [0.8] },
    targets: { anyOtherFlag: atMost5, coverage: null },
  },
  ...nulls,
  ...([20, 50] as const).map((sessions): StudyScenario => ({
    name: `heterogeneous-length-${sessions}`,
    description: `Per-session length correlation +0.5 or −0.5 (a fair coin), mean 0; ${sessions} sessions.`,
    sessions,
    runs: 2000,
    seed: 4_000_000 + sessions * 10_000,
    simulation: { ...issue13Council, lengthCorrelationJitter: 0.5 },
    targets: { anyFlag: atMost5 },
  })),
  {
    name: 'between-session-confound-50',
    description:
      'Sessions differ in mean answer length (4,000 ± 1,000 characters between sessions, ± 1,000 within) and score 1 point higher per 1,000 characters of their mean length; no within-session length effect; 50 sessions.',
    sessions: 50,
    runs: 1000,
    seed: 5_000_000,
    simulation: {
      ...issue13Council,
      lengthChars: { mean: 4000, sd: 1000, betweenSessionSd: 1000 },
      betweenSessionSlopePer1000Chars: 1,
    },
    targets: { falseFlags: { LENGTH_BIAS_DETECTED: atMost5 }, betweenSession: { min: 0.8 } },
  },
  {
    name: 'length-power-50',
    description:
      'Within-session length correlation ρ = 0.3 (0.3 points per 1,000 characters here), nothing else; 50 sessions.',
    sessions: 50,
    runs: 2000,
    seed: 6_000_000,
    simulation: { ...issue13Council, lengthCorrelation: 0.3 },
    targets: { detected: { LENGTH_BIAS_DETECTED: { min: 0.8 } } },
  },
];
