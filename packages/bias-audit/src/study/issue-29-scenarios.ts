import { messyPlants } from './messy-plants.js';
import type { MessyCouncil } from './simulate-messy-councils.js';
import type { StudyScenario } from './study-scenario.js';
import { issue13Council } from './study-scenarios.js';

/**
 * The council of issue 13's study, as a messy council: 5 members who each review the other 4 answers,
 * noise SD 0.8, a 1–10 scale, answers of 3,000 ± 1,000 characters. Each shape below changes it in one way.
 */
const council: MessyCouncil = { ...issue13Council };

/** Issue 13's three planted effects: length 0.4 points per 1,000 characters, primacy 0.25 per position, `model-0` 1.2 harsh. */
const trio: MessyCouncil = { lengthSlopePer1000Chars: 0.4, primacyPerPosition: 0.25, reviewerOffsets: [-1.2] };

interface Shape {
  name: string;
  description: string;
  council: MessyCouncil;
}

/**
 * The shapes issue 29 lists (the ones real councils have), each a change to `council`. They are written
 * from the issue's words, not from what the report does: the planted sizes are the issue's ("about a
 * point harsh", +1.0 and +1.5 affinities, a 1-point drift half-way, t with 3 degrees of freedom).
 */
const SHAPES: readonly Shape[] = [
  {
    name: 'two-harsh',
    description: 'model-0 and model-1 each 1 point harsh (2 of 5: the breakdown point of a majority reference).',
    council: { ...council, reviewerOffsets: [-1, -1] },
  },
  {
    name: 'three-harsh-of-7',
    description: '7 members, model-0…model-2 each 1 point harsh (3 of 7: the breakdown point).',
    council: { ...council, models: 7, reviewers: 7, reviewerOffsets: [-1, -1, -1] },
  },
  {
    name: 'two-generous',
    description: 'model-0 and model-1 each 1 point generous.',
    council: { ...council, reviewerOffsets: [1, 1] },
  },
  {
    name: 'rotating-council',
    description:
      '7 members, 3–6 of them (uniform) in each session, each review missing with chance 0.1; model-0 1.2 points harsh.',
    council: {
      ...council,
      models: 7,
      reviewers: 7,
      attendance: { min: 3, max: 6 },
      missingReviewRate: 0.1,
      reviewerOffsets: [-1.2],
    },
  },
  {
    name: 'affinity-strong',
    description: 'model-0 scores model-1 1.5 points higher, fair to the rest.',
    council: { ...council, affinity: [{ reviewer: 0, candidate: 1, points: 1.5 }] },
  },
  {
    name: 'affinity-weak',
    description: 'model-0 scores model-1 1.0 point higher, fair to the rest.',
    council: { ...council, affinity: [{ reviewer: 0, candidate: 1, points: 1 }] },
  },
  {
    name: 'shared-order',
    description: 'One order per session shared by every reviewer; primacy 0.25 points per position.',
    council: { ...council, order: 'shared', primacyPerPosition: 0.25 },
  },
  {
    name: 'author-fixed-order',
    description:
      'Every reviewer shown the answers by author (never shuffled); authors differ in quality (+0.6, +0.3, 0, −0.3, −0.6); no position effect.',
    council: { ...council, order: 'by-author', authorQuality: [0.6, 0.3, 0, -0.3, -0.6] },
  },
  {
    name: 'length-sorted-order',
    description: 'Answers shown longest first; length 0.4 points per 1,000 characters; no position effect.',
    council: { ...council, order: 'by-length', lengthSlopePer1000Chars: 0.4 },
  },
  {
    name: 'heavy-tails',
    description:
      "Reviewer noise t with 3 df (SD 0.8); issue 13's three effects (length 0.4, primacy 0.25, model-0 −1.2).",
    council: { ...council, ...trio, noiseDf: 3 },
  },
  {
    name: 'integer-ties',
    description:
      'Integer scores; each reviewer ranks by its integer scores, a tie to the answer shown first; nothing planted.',
    council: { ...council, scale: { min: 1, max: 10, step: 1 }, rankTies: 'by-position' },
  },
  {
    name: 'drift',
    description: 'model-0 turns 1 point harsh half-way through the window; the config version stays 1.0.0.',
    council: { ...council, drift: { reviewer: 0, points: -1, atFraction: 0.5 } },
  },
  {
    name: 'drift-config',
    description: 'model-0 turns 1 point harsh half-way, with a config change (1.0.0 → 1.1.0) at that session.',
    council: { ...council, drift: { reviewer: 0, points: -1, atFraction: 0.5, configVersion: '1.1.0' } },
  },
  {
    name: 'rank-only',
    description: "model-4 ranks without scoring; issue 13's three effects (length 0.4, primacy 0.25, model-0 −1.2).",
    council: { ...council, ...trio, rankOnly: [4] },
  },
];

const SESSIONS = [20, 50, 300] as const;

/**
 * Issue 29's validity study: every shape at 20, 50 and 300 sessions, judged by the targets of issue 13's
 * study (exactly the planted flags ≥ 95% of runs at 300 sessions; any flag not planted ≤ 5%; coverage
 * 93.5–96.5% at 20 and 50 sessions for every interval family the shape identifies, reported at 300).
 * Full runs: 1,000 at 20 and 50 sessions, 200 at 300. Shape i, size j uses seeds from
 * 29,000,000 + 100,000·i + 10,000·j.
 */
export const ISSUE_29_SCENARIOS: readonly StudyScenario[] = SHAPES.flatMap((shape, i) => {
  const plants = messyPlants(shape.council);
  return SESSIONS.map((sessions, j): StudyScenario => {
    const plantsFlags = plants.flags.length > 0;
    return {
      name: `${shape.name}-${sessions}`,
      description: `${shape.description} ${sessions} sessions.`,
      sessions,
      runs: sessions === 300 ? 200 : 1000,
      seed: 29_000_000 + 100_000 * i + 10_000 * j,
      simulation: shape.council,
      plants,
      targets: {
        ...(plantsFlags ? { anyOtherFlag: { max: 0.05 } } : { anyFlag: { max: 0.05 } }),
        ...(plantsFlags && sessions === 300 ? { exactlyPlanted: { min: 0.95 } } : {}),
        ...(sessions === 300 ? { coverage: null } : {}),
      },
    };
  });
});
