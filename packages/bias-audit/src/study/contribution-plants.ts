import type { ContributionInput } from '../contributions-report.js';
import type { SeededRandom } from '../create-seeded-sfc32.js';

/** One simulated member: how often it sits in, how often the chairman credits it, and how much when it does. */
export interface PlantedMember {
  id: string;
  /** Probability the member sits in a session (absent otherwise). */
  presence: number;
  /** Probability a block credits the member when it sits in. */
  credit: number;
  /** Scale of its raw weight (exponential) before the block is normalised: larger dominates. */
  scale: number;
}

/** A simulated council: its members, and how sessions differ. */
export interface ContributionPlant {
  name: string;
  description: string;
  members: readonly PlantedMember[];
  /** Probability the chairman credits only the member with the largest raw weight (weight 1, others 0). */
  winnerTakesAll: number;
  /** Probability a session's chairman gave no usable block (weight null for every member). */
  noBlock: number;
  /** Sessions differ: each session's scales are multiplied by exp(N(0, heterogeneity²)) per member. */
  heterogeneity: number;
}

/**
 * One simulated session: members sit in by `presence` (at least two do), a block is missing with `noBlock`,
 * otherwise each member is credited with probability `credit` and raw weight scale·Exp(1)·e^{hN(0,1)}; the
 * credited weights are normalised to sum to 1 (a block crediting nobody credits the largest raw weight alone),
 * and with probability `winnerTakesAll` the largest takes 1. The vote winner is the largest raw weight.
 */
export function simulateSession(
  plant: ContributionPlant,
  options: { random: SeededRandom; index: number },
): ContributionInput[] {
  const { random, index } = options;
  let present = plant.members.filter((m) => random.next() < m.presence);
  if (present.length < 2) present = [...plant.members].slice(0, 2);
  const raw = present.map(
    (m) => -Math.log(1 - random.next()) * m.scale * Math.exp(plant.heterogeneity * random.normal()),
  );
  const credited = present.map((m) => random.next() < m.credit);
  const top = raw.indexOf(Math.max(...raw));
  const noBlock = random.next() < plant.noBlock;
  const takeAll = random.next() < plant.winnerTakesAll || !credited.some(Boolean);
  let total = 0;
  for (let i = 0; i < present.length; i++) if (credited[i]) total += raw[i]!;
  const sessionId = `s${index}`;
  const timestamp = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString();
  return present.map((m, i) => ({
    sessionId,
    timestamp,
    member: m.id,
    strategy: index % 2 === 0 ? 'balanced' : 'risk-averse',
    weight: noBlock ? null : takeAll ? (i === top ? 1 : 0) : credited[i] ? raw[i]! / total : 0,
    voteWinner: i === top,
  }));
}

/** The study's plants: realistic councils for the influence-share interval. */
export const CONTRIBUTION_PLANTS: readonly ContributionPlant[] = [
  {
    name: 'dominant',
    description:
      'one member dominates (scale 4, credited 95%); three others credited 60–80%; every member always present',
    members: [
      { id: 'dominant', presence: 1, credit: 0.95, scale: 4 },
      { id: 'steady', presence: 1, credit: 0.8, scale: 1 },
      { id: 'minor', presence: 1, credit: 0.6, scale: 0.7 },
      { id: 'rare', presence: 1, credit: 0.15, scale: 0.5 },
    ],
    winnerTakesAll: 0.1,
    noBlock: 0.05,
    heterogeneity: 0.3,
  },
  {
    name: 'absences',
    description: 'members absent from 30–60% of sessions, one credited in 10% only; blocks missing in 10%',
    members: [
      { id: 'regular', presence: 1, credit: 0.9, scale: 1.5 },
      { id: 'part-time', presence: 0.5, credit: 0.8, scale: 1 },
      { id: 'occasional', presence: 0.4, credit: 0.1, scale: 1 },
      { id: 'visitor', presence: 0.7, credit: 0.7, scale: 1 },
    ],
    winnerTakesAll: 0.05,
    noBlock: 0.1,
    heterogeneity: 0.5,
  },
  {
    name: 'sessions-differ',
    description:
      'strong session effects (log-scale sd 1.2) and winner-takes-all blocks in 40% of sessions: weights mostly 0 or 1',
    members: [
      { id: 'a', presence: 0.9, credit: 0.7, scale: 1.2 },
      { id: 'b', presence: 0.9, credit: 0.7, scale: 1 },
      { id: 'c', presence: 0.8, credit: 0.5, scale: 0.8 },
      { id: 'd', presence: 0.6, credit: 0.3, scale: 0.6 },
      { id: 'e', presence: 0.6, credit: 0.9, scale: 1 },
    ],
    winnerTakesAll: 0.4,
    noBlock: 0.05,
    heterogeneity: 1.2,
  },
];
