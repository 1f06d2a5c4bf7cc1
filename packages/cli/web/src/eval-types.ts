/** What the page reads of `GET /api/evals` and `GET /api/evals/{id}` (council eval --json's document). */

export interface EvalInterval {
  lower: number;
  upper: number;
}

export interface EvalFigure {
  estimate: number | null;
  interval: EvalInterval | null;
  n: number;
  count?: number;
}

export interface EvalItems {
  total: number;
  done: number;
  notDone: number;
  withCouncil: number;
  withPreference: number;
  withScore: number;
}

export interface EvalRunSummary {
  id: string;
  generatedAt: string;
  journal: string;
  demo: boolean;
  items: EvalItems;
  members: string[];
  totalCostUsd: number | null;
}

export interface EvalBiasFigure {
  estimate: number | null;
  interval: EvalInterval | null;
  sessions: number;
  confidence: string;
}

export interface EvalReportDocument {
  kind: 'council-eval';
  generatedAt: string;
  journal: string;
  demo: boolean;
  grader: string;
  items: EvalItems;
  members: {
    member: string;
    keyContent: EvalFigure;
    graded: EvalFigure;
    winRate: EvalFigure;
    costUsd: number | null;
    correctPerDollar: number | null;
  }[];
  council: EvalFigure;
  councilVsBest: {
    items: number;
    council: number | null;
    best: { member: string; rate: number } | null;
    difference: EvalFigure;
  };
  reviewers: {
    reviewer: string;
    preferences: { n: number; kappa: EvalFigure; agreement: EvalFigure };
    scores: { n: number; rho: EvalFigure; alpha: EvalFigure };
    bias: { offset: EvalBiasFigure | null; selfPreference: EvalBiasFigure | null };
  }[];
  cost?: { totalUsd: number | null };
  sentences: string[];
  notes: string[];
}
