import { expandPools } from '@council/core';
import type { CouncilConfig, CouncilMember, Personality, RunCouncilOptions } from '@council/core';
import type { LanguageModelV1, SimulatedSettings } from '@council/providers';
import { checkMemberCap } from './check-member-cap.js';
import { checkModels } from './check-models.js';
import { checkStrategy } from './check-strategy.js';
import { CliError } from './cli-error.js';
import { councilOptionsFromFlags } from './council-options-from-flags.js';
import { seatCouncil } from './council-seats.js';
import type { CouncilSeats } from './council-seats.js';
import { createModelResolver } from './create-model-resolver.js';
import { endpointConcurrency } from './endpoint-concurrency.js';
import { applyModelOptions } from './member-model-options.js';
import type { CouncilRunFlags } from './parse-council-run-flags.js';
import type { CouncilSettings } from './settings/council-settings.js';
import { withConfiguredPersistence } from './settings/bias-records-opt-in.js';
import { loadCouncilConfig } from './settings/load-council-config.js';
import { requireHashSecret } from './settings/require-hash-secret.js';

/** A council seated once for many sessions (`batch`, `eval`): who sits, how models resolve, and each session's options. */
export interface BatchCouncil {
  /** The settings with config.yaml's `bias_persistence` applied (what `persistSession` gets). */
  settings: CouncilSettings;
  config: CouncilConfig;
  personalities: readonly Personality[];
  seats: CouncilSeats;
  /** The chairman and its fallbacks, pools expanded. */
  chairmen: readonly CouncilMember[];
  /** Resolves a model id with the run's providers, retries, concurrency and temperature. */
  resolveModel: (id: string) => LanguageModelV1;
  /** Whether sessions run the per-session bias audit. */
  biasAudit: boolean;
  /**
   * `runCouncil`'s options for one session of the run: `query`, the seated members and chairman (fallbacks), the
   * config, the flags' stage options, and the run's seed joined with `key` (so each prompt has its own orders).
   * `resolveModel` may replace the run's (eval's demo wraps it per item).
   */
  sessionOptions(options: {
    query: string;
    key: string;
    resolveModel?: (id: string) => LanguageModelV1;
  }): RunCouncilOptions;
}

/**
 * Seats the council of a run of many sessions, from the flags over config.yaml, with the checks `batch` has always
 * made, in its order: the hash secret (when persisting), config.yaml, pools, at least two and at most the cap of
 * members, the strategy, each model's key. `simulated` gives `simulated:` models these settings (eval's `--demo`).
 */
export async function prepareBatchCouncil(options: {
  flags: Partial<CouncilRunFlags> & { endpointConcurrency?: number | undefined; maxCostUsd?: number | undefined };
  given: CouncilSettings;
  simulated?: SimulatedSettings;
}): Promise<BatchCouncil> {
  const { flags, given } = options;
  const env = given.secrets.providerEnv;
  if (flags.persist !== false) requireHashSecret(given);
  const loaded = await loadCouncilConfig(given);
  // config.yaml's bias_persistence decides whether bias records are saved, unless the environment said (as ask).
  const settings = withConfiguredPersistence(given, loaded.config);
  // `@name` names a pool of config.yaml, as in `ask`: its models; for the chairman, the first chairs, the rest fall back.
  const pools = loaded.config.pools;
  const members = expandPools(flags.models ?? loaded.config.members, {
    pools,
    source:
      flags.models === undefined ? 'the configured members (LLM_COUNCIL_MODELS or config.yaml members)' : '--models',
  });
  if (members.length < 2)
    throw new CliError({
      code: 'USAGE',
      message:
        'A council needs at least two models: pass --models a,b,c, list them under members: in config.yaml, or set LLM_COUNCIL_MODELS.',
    });
  checkMemberCap({
    count: members.length,
    source:
      flags.models === undefined ? 'the configured members (LLM_COUNCIL_MODELS or config.yaml members)' : '--models',
  });
  const chairmen = expandPools([flags.chairman ?? loaded.config.chairman ?? members[0]!], {
    pools,
    source: flags.chairman === undefined ? 'the configured chairman' : '--chairman',
  });
  const chairman = chairmen[0]!;
  checkStrategy({ config: loaded.config, strategy: flags.strategy, goal: flags.goal });
  // --system and -o temperature=… over config.yaml's model_options, per model id (issue 30 item 15).
  const modelOptions = applyModelOptions({ flags, config: loaded.config.modelOptions });
  const resolveModel = modelOptions.resolveModel(
    createModelResolver({
      env,
      maxRetries: flags.retries ?? loaded.config.retries,
      maxResponseBytes: loaded.config.maxReplyBytes,
      concurrency: endpointConcurrency(loaded.config, flags.endpointConcurrency),
      ...(options.simulated === undefined ? {} : { simulated: options.simulated }),
    }),
  );
  // Personality ids sit as their personality (model and system prompt); checked by the models behind them.
  const seats = seatCouncil({ members, chairman, personalities: loaded.personalities });
  checkModels({ ids: seats.modelIds, env, resolveModel });
  const biasAudit = settings.biasAudit === null ? true : loaded.config.biasAudit;
  return {
    settings,
    config: loaded.config,
    personalities: loaded.personalities,
    seats,
    chairmen,
    resolveModel,
    biasAudit,
    sessionOptions: ({ query, key, resolveModel: resolve }) => ({
      query,
      members: seats.members.map(modelOptions.seat),
      chairman: seats.chairman,
      ...(chairmen.length > 1 ? { chairmanFallbacks: [...chairmen.slice(1), ...loaded.config.chairmanFallbacks] } : {}),
      config: loaded.config,
      resolveModel: resolve ?? resolveModel,
      biasAudit,
      biasAuditThresholds: settings.biasThresholds,
      ...councilOptionsFromFlags(flags),
      ...(flags.seed === undefined ? {} : { seed: `${flags.seed}:${key}` }),
    }),
  };
}
