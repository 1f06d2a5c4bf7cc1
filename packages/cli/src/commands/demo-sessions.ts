import { runCouncil } from '@council/core';
import type { CouncilSession, LoadedConfig, RunCouncilOptions } from '@council/core';
import type { SimulatedSettings } from '@council/providers';
import { createModelResolver } from '../create-model-resolver.js';
import { persistSession } from '../persist-session.js';
import type { CouncilSettings } from '../settings/council-settings.js';

export const DEMO_MEMBERS = [
  'simulated:ada',
  'simulated:basil',
  'simulated:cleo',
  'simulated:dmitri',
  'simulated:edda',
] as const;

/**
 * The biases built into the demo's personas, so the report has something true to find: every reviewer
 * favours the first answers it is shown; ada prefers its own answer; dmitri is a harsh grader.
 */
export const DEMO_BIASES: SimulatedSettings = {
  biases: { position: 1 },
  personas: {
    ada: { biases: { selfPreference: 1.2 } },
    dmitri: { biases: { harshness: 1.5 } },
  },
};

/** Further simulated sessions after the first, by default: enough for the report's moderate tier (20–49 sessions). */
export const DEMO_SESSIONS = 40;

const QUESTIONS = [
  'How should a small team start writing automated tests for a legacy codebase?',
  'What is a sensible backup strategy for a small company file server?',
  'How do I choose between PostgreSQL and SQLite for a new web app?',
  'What are good first steps to reduce cloud costs?',
  'How should we structure on-call for a team of five engineers?',
  'What makes a code review useful rather than a formality?',
  'How can a data team document its pipelines so others can use them?',
  'When is it worth rewriting a service instead of refactoring it?',
];

const HOUR = 3_600_000;

/** The demo's plan: `count` sessions after the first, its seed, and the time the newest one ends near. */
export interface DemoPlan {
  count: number;
  seed: number;
  /** The clock's "now" when the demo started (ms): the newest session is a minute older. */
  now: number;
  /** `Date.now()` when the demo started, so each session's clock moves on in real time from its place. */
  started: number;
}

/**
 * Session `i` of the demo (0 is the first, shown live; 1 to `count` run in the background): its question, seed and
 * clock. Sessions are spread six hours apart over the last days, oldest first, so the report has a window and trends;
 * the newest is a minute old, so no session can fall after the report's "now".
 */
export function demoSession(plan: DemoPlan, i: number): Pick<RunCouncilOptions, 'query' | 'seed' | 'clock'> {
  const offset = (plan.count - i) * 6 * HOUR + 60_000;
  return {
    query: QUESTIONS[i % QUESTIONS.length]!,
    seed: i === 0 ? plan.seed : plan.seed * 1000 + i,
    clock: { now: () => Date.now() - plan.started + plan.now - offset },
  };
}

/** What every demo session shares: the personas, the chairman, the config, a per-reviewer order and the bias audit. */
export function demoCouncilBase(settings: CouncilSettings, config: LoadedConfig['config']) {
  return {
    members: [...DEMO_MEMBERS],
    chairman: DEMO_MEMBERS[0],
    config,
    order: 'per-reviewer' as const,
    biasAudit: true,
    biasAuditThresholds: settings.biasThresholds,
  };
}

/**
 * Runs the demo's sessions `from` to `to` (inclusive) on the simulated personas, without latency, and saves each
 * (history, bias records, contributions) under `settings`: the sessions `council demo` runs with the same plan.
 */
export async function runDemoSessions(options: {
  plan: DemoPlan;
  from: number;
  to: number;
  settings: CouncilSettings;
  config: LoadedConfig['config'];
  version: string;
  onSession?: (i: number, session: CouncilSession) => void;
}): Promise<CouncilSession[]> {
  const { plan, settings, config } = options;
  const resolveModel = createModelResolver({
    env: settings.secrets.providerEnv,
    simulated: { ...DEMO_BIASES, seed: plan.seed, latencyScale: 0 },
  });
  const base = demoCouncilBase(settings, config);
  const sessions: CouncilSession[] = [];
  for (let i = options.from; i <= options.to; i++) {
    const session = await runCouncil({ ...base, ...demoSession(plan, i), resolveModel });
    await persistSession({ session, settings, version: options.version, keepQuestion: config.historyQuestions });
    sessions.push(session);
    options.onSession?.(i, session);
  }
  return sessions;
}
