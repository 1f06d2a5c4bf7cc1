import { createMulberry32FromParts } from './create-mulberry32-from-parts.js';

/**
 * A simulated reviewer's biases, in score points (scores run 1–10). All 0 by default, and then a
 * council of simulated models is unbiased: position and length are uncorrelated with scores.
 */
export interface SimulatedBiases {
  /** Points added to the first displayed response, falling linearly to minus this at the last; negative favours late positions. */
  position?: number;
  /** Points added per doubling of a response's length relative to the mean length of those shown. */
  length?: number;
  /** Points added to its own stage-1 answer, which it recognises by its writing style. */
  selfPreference?: number;
  /** Points subtracted from every score. */
  harshness?: number;
}

/** A simulated persona: how it answers, how fast, and how it reviews. */
export interface SimulatedPersona {
  /** Latent quality in [0, 1]: the chance each sentence of its answers is substantive rather than filler. */
  quality: number;
  /** Mean sentences per answer (each answer varies ±40 %). */
  answerSentences: number;
  /** Mean latency of a call (each call varies ±20 %). */
  latencyMs: number;
  /** Standard deviation of the seeded noise in its scores, in points. */
  noise: number;
  /** Writing style 0–63 (an opening and a sign-off line): how it recognises its own answers. */
  style: number;
  biases: Required<SimulatedBiases>;
}

/** Settings for one persona; anything left out comes from the roster or is derived from the name. */
export type SimulatedPersonaSettings = Partial<Omit<SimulatedPersona, 'biases'>> & { biases?: SimulatedBiases };

const noBiases: Required<SimulatedBiases> = { position: 0, length: 0, selfPreference: 0, harshness: 0 };

/**
 * The default roster for the offline demo. Quality is spread evenly; every persona writes the same
 * mean length (each answer varies ±40 %), so in any council drawn from the roster an answer's length
 * says nothing about its quality.
 */
export const defaultSimulatedPersonas: Readonly<Record<string, SimulatedPersona>> = {
  ada: { quality: 0.85, answerSentences: 9, latencyMs: 30, noise: 0.6, style: 0, biases: noBiases },
  basil: { quality: 0.7, answerSentences: 9, latencyMs: 50, noise: 0.6, style: 9, biases: noBiases },
  cleo: { quality: 0.55, answerSentences: 9, latencyMs: 40, noise: 0.6, style: 18, biases: noBiases },
  dmitri: { quality: 0.4, answerSentences: 9, latencyMs: 60, noise: 0.6, style: 27, biases: noBiases },
  edda: { quality: 0.25, answerSentences: 9, latencyMs: 45, noise: 0.6, style: 36, biases: noBiases },
};

/** The persona for a name: the roster's entry or one derived from the name, with `settings` over it. */
export function resolvePersona(
  name: string,
  settings: SimulatedPersonaSettings | undefined,
  shared: SimulatedBiases | undefined,
): SimulatedPersona {
  const random = createMulberry32FromParts(['persona', name]);
  const derived: SimulatedPersona = {
    quality: 0.25 + 0.6 * random(),
    // The same mean length as the roster: a derived persona's length must not track its quality.
    answerSentences: 9,
    latencyMs: 30 + Math.floor(random() * 40),
    noise: 0.6,
    style: Math.floor(random() * 64),
    biases: noBiases,
  };
  const base = defaultSimulatedPersonas[name] ?? derived;
  const persona: SimulatedPersona = {
    ...base,
    ...settings,
    biases: { ...noBiases, ...base.biases, ...shared, ...settings?.biases },
  };
  if (!(persona.quality >= 0 && persona.quality <= 1))
    throw new RangeError(`Simulated persona "${name}": quality must lie in [0, 1] (got ${persona.quality}).`);
  if (!(persona.answerSentences >= 1))
    throw new RangeError(
      `Simulated persona "${name}": answerSentences must be at least 1 (got ${persona.answerSentences}).`,
    );
  persona.style = ((Math.floor(persona.style) % 64) + 64) % 64;
  return persona;
}
