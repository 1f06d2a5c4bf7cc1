// The parts of `council serve`'s API documents the page reads (see /api/openapi.json for the whole). Where a part
// is a type of core or scoring as it is, it is imported (types only: nothing of those packages enters the bundle).
import type {
  SessionSynthesis as CoreSessionSynthesis,
  EvidenceReport,
  SessionVerdict,
  VerdictMode,
} from '@council/core';
import type { AggregateLeaderboardEntry } from '@council/scoring';

export interface ServeConfig {
  demo: boolean;
  members: string[];
  chairman: string | null;
  pools: Record<string, string[]>;
  strategies: string[];
  defaultStrategy: string;
  modes: Mode[];
  defaultMode: Mode;
  modeToggle: boolean;
  /** config.yaml's verdict: the jury mode a session runs in unless the request names one; null: off. */
  defaultVerdict?: VerdictMode | null;
  models: string[];
  persist: { consent: number; biasRecords: boolean };
}

export type Mode = 'consensus' | 'voting';

export interface Contributor {
  id: string;
  weight: number;
  reason?: string;
}

export interface CallError {
  reason: string;
  code: string | null;
  message: string;
}

export interface Stage1Result {
  member: string;
  model: string;
  text: string | null;
  latencyMs: number;
  error: CallError | null;
}

export interface Stage2Result {
  reviewer: string;
  model: string;
  labelToModel: Record<string, { model: string; displayIndex: number }>;
  /** The reviewer's reply as written (anonymous labels), null when the call failed. */
  text?: string | null;
  /** Member ids in the order the reviewer saw them (absent in sessions saved before it was recorded). */
  order?: string[];
  evaluation: {
    ranking: string[];
    scores: Record<string, number>;
    /** What it said of each answer, by member id. */
    critiques?: Record<string, { strengths: string; weaknesses: string }>;
    abstained: boolean;
  } | null;
  error: CallError | null;
}

/** The chairman's synthesis as core records it (the page does not read its usage and latency), with this page's `Contributor`. */
export type SessionSynthesis = Omit<CoreSessionSynthesis, 'usage' | 'latencyMs' | 'contributors'> & {
  contributors: Contributor[] | null;
};

export interface LeaderboardEntry {
  candidate: string;
  bordaScore: number;
  /** Mean Borda points over the votes received (m − 1 for first, 0 for last). */
  bordaPoints?: number;
  /** Ballots that ranked the member. */
  voteCount?: number;
  finalRank: number;
  winCount: number;
}

/** `sessionDocument(session)`: the JSON of `council ask --json`. */
export interface SessionDocument {
  sessionId: string;
  timestamp: string;
  config: { members: string[]; chairman: string; strategy: string; mode: Mode; goal: string | null };
  stage1: Stage1Result[];
  stage2: Stage2Result[];
  leaderboard: LeaderboardEntry[];
  synthesis: SessionSynthesis | null;
  excluded: { member: string; stage: number; reason: string; message: string }[];
  usage: { tokens: number; costUsd: number | null };
  warnings: string[];
  conversation?: { id: string; previousSessionId: string };
  /** Jury mode only: each member's decision and weight, the margin, who could flip it, the dissent. */
  verdict?: SessionVerdict;
  /** With evidence only: per item, how much each prompt carried and which lines looked like injections (never the text). */
  evidence?: EvidenceReport[];
}

export interface SessionListItem {
  id: string;
  timestamp: string;
  /** The question's first line; null while running and when the history kept no question. */
  title: string | null;
  conversation: string | null;
  /** The session a follow-up continues; null for a first question. */
  previousSessionId: string | null;
  members: string[];
  chairman: string;
  strategy: string;
  mode: Mode;
  winner: string | null;
  contributors: Contributor[] | null;
  category: string;
  running: boolean;
}

export interface SessionList {
  sessions: SessionListItem[];
  next: string | null;
}

/** A share with its 95% interval (null with no data). */
export interface Interval {
  estimate: number | null;
  lower: number | null;
  upper: number | null;
  n: number;
  tier?: string;
}

