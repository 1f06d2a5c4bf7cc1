import { systemClock } from './clock.js';
import type { Clock } from './clock.js';
import { ProviderError } from './provider-error.js';
import { defineProvider } from './provider-v1.js';
import type { ProviderV1 } from './provider-v1.js';
import { resolvePersona } from './simulated-persona.js';
import type { SimulatedBiases, SimulatedPersonaSettings } from './simulated-persona.js';
import { SimulatedModel } from './simulated-model.js';

export interface SimulatedSettings {
  /** Seeds every persona; a call's `seed` overrides it. Default 0. */
  seed?: number;
  /** Persona settings by name, over the default roster (`ada`, `basil`, `cleo`, `dmitri`, `edda`) or a persona derived from the name. */
  personas?: Record<string, SimulatedPersonaSettings>;
  /** Biases for every persona (a persona's own `biases` win). */
  biases?: SimulatedBiases;
  /** Multiplies every persona's latency; 0 answers at once. Default 1. */
  latencyScale?: number;
  /** The clock that latency sleeps on. */
  clock?: Clock;
}

/**
 * The offline provider: `simulated:<name>` models that answer questions, review in the council's
 * evaluation format and synthesise in its chairman format, deterministically, labelled `[simulated]`.
 */
export function createSimulated(settings: SimulatedSettings = {}): ProviderV1 {
  const latencyScale = settings.latencyScale ?? 1;
  if (!(latencyScale >= 0))
    throw new ProviderError({
      code: 'INVALID_SETTINGS',
      message: `createSimulated: latencyScale must be ≥ 0 (got ${latencyScale}).`,
    });
  return defineProvider('simulated', (name) => {
    if (!/^[A-Za-z0-9][\w.-]*$/.test(name)) {
      throw new ProviderError({
        code: 'INVALID_SETTINGS',
        message: `Simulated model name "${name}" must be letters, digits, ".", "_" or "-", e.g. simulated:ada.`,
      });
    }
    return new SimulatedModel({
      name,
      persona: resolvePersona(name, settings.personas?.[name], settings.biases),
      seed: settings.seed ?? 0,
      latencyScale,
      clock: settings.clock ?? systemClock,
    });
  });
}

/** The default simulated provider: the roster, seed 0, no biases. */
export const simulated: ProviderV1 = createSimulated();