/** `aggregateContributions`' report (@council/bias-audit). */
export interface ContributionsReport {
  sessions: number;
  sessionsWithBlock?: number;
  members: {
    member: string;
    sessions: number;
    credited: number;
    meanWeight: Interval;
    wins: number;
    winShare?: Interval;
  }[];
  heatmap?: { strategies: string[]; cells: { member: string; strategy: string; meanWeight: Interval }[] };
}

export interface LeaderboardDocument {
  sessions: number;
  borda: Omit<AggregateLeaderboardEntry, 'category'>[];
}

/** A figure of the bias report, with its interval. */
export interface Figure {
  metric: string;
  estimate: number | null;
  ciLower: number | null;
  ciUpper: number | null;
  sampleSize: number;
  /** Sessions behind the figure: its own tier's basis. */
  sessions: number;
  confidence: string;
  margin?: number;
  pValue?: number | null;
  note?: string;
  /** The figure would have raised `code` but has fewer sessions of its own than `minSessions`. */
  flagWithheld?: { code: string; minSessions: number };
  /** False where the design cannot identify the figure (`note` says why). */
  estimable?: false;
}

/** A reviewer whose offset changed within the window: the change and its periods, oldest first. */
export interface ReviewerDrift {
  cause: 'config_version' | 'scan';
  pValue: number;
  change: Figure;
  since: { sessionId: string; timestamp: string };
  periods: { start: string; end: string; sessions: number; configVersion?: string; offset: Figure }[];
}

/** A reviewer the drift test found no change in on a short window: the change it would likely have missed. */
export interface ReviewerDriftPower {
  sessions: number;
  undetectableBelow: number;
  note: string;
}

export interface BiasFlag {
  code: string;
  subject: string | null;
  metric: string;
  estimate: number;
  ciLower: number | null;
  ciUpper: number | null;
}

export interface BiasReportDocument {
  report: {
    window: { sessions: number; observations: number; start: string | null; end: string | null };
    confidence: string;
    meetsMinimum: boolean;
    minSessions: number;
    length: { slope: Figure | null } | null;
    position: {
      effects: Figure[];
      /** Present when the display orders cannot tell position from author or length. */
      identifiability?: { estimable: false; reason: string };
    } | null;
    reviewers:
      { reviewer: string; offset: Figure | null; drift?: ReviewerDrift; driftPower?: ReviewerDriftPower }[] | null;
    flags: BiasFlag[];
    notes: string[];
  } | null;
  /** With `calibrated=true` (`bias-report --calibrated`): issue 31's figures of the same window. */
  calibrated?: CalibratedFigures;
  styleControlled?: StyleControlled;
}

/** An estimate with its interval; null where not computable. */
export interface IntervalFigure {
  estimate: number | null;
  lower: number | null;
  upper: number | null;
}

/** The calibrated view (`calibratedView`), the pooled offsets and how many judges the reviewers are worth. */
export interface CalibratedFigures {
  note: string;
  level: number;
  sessions: number;
  observations: number;
  identified: boolean;
  leaderboard: {
    model: string;
    answers: number;
    raw: IntervalFigure;
    calibrated: IntervalFigure;
    rawRank: number;
    calibratedRank: number;
  }[];
  /** Every pair of models in leaderboard order (`model` above `other`): how far apart, raw and calibrated. */
  differences: { model: string; other: string; raw: IntervalFigure; calibrated: IntervalFigure }[];
  effectiveJudges: {
    reviewers: number;
    effective: IntervalFigure;
    standardErrorFactor: number | null;
    pairs: {
      reviewer: string;
      other: string;
      answers: number;
      correlation: IntervalFigure;
      effective: IntervalFigure;
    }[];
  };
}

/** A Bradley–Terry rating (Elo scale) with its bootstrap interval. */
export interface RatedCandidate {
  candidate: string;
  rating: number;
  interval: { lower: number; upper: number } | null;
  rank: number;
}

/** Bradley–Terry with answer length as a covariate beside the plain fit, or why not. */
export type StyleControlled =
  | {
      computable: true;
      plain: RatedCandidate[];
      styleControlled: RatedCandidate[];
      coefficients: { feature: string; coefficient: number; interval: { lower: number; upper: number } | null }[];
      comparisons: number;
      sessions: number;
      note: string;
    }
  | { computable: false; reason: string };

export interface ApiErrorBody {
  error: { code: string; message: string };
}
